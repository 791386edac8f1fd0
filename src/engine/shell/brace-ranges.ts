import { type Command, defineCommand, type ScriptNode, type SimpleCommandNode, type TransformPlugin } from "just-bash";
import { LIMITS } from "../../limits.js";

// just-bash expands a brace range (`{1..100000000}`) to its first 10,000 words and goes on as if
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

/** The first range anywhere in the script (words, loops, substitutions) longer than `limit`. */
function firstLongRange(node: unknown, limit: number): Range | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  if ((node as { type?: unknown }).type === "Range" && rangeWords(node as Range) > limit) return node as Range;
  for (const value of Object.values(node)) {
    const found = firstLongRange(value, limit);
    if (found !== undefined) return found;
  }
  return undefined;
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
    const range = firstLongRange(ast, limit);
    if (range === undefined) return { ast };
    const message = `bash: ${written(range)}: brace expansion makes ${rangeWords(range)} words, more than the docs shell's limit of ${limit} (a limit of the docs shell: do less in one call)`;
    const refused: SimpleCommandNode = {
      type: "SimpleCommand",
      assignments: [],
      name: { type: "Word", parts: [{ type: "Literal", value: REFUSED_RANGE }] },
      args: [{ type: "Word", parts: [{ type: "SingleQuoted", value: message }] }],
      redirections: [],
    };
    const pipeline = { type: "Pipeline" as const, commands: [refused], negated: false };
    return { ast: { ...ast, statements: [{ type: "Statement", pipelines: [pipeline], operators: [], background: false }] } as ScriptNode };
  },
};

/** Prints the refusal the plugin wrote, status 1. */
export const refusedRangeCommand: Command = defineCommand(REFUSED_RANGE, async (args) => ({ stdout: "", stderr: `${args[0] ?? ""}\n`, exitCode: 1 }));
