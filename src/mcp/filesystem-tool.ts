import { z } from "zod";
import { LIMITS } from "../limits.js";
import type { ShellResult } from "../engine/shell/shell.js";
import { success } from "../engine/use-cases/outcome.js";
import { runShell, shellInput, shellOutput, shellText } from "../engine/use-cases/run-shell.js";
import { cutText, maxCharsArgument } from "./max-chars.js";
import { PROVENANCE_META_KEY, provenanceOf, readerCommit, provenanceSchema, shellReads } from "./provenance.js";
import { READ_ONLY_TOOL, defineTool } from "./tool.js";
import { productName, siteTitle } from "../engine/tool-names.js";

/** The tool's arguments: a command line, and how much output the answer may take. */
const filesystemInput = shellInput.extend({ maxChars: maxCharsArgument(LIMITS.shell.maxOutputBytes, "output") });

/** The tool's `structuredContent`: the command's output, what it read, and where from. */
const filesystemOutput = shellOutput.extend({
  reads: z
    .array(z.object({ path: z.string(), lastModified: z.string().describe("ISO 8601; a folder's is its newest file's.") }))
    .describe("The files and folders the command line names (`/` when it names none), each with when it last changed."),
  provenance: provenanceSchema.describe("The commit the docs were read at and the newest of what the command read."),
});

/** The filesystem tool: an adapter over `runShell`; a failing command is an error result with its exit code. */
export const filesystemTool = defineTool({
  key: "filesystem",
  name: (n) => n.filesystem,
  title: ({ siteName }) => `Query the ${siteTitle(siteName)} filesystem`,
  description: ({ siteName, names }) =>
    `Read and navigate the ${productName(siteName)} documentation as a read-only filesystem with shell commands. ` +
    "Every page is a file: the page at link /guides/setup is /guides/setup.mdx (or .md). " +
    "Start with `tree / -L 2` to see the structure. Find text with `rg -il \"term\" /` or `rg -n -C 2 \"term\" /guides`. " +
    "Read several pages in one call: `head -80 /a.mdx /b.mdx` or `cat /a.mdx /b.mdx`. " +
    "Extract one section: `sed -n '/^## Setup/,/^## /p' /guides/install.mdx`. " +
    "Commands: rg, grep, find, tree, ls, cat, head, tail, stat, wc, sort, uniq, cut, sed, awk, jq, yq and more, with pipes, &&, ||, ; and globs; each takes --help. " +
    `Each call starts fresh at / (cd does not persist). Output is capped at about ${Math.round(LIMITS.shell.maxOutputBytes / 1000)} KB (less with maxChars). ` +
    `Nothing can be written. For questions in plain words, ${names.search} is faster.`,
  input: filesystemInput,
  output: filesystemOutput,
  annotations: { ...READ_ONLY_TOOL, title: "Query docs filesystem" },
  run: async (args, ctx) => {
    const [ran, commit] = await Promise.all([runShell(ctx, { command: args.command }), readerCommit(ctx.runtime, ctx.state)]);
    const r = args.maxChars === undefined ? ran : withinChars(ran, args.maxChars);
    const reads = shellReads(args.command, ctx.state.view);
    const provenance = provenanceOf(commit, reads.map((read) => new Date(read.lastModified)));
    // `_meta` first, where the SDK's result schema puts it (see the search tool).
    return success({
      _meta: { [PROVENANCE_META_KEY]: provenance },
      content: [{ type: "text", text: shellText(r) }],
      structuredContent: {
        stdout: r.stdout,
        stderr: r.stderr,
        exitCode: r.exitCode,
        truncated: r.truncated,
        ...(r.hint !== undefined ? { hint: r.hint } : {}),
        reads,
        provenance,
      },
      ...(r.exitCode !== 0 ? { isError: true } : {}),
    });
  },
});

/**
 * The result cut so its text (`shellText`) is at most `maxChars` characters: error lines first
 * (up to a quarter of the budget: they say why a command failed), then output, cut at a line
 * end when one is near, with a note saying what was left out and how to narrow the command.
 */
export function withinChars(r: ShellResult, maxChars: number): ShellResult {
  if (shellText(r).length <= maxChars) return r;
  // Counted over output and error lines together: either may be what was cut.
  const total = r.stdout.length + r.stderr.length;
  const note = (shown: number): string =>
    `[output cut at maxChars ${maxChars}: showed ${shown} of ${total} characters; narrow the command or raise maxChars]\n`;
  const stderr = cutAtLine(r.stderr, Math.floor(maxChars / 4));
  const rest: ShellResult = { ...r, stdout: "", stderr };
  // What the frame takes besides the output: error lines, exit code, hint, and the note at its longest.
  const frame = shellText({ ...rest, stdout: `\n${note(total)}` }).length;
  const stdout = cutAtLine(r.stdout, Math.max(0, maxChars - frame));
  const cut: ShellResult = { ...rest, stdout: `${stdout}${stdout === "" || stdout.endsWith("\n") ? "" : "\n"}${note(stdout.length + stderr.length)}`, truncated: true };
  const text = shellText(cut);
  // A hint longer than the budget leaves no room at all: then the hint goes.
  return text.length <= maxChars ? cut : { ...cut, hint: undefined };
}

/** At most `max` characters of `s`, at a line end when one is in the last fifth. */
function cutAtLine(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = cutText(s, max);
  const nl = cut.lastIndexOf("\n");
  return nl >= cut.length * 0.8 ? cut.slice(0, nl + 1) : cut;
}
