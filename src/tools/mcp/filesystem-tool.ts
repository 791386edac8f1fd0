import { LIMITS } from "../../limits.js";
import { success } from "../use-cases/outcome.js";
import { runShell, shellInput, shellOutput, shellText } from "../use-cases/run-shell.js";
import { READ_ONLY_TOOL, defineTool } from "./tool.js";
import { siteTitle } from "../tool-names.js";

/** The filesystem tool: an adapter over `runShell`; a failing command is an error result with its exit code. */
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
  input: shellInput,
  output: shellOutput,
  annotations: { ...READ_ONLY_TOOL, title: "Query docs filesystem" },
  run: async (args, ctx) => {
    const r = await runShell(ctx, args);
    return success({
      content: [{ type: "text", text: shellText(r) }],
      structuredContent: {
        stdout: r.stdout,
        stderr: r.stderr,
        exitCode: r.exitCode,
        truncated: r.truncated,
        ...(r.hint !== undefined ? { hint: r.hint } : {}),
      },
      ...(r.exitCode !== 0 ? { isError: true } : {}),
    });
  },
});
