import type { CommandNode, ScriptNode, SimpleCommandNode, TransformPlugin } from "just-bash";
import { type CommandIo, docsCommand } from "./lib/command.js";
import { forEachPipeline } from "./lib/pipelines.js";
import { ERRNO, lookup, resolvePath } from "./lib/files.js";
import type { SiteView } from "../../vfs/view.js";
import type { Command } from "just-bash";

// bash reports an output redirection it cannot open (`echo x > /tmp/out`), skips that command
// with status 1, and goes on with the rest of the line. just-bash instead lets the read-only
// filesystem's error end the whole call, losing what earlier commands printed. This transform
// replaces a command whose output goes to a fixed path in the docs by a command that reports
// the failure as bash does; a computed path (`> "$out"`) is checked first at run time
// (`{ CHECK "$out" && cmd > "$out"; }`), so that `/dev/null` still works.

/** The command that stands in for a command whose output file cannot be opened. */
export const REFUSED_WRITE = "__svc_write_refused";

const WRITE_OPERATORS = new Set([">", ">>", ">|", "&>", "&>>"]);
const HARMLESS = /^\/dev\/(null|stdout|stderr|fd\/\d+)$/;

type Redirection = SimpleCommandNode["redirections"][number];

/** A write redirection's target: its text when fixed, `dynamic` when it has expansions. */
function writeTarget(r: Redirection): { text: string } | "dynamic" | undefined {
  if (!WRITE_OPERATORS.has(r.operator) || r.target.type !== "Word") return undefined;
  let text = "";
  for (const part of r.target.parts) {
    if (part.type === "Literal" || part.type === "SingleQuoted") text += part.value;
    else return "dynamic";
  }
  return HARMLESS.test(text) ? undefined : { text };
}

function refused(target: string): SimpleCommandNode {
  return {
    type: "SimpleCommand",
    assignments: [],
    name: { type: "Word", parts: [{ type: "Literal", value: REFUSED_WRITE }] },
    // Double-quoted, as `brace-ranges.ts` says: it may be written back for `eval`.
    args: [{ type: "Word", parts: [{ type: "DoubleQuoted", parts: [{ type: "Literal", value: target }] }] }],
    redirections: [],
  };
}

function pipelineOf(command: CommandNode) {
  return { type: "Pipeline" as const, commands: [command], negated: false };
}

function guardWrites(ast: ScriptNode): void {
  forEachPipeline(ast, (pipeline) => {
    pipeline.commands = pipeline.commands.map((c) => {
      // Compound commands (`for ...; done > out`, `{ ...; } > out`) carry redirections too.
      const redirections = (c as { redirections?: Redirection[] }).redirections;
      if (redirections === undefined) return c;
      for (const r of redirections) {
        const target = writeTarget(r);
        if (target === undefined) continue;
        if (target !== "dynamic") return refused(target.text);
        if (r.target.type !== "Word") continue;
        const check: SimpleCommandNode = { type: "SimpleCommand", assignments: [], name: { type: "Word", parts: [{ type: "Literal", value: REFUSED_WRITE }] }, args: [r.target], redirections: [] };
        const body = [{ type: "Statement" as const, pipelines: [pipelineOf(check), pipelineOf(c)], operators: ["&&" as const], background: false }];
        return { type: "Group", body, redirections: [] } as CommandNode;
      }
      return c;
    });
  });
}

/** The transform plugin (register once per `Bash`). */
export const writeRedirectPlugin: TransformPlugin = {
  name: "write-redirects",
  transform({ ast }: { ast: ScriptNode }) {
    guardWrites(ast);
    return { ast };
  },
};

/** `bash: PATH: Read-only file system` (or why else the file cannot be opened), status 1. */
export function refusedWriteCommand(view: SiteView): Command {
  return docsCommand(view, {
    name: REFUSED_WRITE,
    help: "Reports an output redirection into the read-only docs.\n",
    run: (args: string[], io: CommandIo) => {
      const target = args[0] ?? "";
      if (HARMLESS.test(resolvePath(io.cwd, target))) return 0;
      const entry = lookup(io.view, io.cwd, target, io.piped);
      const path = resolvePath(io.cwd, target);
      const parent = path.slice(0, path.lastIndexOf("/")) || "/";
      const reason =
        entry.kind === "dir" ? ERRNO.EISDIR : entry.kind === "notdir" ? ERRNO.ENOTDIR : entry.kind === "missing" && !io.view.isDir(parent) ? ERRNO.ENOENT : ERRNO.EROFS;
      io.out.error(`bash: ${target}: ${reason}\n`);
      return 1;
    },
  });
}
