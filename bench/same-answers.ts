/**
 * Whole answers of a served site, to compare two builds (issue 22): a set of searches (with
 * version and language filters where given) and shell commands, printed as one JSON document.
 *
 *   npx tsx bench/same-answers.ts SITE --bin path/to/bin/svc-mcp.js [--version V] [--language L] [--every N] > out.json
 *
 * `--every N`: also a long question from every Nth page (its first sentence of prose over 40
 * characters, in path order) and `cat` of that page, so that each site is asked questions of its own.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const QUERIES = ["checkout guest payment", "refund store credit gift card", "webhook signature verify", "configure shipping warehouses markets", "authentication api key", "rate limit errors", "como configuro os métodos de envio", "pagination cursor", "import export products csv", "install"];
const COMMANDS = ["rg -il checkout / | head -200", "rg -il 'webhook' / | wc -l", "ls -R / | wc -l", "rg -c 'import' / | head -50", "ls /"];

const args = process.argv.slice(2);
const site = args[0] as string;
const flag = (name: string): string | undefined => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
/** A sentence of prose from every `every`th page of the site, and those pages' paths. */
function pageQuestions(every: number): { questions: string[]; paths: string[] } {
  const questions: string[] = [];
  const paths: string[] = [];
  const files = fg.sync("**/*.{md,mdx}", { cwd: site, ignore: ["**/node_modules/**", "**/snippets/**"] }).sort();
  for (let i = 0; i < files.length; i += every) {
    const file = files[i] as string;
    const body = readFileSync(join(site, file), "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");
    const sentence = body.split("\n").find((line) => line.length > 40 && /^[A-Za-z]/.test(line) && !/[<{}`|]/.test(line));
    if (sentence !== undefined) questions.push(sentence.slice(0, 200));
    paths.push(`/${file}`);
  }
  return { questions, paths };
}

const every = flag("every");
const drawn = every === undefined ? { questions: [], paths: [] } : pageQuestions(Number(every));
const transport = new StdioClientTransport({ command: process.execPath, args: [flag("bin") as string, "serve", "--dir", site], stderr: "ignore", env: process.env as Record<string, string> });
const client = new Client({ name: "same-answers", version: "1" });
await client.connect(transport, { timeout: 600_000 });
const tools = await client.listTools(undefined, { timeout: 600_000 });
const search = tools.tools.find((t) => t.name.startsWith("search"))?.name as string;
const shell = tools.tools.find((t) => t.name.startsWith("query_docs_filesystem"))?.name as string;
const filters: Record<string, string>[] = [{}];
if (flag("version") !== undefined) filters.push({ version: flag("version") as string });
if (flag("language") !== undefined) filters.push({ language: flag("language") as string });
if (flag("version") !== undefined && flag("language") !== undefined) filters.push({ version: flag("version") as string, language: flag("language") as string });
const out: unknown[] = [];
for (const query of [...QUERIES, ...drawn.questions]) {
  for (const filter of filters) {
    const r = await client.callTool({ name: search, arguments: { query, pageSize: 20, ...filter } }, undefined, { timeout: 600_000 });
    out.push({ query, filter, content: r.content, structured: r.structuredContent, isError: r.isError });
  }
}
for (const command of [...COMMANDS, ...drawn.paths.map((path) => `cat '${path}'`)]) {
  const r = await client.callTool({ name: shell, arguments: { command } }, undefined, { timeout: 600_000 });
  out.push({ command, content: r.content, structured: r.structuredContent });
}
console.log(JSON.stringify({ tools: tools.tools, out }, null, 1));
await client.close();
