import type { Command, CommandContext } from "just-bash";
import type { ShellCommandFactory } from "./command.js";

/**
 * just-bash built-ins kept, with their arguments corrected on the way in where they differ
 * from GNU coreutils:
 * - `paste` with no FILE reads standard input (`seq 3 | paste -sd,`); just-bash wants `-`;
 * - `tr` understands octal escapes (`tr '\0' '\n'` after `find -print0`); just-bash reads
 *   `\0` as the digit 0.
 */
function wrap(name: string, rewrite: (args: readonly string[]) => string[]): ShellCommandFactory {
  return (): Command => ({
    name,
    async execute(args: string[], ctx: CommandContext) {
      if (ctx.origCommand === undefined) return { stdout: "", stderr: `${name}: not available\n`, exitCode: 127 };
      return ctx.origCommand(rewrite(args));
    },
  });
}

/** paste: `-` when no FILE is named. */
export function pasteArguments(args: readonly string[]): string[] {
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--") {
      operands += args.length - i - 1;
      break;
    }
    if (a === "-d") i++;
    else if (a === "-" || !a.startsWith("-")) operands++;
  }
  return operands === 0 ? [...args, "-"] : [...args];
}

/** tr: octal escapes (`\0`, `\012`) in the sets become the characters they name. */
export function trArguments(args: readonly string[]): string[] {
  return args.map((a) => {
    if (a.startsWith("-") && a.length > 1 && !a.includes("\\")) return a;
    let out = "";
    for (let i = 0; i < a.length; i++) {
      const c = a[i] as string;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const octal = /^[0-7]{1,3}/.exec(a.slice(i + 1));
      if (octal !== null) {
        out += String.fromCharCode(Number.parseInt(octal[0], 8) & 0xff);
        i += octal[0].length;
      } else {
        out += c + (a[i + 1] ?? "");
        i++;
      }
    }
    return out;
  });
}

export const pasteCommand = wrap("paste", pasteArguments);
export const trCommand = wrap("tr", trArguments);
