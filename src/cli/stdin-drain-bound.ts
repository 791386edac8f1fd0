import { LIMITS } from "../limits.js";
import { CliError } from "./io.js";

/**
 * Overrides `LIMITS.mcp.stdinDrainMs` for one process. Meant for tests: the bound's own path (a
 * request still running when it passes) could otherwise be reached only by waiting 65 s. Not an
 * option in `--help`: no user needs another bound, and one read from the environment keeps the
 * MCP client configurations users copy free of it.
 */
export const STDIN_DRAIN_ENV = "SVC_MCP_STDIN_DRAIN_MS";

/** How long requests read before stdin's end may take to be answered, in ms: the environment's override, else the limit. Read before the docs load, so a bad value is said at once. */
export function stdinDrainMs(env: Readonly<Record<string, string | undefined>>): number {
  const given = env[STDIN_DRAIN_ENV];
  if (given === undefined || given === "") return LIMITS.mcp.stdinDrainMs;
  if (!/^\d{1,9}$/.test(given)) throw new CliError(`${STDIN_DRAIN_ENV} must be a whole number of milliseconds, got ${JSON.stringify(given)}`, 2);
  return Number(given);
}
