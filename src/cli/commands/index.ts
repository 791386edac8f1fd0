import type { CliCommand } from "../command.js";
import { feedbackCommand } from "./feedback.js";
import { fsCommand } from "./fs.js";
import { keysCommand } from "./keys.js";
import { searchCommand } from "./search.js";
import { serveCommand } from "./serve.js";

/**
 * Every `svc-mcp` subcommand, in the order `--help` lists them. Adding a command means adding
 * its file under `commands/` and one line here (and its section in the README).
 */
export const COMMANDS: readonly CliCommand[] = [serveCommand, searchCommand, fsCommand, feedbackCommand, keysCommand];
