import type { Command } from "just-bash";
import type { ShellCommandFactory } from "./command.js";

/**
 * awk is just-bash's (GNU awk semantics: `length` counts characters), with two of its
 * differences from gawk corrected on the way in:
 * - a one-character field separator other than space is literal in awk (`-F'|'`), while
 *   just-bash compiles it as a regex (where `|` is an empty alternation that fails);
 * - a bare `length` (no parentheses) means `length($0)`; just-bash misparses `length > 200`;
 * - `-v OFS=...` (and the other special variables) and `VAR=value` operands before the first
 *   file: just-bash ignores the first and opens the second as a file. Both become assignments
 *   in BEGIN blocks: `-v` ones before the program's own BEGIN, operands after it (when awk
 *   makes them).
 */
export function awkArguments(args: readonly string[]): string[] {
  const out: string[] = [];
  let programSeen = false;
  let programIndex = -1;
  const before: string[] = [];
  const after: string[] = [];
  let fileSeen = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!programSeen && (a === "-F" || (a.startsWith("-F") && a.length > 2))) {
      const fs = a === "-F" ? (args[++i] ?? "") : a.slice(2);
      out.push("-F", literalSeparator(fs));
      continue;
    }
    if (!programSeen && (a === "-v" || (a.startsWith("-v") && a.length > 2))) {
      const assignment = a === "-v" ? (args[++i] ?? "") : a.slice(2);
      const special = /^(OFS|ORS|FS|RS|SUBSEP|OFMT|CONVFMT|IGNORECASE)=/.exec(assignment);
      if (special !== null) before.push(beginAssignment(assignment));
      else out.push("-v", assignment);
      continue;
    }
    if (!programSeen && a === "-f") {
      out.push(a, args[++i] ?? "");
      programSeen = true;
      continue;
    }
    if (!programSeen && a.startsWith("-") && a !== "-" && a !== "--") {
      out.push(a);
      continue;
    }
    if (!programSeen && a === "--") {
      out.push(a);
      continue;
    }
    if (!programSeen) {
      programSeen = true;
      programIndex = out.length;
      out.push(bareLength(a));
      continue;
    }
    if (!fileSeen && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      after.push(beginAssignment(a));
      continue;
    }
    fileSeen = true;
    out.push(a);
  }
  if (programIndex !== -1 && (before.length > 0 || after.length > 0)) {
    out[programIndex] = `${before.join("")}${out[programIndex] as string}\n${after.join("")}`;
  }
  return out;
}

/** `NAME=value` as a BEGIN block; the value's escapes (`\t`) mean what they mean in `-v`. */
function beginAssignment(assignment: string): string {
  const eq = assignment.indexOf("=");
  let value = assignment.slice(eq + 1).replace(/"/g, '\\"').replace(/\n/g, "\\n");
  if (/(^|[^\\])(\\\\)*\\$/.test(value)) value += "\\"; // a trailing lone backslash is literal
  return `BEGIN { ${assignment.slice(0, eq)} = "${value}" }\n`;
}

/** `|` -> `[|]`: a single character (not space, not `\t`-style escapes) is taken literally. */
function literalSeparator(fs: string): string {
  if ([...fs].length !== 1 || fs === " ") return fs;
  if (/[.[\]()*+?{}|^$\\]/.test(fs)) return fs === "\\" ? "[\\\\]" : fs === "^" ? "\\^" : `[${fs}]`;
  return fs;
}

/** Rewrite bare `length` to `length($0)` outside string literals. */
function bareLength(program: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < program.length; i++) {
    const c = program[i] as string;
    if (inString) {
      out += c;
      if (c === "\\") out += program[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    if (program.startsWith("length", i) && !/[\w$]/.test(program[i - 1] ?? " ") && !/\w/.test(program[i + 6] ?? " ")) {
      const after = program.slice(i + 6);
      out += /^\s*\(/.test(after) ? "length" : "length($0)";
      i += 5;
      continue;
    }
    out += c;
  }
  return out;
}

export const awkCommand: ShellCommandFactory = (): Command => ({
  name: "awk",
  async execute(args, ctx) {
    if (ctx.origCommand === undefined) return { stdout: "", stderr: "awk: not available\n", exitCode: 127 };
    return ctx.origCommand(awkArguments(args));
  },
});
