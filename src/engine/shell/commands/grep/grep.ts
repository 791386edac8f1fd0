import type { SiteView } from "../../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../../lib/command.js";
import type { Dialect } from "../../regex/patterns.js";
import type { ShellCommandFactory } from "../command.js";
import { HELP, USAGE } from "./help.js";
import { grepSettings } from "./options.js";
import { runGrep } from "./search.js";

/**
 * GNU grep 3.8 over the view (egrep and fgrep are its other dialects): `options.ts` reads the
 * command line into settings, `search.ts` finds, searches and prints.
 */
function grepSpec(_view: SiteView, name: "grep" | "egrep" | "fgrep") {
  const defaultDialect: Dialect = name === "egrep" ? "ere" : name === "fgrep" ? "fixed" : "bre";
  return {
    name,
    help: HELP,
    usage: USAGE,
    run: async (args: string[], io: CommandIo): Promise<number> => {
      if (name !== "grep") io.out.error(`${name}: warning: ${name} is obsolescent\n`);
      const settings = grepSettings(args, io, defaultDialect);
      if (typeof settings === "number") return settings;
      return runGrep(settings, io);
    },
  };
}

export const grepCommand: ShellCommandFactory = (view) => docsCommand(view, grepSpec(view, "grep"));
export const egrepCommand: ShellCommandFactory = (view) => docsCommand(view, grepSpec(view, "egrep"));
export const fgrepCommand: ShellCommandFactory = (view) => docsCommand(view, grepSpec(view, "fgrep"));
