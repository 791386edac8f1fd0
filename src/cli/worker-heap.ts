import { LIMITS } from "../limits.js";

/** The V8 options that size the young generation; one given by the operator is theirs to keep. */
const YOUNG_GENERATION = /(^|\s)--(max|min)[-_]semi[-_]space[-_]size(=|\s|$)/;

/**
 * The Node options a worker of `serve --http --workers N` starts with: the primary's own
 * (`process.execArgv`, which node:cluster would pass anyway) and a larger young generation of a
 * fixed size (`LIMITS.serve.workerSemiSpaceMb` as both its least and its most), unless the
 * operator sized it already, on the command line or in `NODE_OPTIONS`. Fixed, not only bounded
 * (issue 23): V8 shrinks the young generation of a process whose allocation slows (a pause in the
 * traffic, V8's memory reducer some seconds into it) down to its least size, and grows it back only
 * as survivors accumulate, so for the first thousands of calls after every pause a worker
 * collected several times as often. A process reads these options only as it starts
 * (`v8.setFlagsFromString` later changes nothing), so the primary is the one place to give them
 * to the workers it forks. A lone `serve --http` gets them the same way from its operator, on
 * node's command line (`node --max-semi-space-size=64 --min-semi-space-size=64 .../svc-mcp.js
 * serve --http`): Node 20 refuses `--min-semi-space-size` in `NODE_OPTIONS`, which takes only the
 * max.
 */
export function httpWorkerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const sized = execArgv.some((arg) => YOUNG_GENERATION.test(arg)) || YOUNG_GENERATION.test(nodeOptions ?? "");
  const mb = LIMITS.serve.workerSemiSpaceMb;
  return sized ? [...execArgv] : [...execArgv, `--max-semi-space-size=${mb}`, `--min-semi-space-size=${mb}`];
}
