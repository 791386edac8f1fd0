import { setFlagsFromString } from "node:v8";
import { LIMITS } from "../limits.js";

/** The V8 options that size the young generation; one given by the operator is theirs to keep. */
const YOUNG_GENERATION = /(^|\s)--(max|min)[-_]semi[-_]space[-_]size(=|\s|$)/;

/** V8's memory reducer, either way (`--memory-reducer`, `--no-memory-reducer`): the operator's choice is kept. */
const MEMORY_REDUCER = /(^|\s)--(no[-_])?memory[-_]reducer(=|\s|$)/;

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
 * node's command line (`node --max-semi-space-size=32 --min-semi-space-size=32 .../svc-mcp.js
 * serve --http`): Node 20 refuses `--min-semi-space-size` in `NODE_OPTIONS`, which takes only the
 * max.
 *
 * And without V8's memory reducer (issue 23), unless the operator named it: 8 s into a lull it
 * runs full collections that shrink the old generation to what is alive (a worker's 216 MB heap
 * to 144 in a bench's lull, its allocation limit with it), so the first thousands of calls after every
 * lull pay mark-compacts (pauses that hold all of a worker's connections) that a worker kept at
 * its size does not, and the reducer's own collections, parallel, take both cores from whatever
 * else runs then. A worker's heap is the index it serves plus garbage the next collection takes:
 * kept at its size through a lull, it is no larger than at its busiest.
 */
export function httpWorkerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = (option: RegExp): boolean => execArgv.some((arg) => option.test(arg)) || option.test(nodeOptions ?? "");
  const mb = LIMITS.serve.workerSemiSpaceMb;
  return [...execArgv, ...(given(YOUNG_GENERATION) ? [] : [`--max-semi-space-size=${mb}`, `--min-semi-space-size=${mb}`]), ...(given(MEMORY_REDUCER) ? [] : ["--no-memory-reducer"])];
}

/**
 * Set by the primary in the environment of a worker it gave the young generation's size
 * (`httpWorkerExecArgv`), and only then: a size the operator gave is theirs, for every thread.
 */
export const SIZED_YOUNG_GENERATION_ENV = "SVC_MCP_SIZED_YOUNG_GENERATION";

/**
 * In a worker whose primary sized its young generation: let the threads it starts from now on
 * (page read-ahead, search analysis, the shell pool, the cache's checksums) take V8's default
 * young generation again. V8 reads the semi-space options for every isolate it makes, not only
 * the main thread's, so each of those threads got the fixed 2 x 64 MB too, where its work needs
 * ~2 x 16 MB (issue 22: on a 50,000-page site an HTTP worker's six threads made its peak RSS
 * ~600 MB larger than the stdio server's, and its start used ~15 s more CPU; the search
 * traffic the size is for runs on the main thread). The main thread's heap was made at start
 * and keeps its size: V8 applies a changed option only to isolates made after it. Returns
 * whether it reset them. Call it before the process starts any thread.
 */
export function threadsTakeDefaultYoungGeneration(env: NodeJS.ProcessEnv): boolean {
  if (env[SIZED_YOUNG_GENERATION_ENV] !== "1") return false;
  // 0: unset, V8's default (Node keeps V8's options writable after start for this call).
  setFlagsFromString("--max-semi-space-size=0");
  setFlagsFromString("--min-semi-space-size=0");
  return true;
}

/** An operator's own choice of glibc's mmap threshold, in either of the forms glibc reads. */
const MMAP_THRESHOLD_GIVEN = /(^|:)glibc\.malloc\.mmap_threshold=/;

/**
 * The environment a worker of `serve --http --workers N` gets besides its primary's: glibc's
 * mmap threshold fixed at `LIMITS.serve.workerMmapThresholdBytes` (`GLIBC_TUNABLES`, added to
 * the tunables the operator gave, if any). Why (issue 22): glibc raises the threshold to the size
 * of every large block freed, so a worker's later buffers up to 32 MB came from its main heap,
 * whose freed middle it never returns: a worker of a 50,000-page site kept 227 MB there after
 * its load, 172 MB with the threshold fixed. glibc reads it only as the process starts, so the primary, which
 * forks the workers, is the one place to give it. An operator who set the threshold
 * (`MALLOC_MMAP_THRESHOLD_`, or in `GLIBC_TUNABLES`) keeps theirs; another C library ignores it.
 */
export function httpWorkerEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const tunables = env.GLIBC_TUNABLES ?? "";
  if (env.MALLOC_MMAP_THRESHOLD_ !== undefined || MMAP_THRESHOLD_GIVEN.test(tunables)) return {};
  const ours = `glibc.malloc.mmap_threshold=${LIMITS.serve.workerMmapThresholdBytes}`;
  return { GLIBC_TUNABLES: tunables === "" ? ours : `${tunables}:${ours}` };
}
