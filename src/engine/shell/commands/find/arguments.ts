import { guardRegex } from "../../regex/guard.js";
import { PosixRegexError, translatePosix } from "../../regex/posix.js";
import { FindError } from "./expression.js";

/**
 * `-regextype` names and their syntax: emacs (findutils' default: `\(a\|b\)`, `+`, `?`, no
 * intervals), POSIX extended, or POSIX basic. The awk dialects are extended syntax.
 */
export const REGEX_TYPES: ReadonlyMap<string, "emacs" | "ere" | "bre"> = new Map([
  ["findutils-default", "emacs"],
  ["ed", "bre"],
  ["emacs", "emacs"],
  ["gnu-awk", "ere"],
  ["grep", "bre"],
  ["posix-awk", "ere"],
  ["awk", "ere"],
  ["posix-basic", "bre"],
  ["posix-egrep", "ere"],
  ["egrep", "ere"],
  ["posix-extended", "ere"],
  ["posix-minimal-basic", "bre"],
  ["sed", "bre"],
]);

/** `-perm`'s mode: octal (`644`) or symbolic (`u+r,g=rx`), as bits. Undefined when invalid. */
export function parseMode(text: string): number | undefined {
  if (/^[0-7]+$/.test(text)) return Number.parseInt(text, 8) & 0o7777;
  let mode = 0;
  for (const clause of text.split(",")) {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (m === null) return undefined;
    const who = m[1] === "" || (m[1] as string).includes("a") ? "ugo" : (m[1] as string);
    let bits = 0;
    for (const w of who) {
      const shift = w === "u" ? 6 : w === "g" ? 3 : 0;
      for (const p of m[3] as string) {
        if (p === "r") bits |= 4 << shift;
        else if (p === "w") bits |= 2 << shift;
        else if (p === "x" || p === "X") bits |= 1 << shift;
        else if (p === "s") bits |= w === "u" ? 0o4000 : w === "g" ? 0o2000 : 0;
        else if (p === "t") bits |= 0o1000;
      }
    }
    if (m[2] === "-") mode &= ~bits;
    else mode |= bits;
  }
  return mode;
}

/** A date for `-newermt` (ISO forms; a time without a zone is UTC, the docs shell's zone). */
export function parseDate(text: string): number | undefined {
  const iso = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(text) ? `${text.replace(" ", "T")}${text.length > 10 ? "Z" : ""}` : text;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `-regex`: the pattern must match the whole path (GNU find checks the match length). */
export function compileFindRegex(source: string, syntax: "emacs" | "ere" | "bre", ignoreCase: boolean): RegExp {
  try {
    const t = translatePosix(source, syntax === "ere", 0, { sed: false, emacs: syntax === "emacs", glibc: true });
    const guarded = guardRegex(new RegExp(`^(?:${t.source})$`, ignoreCase ? "iu" : "u"));
    if (!(guarded instanceof RegExp)) throw new FindError(guarded.refused);
    return guarded;
  } catch (error) {
    if (error instanceof FindError) throw error;
    const message = error instanceof PosixRegexError ? error.message : `unsupported regular expression in this docs shell (${String(error)})`;
    throw new FindError(`failed to compile regular expression '${source}': ${message}`);
  }
}

/** A numeric argument with GNU's `+N` (more than), `-N` (less than), `N` (exactly). */
export function compareNumber(arg: string, option: string): (v: number) => boolean {
  const m = /^([+-]?)(\d+)$/.exec(arg);
  if (m === null) throw new FindError(`invalid argument \`${arg}' to \`${option}'`);
  const n = Number(m[2]);
  if (m[1] === "+") return (v) => v > n;
  if (m[1] === "-") return (v) => v < n;
  return (v) => v === n;
}
