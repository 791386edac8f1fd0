import { type CommandNode, type ScriptNode, type StatementNode, type TransformPlugin, type WordNode, parse } from "just-bash";
import { forEachPipeline } from "./lib/pipelines.js";

// bash expands a glob that ends in `/` (`ls -d /guides/*/`, `for d in */`) to folders only,
// each with the slash kept. just-bash's globbing drops the trailing slash and matches files
// too, and its glob expander is not reachable from outside. This transform rewrites such a
// word so that just-bash's own globbing gives bash's answer at run time (with the current
// folder, variables and `shopt` settings of that moment):
//
//   ls -d /guides/*/   ->   { shopt -u globskipdots; __svc_dirglob0=(/guides/*/.);
//                             shopt -s globskipdots; ls -d "${__svc_dirglob0[@]%.}"; }
//
// A trailing `.` segment only exists under folders, so the array holds exactly the folders
// (as `DIR/.`, which `globskipdots` would otherwise filter out); `%.` strips the `.` and
// leaves the slash. With no match the word stays literal, as in bash (`/nomatch*/`).

/** Variable names the rewrite uses; unlikely in an agent's command. */
const VAR_PREFIX = "__svc_dirglob";

type WordPart = WordNode["parts"][number];

/** A word that bash would expand to folders: it globs, and it ends in an unquoted `/`. */
function isDirGlob(word: WordNode): boolean {
  const last = word.parts[word.parts.length - 1];
  if (last?.type !== "Literal" || !last.value.endsWith("/")) return false;
  // A glob segment starting with `.` would match `.` and `..` once globskipdots is off;
  // leave those to just-bash (the docs have no dot files, so bash finds nothing there either).
  if (!word.parts.some((p) => p.type === "Glob")) return false;
  const text = word.parts.map((p) => (p.type === "Literal" ? p.value : p.type === "Glob" ? p.pattern : "x")).join("");
  return !text.split("/").some((segment) => segment.startsWith(".") && /[*?[]/.test(segment));
}

/** The word with `.` appended to its final `/`. */
function withDot(word: WordNode): WordNode {
  const parts = word.parts.slice();
  const last = parts[parts.length - 1] as Extract<WordPart, { type: "Literal" }>;
  parts[parts.length - 1] = { ...last, value: `${last.value}.` };
  return { ...word, parts };
}

function firstStatement(source: string): StatementNode {
  return parse(source).statements[0] as StatementNode;
}

/** Parsed once: the statements around a rewritten command. */
function templates(): { off: StatementNode; on: StatementNode } {
  return { off: firstStatement("shopt -u globskipdots"), on: firstStatement("shopt -s globskipdots") };
}

function assignment(name: string, word: WordNode): StatementNode {
  const stmt = firstStatement(`${name}=(x)`);
  const cmd = stmt.pipelines[0]?.commands[0];
  if (cmd?.type !== "SimpleCommand" || cmd.assignments[0]?.array === null || cmd.assignments[0] === undefined) {
    throw new Error("dir-globs: unexpected parse of an array assignment");
  }
  cmd.assignments[0].array = [word];
  return stmt;
}

function arrayWord(name: string): WordNode {
  const cmd = firstStatement(`: "\${${name}[@]%.}"`).pipelines[0]?.commands[0];
  if (cmd?.type !== "SimpleCommand" || cmd.args[0] === undefined) throw new Error("dir-globs: unexpected parse of an array expansion");
  return cmd.args[0];
}

function wrapCommand(command: CommandNode, lists: WordNode[][], counter: { n: number }): CommandNode {
  const prelude: StatementNode[] = [];
  for (const list of lists) {
    for (let k = 0; k < list.length; k++) {
      const word = list[k] as WordNode;
      if (!isDirGlob(word)) continue;
      const name = `${VAR_PREFIX}${counter.n++}`;
      prelude.push(assignment(name, withDot(word)));
      list[k] = arrayWord(name);
    }
  }
  if (prelude.length === 0) return command;
  const { off, on } = templates();
  const body: StatementNode[] = [off, ...prelude, on, { type: "Statement", pipelines: [{ type: "Pipeline", commands: [command], negated: false }], operators: [], background: false }];
  return { type: "Group", body, redirections: [] };
}

/** Rewrite every command of a script that has a word ending in a folder glob. */
function rewrite(ast: ScriptNode): void {
  const counter = { n: 0 };
  forEachPipeline(ast, (pipeline) => {
    pipeline.commands = pipeline.commands.map((c) => {
      if (c.type === "SimpleCommand") {
        const arrays = c.assignments.flatMap((a) => (a.array === null ? [] : [a.array]));
        return wrapCommand(c, [c.args, ...arrays], counter);
      }
      if (c.type === "For" && c.words !== null) return wrapCommand(c, [c.words], counter);
      return c;
    });
  });
}

/** The just-bash transform plugin (register once per `Bash`). */
export const dirGlobPlugin: TransformPlugin = {
  name: "dir-globs",
  transform({ ast }: { ast: ScriptNode }) {
    rewrite(ast);
    return { ast };
  },
};
