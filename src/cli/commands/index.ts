import type { CliCommand } from "../command.js";
import { checkCommand } from "./check.js";
import { connectCommand } from "./connect.js";
import { credentialsCommand } from "./credentials.js";
import { feedbackCommand } from "./feedback.js";
import { fsCommand } from "./fs.js";
import { installCommand } from "./install.js";
import { keysCommand } from "./keys.js";
import { mcpCommand } from "./mcp.js";
import { navCommand } from "./nav.js";
import { redirectDomainsCommand } from "./redirect-domains.js";
import { schemaCommand } from "./schema.js";
import { searchCommand } from "./search.js";
import { serveCommand } from "./serve.js";
import { usersCommand } from "./users.js";

/**
 * Every `svc-mcp` subcommand, in the order `--help` lists them. Adding a command means adding
 * its file under `commands/` and one line here (and its section in the README).
 */
export const COMMANDS: readonly CliCommand[] = [
  serveCommand,
  searchCommand,
  fsCommand,
  checkCommand,
  navCommand,
  schemaCommand,
  feedbackCommand,
  keysCommand,
  mcpCommand,
  usersCommand,
  credentialsCommand,
  redirectDomainsCommand,
  connectCommand,
  installCommand,
];
