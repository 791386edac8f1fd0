import { z } from "zod";
import { LIMITS } from "../../limits.js";
import type { ShellResult } from "../shell/shell.js";
import { type DocsContext, readerStateOf } from "./docs-context.js";

/** What a shell call asks for: the filesystem tool's arguments, `svc-mcp fs`'s words. */
export const shellInput = z
  .object({
    command: z
      .string({ error: "must be a string" })
      .min(1, { error: "must not be empty" })
      .max(LIMITS.shell.maxCommandLength, { error: `must be at most ${LIMITS.shell.maxCommandLength} characters` })
      .describe("A shell command line, run read-only at / (e.g. `rg -il webhook /`, `head -60 /a.mdx /b.mdx`)."),
  })
  .strict();

export type ShellInput = z.infer<typeof shellInput>;

/** The filesystem tool's `structuredContent`: what the command line produced. */
export const shellOutput = z.object({
  stdout: z.string().describe("What the commands wrote to standard output."),
  stderr: z.string().describe("Their error lines, as GNU tools write them."),
  exitCode: z.number().describe("The exit status of the command line (0: success)."),
  truncated: z.boolean().describe("Whether the output was cut at the output cap."),
  hint: z.string().optional().describe("The closest visible paths, when the command named paths that do not exist."),
});

/**
 * Run one command line in the read-only docs shell as the context's reader, at `/`, with no
 * state kept between calls. A failing command is a result (its exit code), not an issue: the
 * schema already refused what is not a command line.
 */
export function runShell(context: DocsContext, input: ShellInput): Promise<ShellResult> {
  return readerStateOf(context).shell.run(input.command, context.request.caller, context.signal);
}

/** The result as one text: output, error lines, `[exit code N]` when it failed, the hint. */
export function shellText(r: ShellResult): string {
  let text = r.stdout;
  if (r.stderr !== "") text += `${text === "" || text.endsWith("\n") ? "" : "\n"}${r.stderr}`;
  if (r.exitCode !== 0) text += `${text === "" || text.endsWith("\n") ? "" : "\n"}[exit code ${r.exitCode}]`;
  if (r.hint !== undefined) text += `\n${r.hint}`;
  return text === "" ? "(no output)" : text;
}
