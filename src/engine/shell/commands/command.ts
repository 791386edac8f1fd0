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
   * The shell runs in a worker thread whose host ends it at the CPU limit (`ShellHost`): a
   * command may run code no step count reaches (jq's WebAssembly) in this thread. Otherwise
   * (the process's own thread) such code must run in a thread of its own.
   */
  readonly hostEndsThread: boolean;
}
