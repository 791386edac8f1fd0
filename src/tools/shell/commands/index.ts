import type { ShellCommandFactory } from "./command.js";

/**
 * Our implementations that replace just-bash built-ins: the hot commands (fast paths over the
 * view) and the ones whose output must match GNU tools and ripgrep byte for byte.
 */
export const SHELL_COMMANDS: readonly ShellCommandFactory[] = [];
