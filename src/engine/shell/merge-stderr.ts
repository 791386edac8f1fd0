import type { ScriptNode, SimpleCommandNode, TransformPlugin } from "just-bash";
import { forEachPipeline } from "./lib/pipelines.js";

/**
 * With `2>&1` (or `|&`, `&>`), the real tools' error lines land among their output lines in the
 * order they were written: `cat a.mdx nope.mdx b.mdx 2>&1` shows the error between the pages.
 * just-bash appends a command's whole stderr after its whole stdout. For our own commands, this
 * transform marks such a command with an environment variable, and the command then writes its
 * errors into stdout as they happen (see `CommandIo`).
 */

/** Set (to "1") on a command whose stderr goes where its stdout goes. */
export const MERGE_STDERR_ENV = "SVC_STDERR_TO_STDOUT";

type Redirection = SimpleCommandNode["redirections"][number];

function literal(r: Redirection): string | undefined {
  const target = r.target;
  if (target.type !== "Word" || target.parts.length !== 1) return undefined;
  const part = target.parts[0];
  return part?.type === "Literal" ? part.value : undefined;
}

/** Whether the redirections send fd 2 to wherever fd 1 finally goes. */
function stderrFollowsStdout(redirections: readonly Redirection[]): boolean {
  let merged = false;
  for (const r of redirections) {
    if (r.operator === "&>" || r.operator === "&>>") merged = true;
    else if (r.fd === 2 && r.operator === ">&" && literal(r) === "1") merged = true;
    else if (merged && (r.fd === 1 || r.fd === null) && (r.operator === ">" || r.operator === ">>" || r.operator === ">|")) {
      // `2>&1 >file`: stderr went to the old stdout, stdout moves on alone.
      merged = false;
    } else if (r.fd === 2) merged = false;
  }
  return merged;
}

function mark(command: SimpleCommandNode): void {
  if (command.assignments.some((a) => a.name === MERGE_STDERR_ENV)) return;
  command.assignments.push({ type: "Assignment", name: MERGE_STDERR_ENV, value: { type: "Word", parts: [{ type: "Literal", value: "1" }] }, append: false, array: null });
}

function markMerged(ast: ScriptNode, ours: ReadonlySet<string>): void {
  forEachPipeline(ast, (pipeline) => {
    pipeline.commands.forEach((c, k) => {
      if (c.type !== "SimpleCommand") return;
      const name = c.name?.parts.length === 1 && c.name.parts[0]?.type === "Literal" ? c.name.parts[0].value : undefined;
      if (name === undefined || !ours.has(name)) return;
      if (pipeline.pipeStderr?.[k] === true || stderrFollowsStdout(c.redirections)) mark(c);
    });
  });
}

/** The transform plugin, for the commands named in `ours` (register once per `Bash`). */
export function mergeStderrPlugin(ours: ReadonlySet<string>): TransformPlugin {
  return {
    name: "merge-stderr",
    transform({ ast }: { ast: ScriptNode }) {
      markMerged(ast, ours);
      return { ast };
    },
  };
}
