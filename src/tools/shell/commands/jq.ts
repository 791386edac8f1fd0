import type { Command } from "just-bash";
import type { ShellCommandFactory } from "./command.js";

/** The jq version we report: the one whose output our fidelity suite compares against. */
const JQ_VERSION = "jq-1.6";

/** jq is just-bash's; this adds `--version`, which it lacks. */
export const jqCommand: ShellCommandFactory = (): Command => ({
  name: "jq",
  async execute(args, ctx) {
    if (args.length === 1 && args[0] === "--version") return { stdout: `${JQ_VERSION}\n`, stderr: "", exitCode: 0 };
    if (ctx.origCommand === undefined) return { stdout: "", stderr: "jq: not available\n", exitCode: 127 };
    return ctx.origCommand(args);
  },
});
