import type { Command, CommandContext } from "just-bash";
import type { ShellCommandFactory } from "./command.js";
import { ERRNO } from "../lib/files.js";

/** The jq version we report: the one whose output our fidelity suite compares against. */
const JQ_VERSION = "jq-1.6";

/** Options that take one value, and those that take two (`--arg NAME VALUE`). */
const ONE_VALUE = new Set(["--indent", "-f", "--from-file", "-L"]);
const TWO_VALUES = new Set(["--arg", "--argjson", "--slurpfile", "--rawfile"]);

/**
 * Whether jq 1.6 reads an argument as an option (main.c's isoptish): `-` then a letter or a
 * second `-`. Anything else is the filter or a FILE, so `jq -n '-0'` runs the filter `-0`.
 */
function optish(a: string): boolean {
  return a.startsWith("-") && (a[1] === "-" || /^[A-Za-z]$/.test(a[1] ?? ""));
}

/** The FILE operands of a jq command line (after the filter, unless -f names it). */
export function jqFiles(args: readonly string[]): number[] {
  const files: number[] = [];
  let filterSeen = false;
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!rest && (a === "--args" || a === "--jsonargs")) {
      rest = true; // positional values, not files
      continue;
    }
    if (!rest && a === "--") continue;
    if (!rest && optish(a)) {
      if (a === "-f" || a === "--from-file") filterSeen = true;
      if (ONE_VALUE.has(a)) i++;
      else if (TWO_VALUES.has(a)) i += 2;
      continue;
    }
    if (!filterSeen) filterSeen = true;
    else if (!rest) files.push(i);
  }
  return files;
}

/** The index of the filter on a jq command line (the first operand, unless -f names it), or -1. */
function jqFilter(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--args" || a === "--jsonargs" || a === "--") continue;
    if (optish(a)) {
      if (a === "-f" || a === "--from-file") return -1;
      if (ONE_VALUE.has(a)) i++;
      else if (TWO_VALUES.has(a)) i += 2;
      continue;
    }
    return i;
  }
  return -1;
}

/**
 * jq 1.6's compile error for a call of a function it does not know (`ascii/0 is not defined`):
 * the program, then as many spaces as the call's offset (jq's caret line, without the caret).
 * Written for a one-line program, where the first use of the name outside a string literal is
 * the call; undefined otherwise (just-bash's own message stays).
 */
function notDefined(filter: string, name: string, arity: string): string | undefined {
  if (filter.includes("\n")) return undefined;
  const token = new RegExp(`"(?:[^"\\\\]|\\\\.)*"|(?<![A-Za-z0-9_$.@])${name}(?![A-Za-z0-9_])`, "g");
  for (const m of filter.matchAll(token)) {
    if (m[0].startsWith('"') || /\bdef\s+$/.test(filter.slice(0, m.index))) continue;
    return `jq: error: ${name}/${arity} is not defined at <top-level>, line 1:\n${filter}${" ".repeat(m.index)}\njq: 1 compile error\n`;
  }
  return undefined;
}

/**
 * jq is just-bash's, corrected where its messages and statuses differ from jq's: `--version`,
 * a missing FILE (reported, and the other files still read), a filter that does not
 * compile (exit 3, as jq), and a call of an unknown function (jq 1.6's message).
 */
export const jqCommand: ShellCommandFactory = (): Command => ({
  name: "jq",
  async execute(args: string[], ctx: CommandContext) {
    if (args.length === 1 && args[0] === "--version") return { stdout: `${JQ_VERSION}\n`, stderr: "", exitCode: 0 };
    if (ctx.origCommand === undefined) return { stdout: "", stderr: "jq: not available\n", exitCode: 127 };
    let missing = "";
    const kept: string[] = [];
    const fileIndexes = new Set(jqFiles(args));
    let keptFiles = 0;
    const filterAt = jqFilter(args);
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      if (!fileIndexes.has(i)) {
        // A filter that starts with `-` (not an option to jq: `-0`, `-1 + 2`) is handed on after
        // a space, which means the same filter: just-bash read it as options (`invalid option -- '0'`).
        kept.push(i === filterAt && a.startsWith("-") ? ` ${a}` : a);
        continue;
      }
      const path = ctx.fs.resolvePath(ctx.cwd, a);
      if (a !== "-" && !(await ctx.fs.exists(path))) {
        // A path through a file (`/a.mdx/.`) is ENOTDIR, as jq 1.6's fopen says (SiteView.resolve).
        const notDir = await ctx.fs.stat(path).then(
          () => false,
          (e: unknown) => (e as { code?: unknown }).code === "ENOTDIR",
        );
        missing += `jq: error: Could not open file ${a}: ${notDir ? ERRNO.ENOTDIR : ERRNO.ENOENT}\n`;
        continue;
      }
      kept.push(a);
      keptFiles++;
    }
    // Every FILE missing: jq reads none (not stdin) and fails with 2.
    if (missing !== "" && keptFiles === 0) {
      return { stdout: "", stderr: missing, exitCode: 2 };
    }
    const r = await ctx.origCommand(kept);
    let { stderr, exitCode } = r;
    const compile = /^jq: parse error: (Unexpected (?:token|end)[^\n]*)\n/.exec(stderr);
    if (compile !== null && exitCode === 5) {
      stderr = `jq: error: syntax error, ${compile[1] as string}\njq: 1 compile error\n`;
      exitCode = 3;
    }
    const unknown = /^jq: error: Unknown function: ([A-Za-z_][A-Za-z0-9_]*)\/(\d+)\n$/.exec(stderr);
    if (unknown !== null && exitCode === 3 && filterAt >= 0) {
      stderr = notDefined(args[filterAt] as string, unknown[1] as string, unknown[2] as string) ?? stderr;
    }
    if (missing !== "") {
      stderr = missing + stderr;
      if (exitCode === 0) exitCode = 2;
    }
    return { ...r, stderr, exitCode };
  },
});
