import { type Command, defineCommand, type ScriptNode, type SimpleCommandNode, type TransformPlugin } from "just-bash";
import { LIMITS } from "../../limits.js";

// just-bash expands a brace range (`{1..100000000}`) to its first N words (its limit) and goes on as if
// that were all of it: a command line then answers a different question with exit 0. A range
// longer than `maxBraceRangeWords` is refused before anything on the line runs, saying so.

/** The command that stands in for a command line holding a range too long to expand. */
export const REFUSED_RANGE = "__svc_range_refused";

interface Range {
  readonly type: "Range";
  readonly start: string | number;
  readonly end: string | number;
  readonly step?: number;
  readonly startStr?: string;
  readonly endStr?: string;
}

/** How many words a range makes (`{a..z}` 26, `{1..10..3}` 4), as bash counts them. */
export function rangeWords(range: Range): number {
  const step = Math.abs(range.step ?? 1) || 1;
  const from = typeof range.start === "number" ? range.start : range.start.charCodeAt(0);
  const to = typeof range.end === "number" ? range.end : range.end.charCodeAt(0);
  return Math.floor(Math.abs(to - from) / step) + 1;
}

/** Builtins whose `name=(...)` argument just-bash reads again at run time, braces and all. */
const DECLARING = new Set(["declare", "typeset", "local", "readonly", "export"]);
const RANGE_TEXT = /\{(?:(-?\d+)\.\.(-?\d+)|([a-zA-Z])\.\.([a-zA-Z]))(?:\.\.(-?\d+))?\}/g;

/** The ranges written in a literal text (`a=({1..20000})` as `declare` is given it). */
function rangesInText(text: string): Range[] {
  return [...text.matchAll(RANGE_TEXT)].map((m) => {
    const step = m[5] === undefined ? {} : { step: Number(m[5]) };
    if (m[1] !== undefined && m[2] !== undefined) return { type: "Range", start: Number(m[1]), end: Number(m[2]), startStr: m[1], endStr: m[2], ...step };
    return { type: "Range", start: m[3] ?? "", end: m[4] ?? "", ...step };
  });
}

/**
 * The first range anywhere in the script (words, loops, substitutions) longer than `limit`;
 * also in the arguments of `declare` and its kin, which the parser leaves as text and the
 * builtin expands when it runs (`declare -a a=({1..20000})`).
 */
function firstLongRange(node: unknown, limit: number): Range | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  const n = node as { type?: unknown; name?: { parts?: { type: string; value?: string }[] }; args?: { parts: { type: string; value?: string }[] }[] };
  if (n.type === "Range" && rangeWords(node as Range) > limit) return node as Range;
  if (n.type === "SimpleCommand" && n.name?.parts?.length === 1 && DECLARING.has(n.name.parts[0]?.value ?? "")) {
    for (const arg of n.args ?? []) {
      for (const part of arg.parts) {
        const long = part.type === "Literal" ? rangesInText(part.value ?? "").find((r) => rangeWords(r) > limit) : undefined;
        if (long !== undefined) return long;
      }
    }
  }
  for (const value of Object.values(node)) {
    const found = firstLongRange(value, limit);
    if (found !== undefined) return found;
  }
  return undefined;
}

interface BraceWord {
  readonly type: "Word";
  readonly parts: readonly { readonly type: string; readonly value?: string; readonly items?: readonly BraceItem[] }[];
}
type BraceItem = Range | { readonly type: "Word"; readonly word: BraceWord };

/** How many words a word with brace expansions makes: `{a,b}{1..9999}` 19,998, as bash counts them. */
export function braceWords(word: BraceWord): number {
  let words = 1;
  for (const part of word.parts) {
    if (part.type !== "BraceExpansion") continue;
    let alternatives = 0;
    for (const item of part.items ?? []) alternatives += item.type === "Range" ? rangeWords(item) : braceWords(item.word);
    words *= alternatives;
  }
  return words;
}

/** The first word anywhere in the script whose brace expansions make more than `limit` words. */
function firstLongWord(node: unknown, limit: number): BraceWord | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  const n = node as { type?: unknown; parts?: unknown };
  if (n.type === "Word" && Array.isArray(n.parts) && n.parts.some((p: { type?: unknown }) => p.type === "BraceExpansion") && braceWords(node as BraceWord) > limit) {
    return node as BraceWord;
  }
  for (const value of Object.values(node)) {
    const found = firstLongWord(value, limit);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A word as written, for the message: its literal text and braces (other expansions as `...`). */
function writtenWord(word: BraceWord): string {
  return word.parts
    .map((part) => {
      if (part.type === "Literal") return part.value ?? "";
      if (part.type !== "BraceExpansion") return "...";
      return `{${(part.items ?? []).map((item) => (item.type === "Range" ? written(item).slice(1, -1) : writtenWord(item.word))).join(",")}}`;
    })
    .join("");
}

function written(range: Range): string {
  const step = range.step !== undefined ? `..${range.step}` : "";
  return `{${range.startStr ?? String(range.start)}..${range.endStr ?? String(range.end)}${step}}`;
}

/** The transform plugin (register once per `Bash`). */
export const braceRangePlugin: TransformPlugin = {
  name: "brace-ranges",
  transform({ ast }: { ast: ScriptNode }) {
    const limit = LIMITS.shell.maxBraceRangeWords;
    // A range alone is named as written; a product of braces (`{a,b}{1..9999}`) by its word.
    const range = firstLongRange(ast, limit);
    const word = range === undefined ? firstLongWord(ast, limit) : undefined;
    if (range === undefined && word === undefined) return { ast };
    const [text, words] = range !== undefined ? [written(range), rangeWords(range)] : word !== undefined ? [writtenWord(word), braceWords(word)] : ["", 0];
    // Worded as the other bounds are (`bash: work limit reached (...; a limit of the docs shell: ...)`).
    const message = `bash: brace expansion limit reached (${text} makes ${words} words, ${limit} per word; a limit of the docs shell: do less in one call)`;
    const refused: SimpleCommandNode = {
      type: "SimpleCommand",
      assignments: [],
      name: { type: "Word", parts: [{ type: "Literal", value: REFUSED_RANGE }] },
      // Double-quoted: just-bash's serializer (which writes this back for `eval`) writes a
      // single-quoted part holding a quote, and a literal holding a `$`, so that they read back
      // as something else.
      args: [{ type: "Word", parts: [{ type: "DoubleQuoted", parts: [{ type: "Literal", value: message }] }] }],
      redirections: [],
    };
    const pipeline = { type: "Pipeline" as const, commands: [refused], negated: false };
    return { ast: { ...ast, statements: [{ type: "Statement", pipelines: [pipeline], operators: [], background: false }] } as ScriptNode };
  },
};

/** Prints the refusal the plugin wrote, status 1. */
export const refusedRangeCommand: Command = defineCommand(REFUSED_RANGE, async (args) => ({ stdout: "", stderr: `${args[0] ?? ""}\n`, exitCode: 1 }));
