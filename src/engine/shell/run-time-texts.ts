import { type Command, type CommandNode, type ScriptNode, type SimpleCommandNode, type TransformPlugin, type WordNode, defineCommand, parse, serialize } from "just-bash";
import { forEachPipeline } from "./lib/pipelines.js";

// Our transforms (the brace-range refusal, the refused writes, ...) see the command line as it
// was sent, and what `bash -c`, `sh`, `xargs` and `find -exec` run, which just-bash parses
// through the same `Bash`. But a few builtins parse text of their own at run time and run it
// without any transform: `eval` (its arguments joined), `source` and `.` (a file, or `<(...)`),
// and `compgen` (its `-W` word list is brace-expanded, its `-C` command run). just-bash cuts a
// brace range at 10,000 words without a word of warning, so `eval 'echo {1..100000000}'` printed
// 10,000 numbers with exit 0, where the same line without `eval` is refused (issue 25,
// finding 39). So:
// - `eval ARGS` runs as `{ __svc_eval "$?" ARGS; eval "$__svc_eval_text"; }`: our command joins
//   the arguments as eval does, passes the text through the same transforms as a command line
//   (a nested `eval` is rewritten in turn), and sets the variable to the result; the real eval
//   then runs it in the current shell (variables, functions and `$?` as before).
// - `source` and `.` are refused (the docs hold no shell scripts to read in), and so is a
//   `compgen` with `-W` or `-C` or options not written out (`compgen -G GLOB` still lists files).
// - A builtin reached by a name only known at run time (`e=eval; $e '...'`) is not seen by any
//   transform; just-bash tells the call's coverage writer of every builtin it runs, so the work
//   budget asks `RunTimeTexts` and the line stops there, saying why.

/** The command `eval` calls first: it checks and transforms the text eval is about to parse. */
export const CHECK_EVAL = "__svc_eval";
/** The shell variable holding the checked text for the `eval` that follows. */
export const EVAL_TEXT = "__svc_eval_text";
/** The command standing in for a refused builtin. */
export const REFUSED_BUILTIN = "__svc_builtin_refused";

/** The builtins refused wherever they are named: each parses and runs text of its own. */
const REFUSED: ReadonlyMap<string, string> = new Map([
  ["source", "read the file with cat instead"],
  [".", "read the file with cat instead"],
  // `complete` only records a word list or command; `compgen` is what expands and runs it. A
  // compgen whose options are all written out and name neither is let through (`compgen -G`).
  ["compgen", "its -W word list and -C command are parsed at run time; list files with ls or find"],
]);

/** The command that lets the `compgen` after it run: its options were read and hold no -W or -C. */
export const CHECKED_COMPGEN = "__svc_compgen_checked";

/** Whether a compgen's words, all written out, name no option that parses text (`-W`, `-C`). */
function compgenSafe(args: readonly WordNode[]): boolean {
  for (const arg of args) {
    const text = staticText(arg);
    if (text === undefined) return false;
    if (text === "--") return true;
    if (/^-[A-Za-z]*[WC]/.test(text)) return false;
  }
  return true;
}

/** What a refused builtin says (exit 126, as the shell's other limits). */
export function refusedBuiltinMessage(name: string): string {
  const why = REFUSED.get(name) ?? "it runs text the docs shell cannot check first";
  return `bash: ${name}: not available in the docs shell: it parses and runs text of its own (${why})\n`;
}

/** What a builtin stopped at run time says: refused wherever named, or reached by a computed name no transform saw. */
export function stoppedBuiltinMessage(name: string): string {
  if (REFUSED.has(name)) return refusedBuiltinMessage(name);
  return `bash: ${name}: reached through a name computed at run time, which the docs shell cannot check first (write ${name} itself)\n`;
}

/** A word's text when it has no expansion in it (`eval`, `'eval'`, `\eval`), else undefined. */
function staticText(word: WordNode | null): string | undefined {
  if (word === null) return undefined;
  let text = "";
  for (const part of word.parts) {
    if (part.type === "Literal" || part.type === "SingleQuoted" || part.type === "Escaped") text += part.value;
    else if (part.type === "DoubleQuoted" && part.parts.every((p) => p.type === "Literal")) text += part.parts.map((p) => (p as { value: string }).value).join("");
    else return undefined;
  }
  return text;
}

const literal = (value: string): WordNode => ({ type: "Word", parts: [{ type: "Literal", value }] });

function simple(name: string, args: WordNode[], rest: Partial<SimpleCommandNode> = {}): SimpleCommandNode {
  return { type: "SimpleCommand", assignments: [], name: literal(name), args, redirections: [], ...rest };
}

/** The builtin a simple command runs, past `builtin` and `command` (`command -v eval` only asks). */
function builtinOf(c: SimpleCommandNode): { name: string; args: WordNode[] } | undefined {
  let name = staticText(c.name);
  let args = c.args;
  while ((name === "builtin" || name === "command") && args.length > 0) {
    const next = staticText(args[0] ?? null);
    if (next === undefined || (next.startsWith("-") && next !== "-p" && next !== "--")) return undefined;
    args = args.slice(1);
    name = next === "-p" || next === "--" ? staticText(args[0] ?? null) : next;
    if (next === "-p" || next === "--") args = args.slice(1);
  }
  return name === undefined ? undefined : { name, args };
}

function rewrite(c: CommandNode): CommandNode {
  if (c.type !== "SimpleCommand") return c;
  const found = builtinOf(c);
  if (found === undefined) return c;
  if (found.name === "compgen" && compgenSafe(found.args)) return group([simple(CHECKED_COMPGEN, []), c], c.redirections, true);
  if (REFUSED.has(found.name)) return simple(REFUSED_BUILTIN, [{ type: "Word", parts: [{ type: "DoubleQuoted", parts: [{ type: "Literal", value: found.name }] }] }], { redirections: c.redirections });
  if (found.name !== "eval") return c;
  const status: WordNode = { type: "Word", parts: [{ type: "ParameterExpansion", parameter: "?", operation: null } as WordNode["parts"][number]] };
  const text: WordNode = { type: "Word", parts: [{ type: "DoubleQuoted", parts: [{ type: "ParameterExpansion", parameter: EVAL_TEXT, operation: null }] } as WordNode["parts"][number]] };
  const check = simple(CHECK_EVAL, [status, ...found.args]);
  const run = simple("eval", [text], { assignments: c.assignments });
  return group([check, run], c.redirections, false);
}

/** `{ FIRST; SECOND; }` with the redirections of the command it replaces. */
function group(commands: readonly [CommandNode, SimpleCommandNode], redirections: SimpleCommandNode["redirections"], moveRedirections: boolean): CommandNode {
  const pipeline = (command: CommandNode) => ({ type: "Pipeline" as const, commands: [command], negated: false });
  const [first, second] = commands;
  const last = moveRedirections ? { ...second, redirections: [] } : second;
  const body = [{ type: "Statement" as const, pipelines: [pipeline(first), pipeline(last)], operators: [";" as const], background: false }];
  return { type: "Group", body, redirections } as CommandNode;
}

/** The transform plugin (register once per `Bash`, before the others). */
export const runTimeTextPlugin: TransformPlugin = {
  name: "run-time-texts",
  transform({ ast }: { ast: ScriptNode }) {
    forEachPipeline(ast, (pipeline) => {
      pipeline.commands = pipeline.commands.map(rewrite);
    });
    return { ast };
  },
};

/**
 * Which builtins that parse text may run now: one `eval` per text our check passed. Told of
 * every builtin the interpreter runs (through the work budget); refuses the rest.
 */
export class RunTimeTexts {
  private checkedEvals = 0;
  private checkedCompgens = 0;
  /** The builtin refused, once one was: the line stops there. */
  refused: string | undefined;

  /** An `eval` text passed the check: the next `eval` may run. */
  checked(): void {
    this.checkedEvals += 1;
  }

  /** A compgen's options were read: the next `compgen` may run. */
  checkedCompgen(): void {
    this.checkedCompgens += 1;
  }

  /** Whether the builtin `name` may run now; false when it parses text no check saw. */
  mayRun(name: string): boolean {
    if (name === "eval") {
      if (this.checkedEvals === 0) return false;
      this.checkedEvals -= 1;
      return true;
    }
    if (name === "compgen" && this.checkedCompgens > 0) {
      this.checkedCompgens -= 1;
      return true;
    }
    return !REFUSED.has(name);
  }
}

/**
 * The command `eval` calls first: joins its arguments as eval does, passes the text through
 * `transform` (the shell's transforms, this one included) and sets `__svc_eval_text`; returns
 * the status it was given, so that the eval'd text sees the `$?` it would have seen.
 */
export function checkEvalCommand(transform: (ast: ScriptNode) => ScriptNode, texts: RunTimeTexts): Command {
  return defineCommand(CHECK_EVAL, async (args, ctx) => {
    const status = Number(args[0] ?? "0");
    let words = args.slice(1);
    if (words[0] === "--") words = words.slice(1);
    const text = words.join(" ");
    await ctx.assignShellVariable?.(EVAL_TEXT, checkedText(text, transform));
    texts.checked();
    return { stdout: "", stderr: "", exitCode: Number.isInteger(status) ? status : 0 };
  });
}

/** The text as transformed; the text itself when no transform changed it (or it does not parse: eval says so). */
export function checkedText(text: string, transform: (ast: ScriptNode) => ScriptNode): string {
  let ast: ScriptNode;
  try {
    ast = parse(text);
  } catch {
    return text;
  }
  const before = serialize(ast);
  const after = serialize(transform(ast));
  return after === before ? text : after;
}

/** Lets the `compgen` after it run (its options were read when the line was parsed). */
export function checkedCompgenCommand(texts: RunTimeTexts): Command {
  return defineCommand(CHECKED_COMPGEN, async () => {
    texts.checkedCompgen();
    return { stdout: "", stderr: "", exitCode: 0 };
  });
}

/** Prints why a builtin is refused, status 126. */
export const refusedBuiltinCommand: Command = defineCommand(REFUSED_BUILTIN, async (args) => ({ stdout: "", stderr: refusedBuiltinMessage(args[0] ?? ""), exitCode: 126 }));
