import { LIMITS } from "../limits.js";

/** The V8 options that size the young generation; one given by the operator is theirs to keep. */
const YOUNG_GENERATION = /(^|\s)--(max|min)[-_]semi[-_]space[-_]size(=|\s|$)/;

/**
 * The Node options a worker of `serve --http --workers N` starts with: the primary's own
 * (`process.execArgv`, which node:cluster would pass anyway) and a larger young generation
 * (`LIMITS.serve.workerSemiSpaceMb`), unless the operator sized it already, on the command line
 * or in `NODE_OPTIONS`. A process reads this option only as it starts (`v8.setFlagsFromString`
 * later changes nothing), so the primary is the one place to give it to the workers it forks. A
 * lone `serve --http` gets it the same way from its operator: `NODE_OPTIONS=--max-semi-space-size=64`.
 */
export function httpWorkerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const sized = execArgv.some((arg) => YOUNG_GENERATION.test(arg)) || YOUNG_GENERATION.test(nodeOptions ?? "");
  return sized ? [...execArgv] : [...execArgv, `--max-semi-space-size=${LIMITS.serve.workerSemiSpaceMb}`];
}
