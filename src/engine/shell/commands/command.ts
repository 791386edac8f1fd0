import type { CustomCommand } from "just-bash";
import type { SiteView } from "../../../vfs/view.js";

/**
 * A command of our own, built for one reader's view. just-bash hands commands a wrapped
 * filesystem, so commands that need the fast path (direct access to file texts, no async
 * call per file) get the view itself through this factory.
 */
export type ShellCommandFactory = (view: SiteView) => CustomCommand;
