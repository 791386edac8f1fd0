import type { CustomCommand } from "just-bash";
import type { SiteView } from "../../../vfs/view.js";

/**
 * A command of our own, built for one reader's view. just-bash hands commands a wrapped
 * filesystem, so commands that need the fast path (direct access to file texts, no async
 * call per file) get the view itself through this factory.
 */
export type ShellCommandFactory = (view: SiteView, place?: ShellCommandPlace) => CustomCommand;

/** Where the shell runs, for a command that must know how it can be stopped. */
export interface ShellCommandPlace {
  /**
   * CPU time of its own thread that code no step count reaches (jq's WebAssembly) may use: the
   * pool's CPU limit in a shell worker (`ShellHostOptions.maxCpuMs`), so that a runaway jq ends
   * at the figure the rest of the worker's commands meet. Absent: `LIMITS.shell.maxCpuMs`.
   */
  readonly maxCpuMs: number;
}
