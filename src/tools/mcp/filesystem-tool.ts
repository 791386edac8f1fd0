import { z } from "zod";
import { LIMITS } from "../../limits.js";
import { READ_ONLY_TOOL, defineTool } from "./tool.js";
import { siteTitle } from "../tool-names.js";

const input = z
  .object({
    command: z
      .string({ error: "must be a string" })
      .min(1, { error: "must not be empty" })
      .max(LIMITS.shell.maxCommandLength, { error: `must be at most ${LIMITS.shell.maxCommandLength} characters` })
      .describe("A shell command line, run read-only at / (e.g. `rg -il webhook /`, `head -60 /a.mdx /b.mdx`)."),
  })
  .strict();

export const filesystemTool = defineTool({
  key: "filesystem",
  name: (n) => n.filesystem,
  title: ({ siteName }) => `Query the ${siteTitle(siteName)} filesystem`,
  description: ({ siteName, names }) =>
    `Read and navigate the ${siteName} documentation as a read-only filesystem with shell commands. ` +
    "Every page is a file: the page at link /guides/setup is /guides/setup.mdx (or .md). " +
    "Start with `tree / -L 2` to see the structure. Find text with `rg -il \"term\" /` or `rg -n -C 2 \"term\" /guides`. " +
    "Read several pages in one call: `head -80 /a.mdx /b.mdx` or `cat /a.mdx /b.mdx`. " +
    "Extract one section: `sed -n '/^## Setup/,/^## /p' /guides/install.mdx`. " +
    "Commands: rg, grep, find, tree, ls, cat, head, tail, stat, wc, sort, uniq, cut, sed, awk, jq, yq and more, with pipes, &&, ||, ; and globs; each takes --help. " +
    `Each call starts fresh at / (cd does not persist). Output is capped at about ${Math.round(LIMITS.shell.maxOutputBytes / 1000)} KB. ` +
    `Nothing can be written. For questions in plain words, ${names.search} is faster.`,
  input,
  annotations: { ...READ_ONLY_TOOL, title: "Query docs filesystem" },
  run: async (args, ctx) => {
    const r = await ctx.state.shell.run(args.command, ctx.request.caller);
    let text = r.stdout;
    if (r.stderr !== "") text += `${text === "" || text.endsWith("\n") ? "" : "\n"}${r.stderr}`;
    if (r.exitCode !== 0) text += `${text === "" || text.endsWith("\n") ? "" : "\n"}[exit code ${r.exitCode}]`;
    if (r.hint !== undefined) text += `\n${r.hint}`;
    if (text === "") text = "(no output)";
    return {
      content: [{ type: "text", text }],
      structuredContent: {
        stdout: r.stdout,
        stderr: r.stderr,
        exitCode: r.exitCode,
        truncated: r.truncated,
        ...(r.hint !== undefined ? { hint: r.hint } : {}),
      },
      ...(r.exitCode !== 0 ? { isError: true } : {}),
    };
  },
});
