import { docsCommand } from "../../lib/command.js";
import type { ShellCommandFactory } from "../command.js";
import { clapError } from "./clap-error.js";
import { HELP } from "./help.js";
import { rgSettings } from "./options.js";
import { runRg } from "./search.js";

/**
 * ripgrep 13 over the view, as it prints when piped: `options.ts` reads the command line into
 * settings, `search.ts` finds and searches the files, `output.ts` prints one file's lines.
 */
export const rgCommand: ShellCommandFactory = (view) =>
  docsCommand(view, {
    name: "rg",
    help: HELP,
    usageError: clapError,
    run: async (args, io) => {
      const settings = rgSettings(args, io);
      if (typeof settings === "number") return settings;
      return runRg(settings, io);
    },
  });
