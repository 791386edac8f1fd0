/**
 * How long a one-line edit of one page holds every caller of a large site: serve a copy of SITE
 * over stdio with the official SDK client, answer a first search and a first shell command, then
 * append a line with a new word to one page EDITS times; after each save, ping without pause until
 * a search finds the word, then run one shell command. Prints, per edit, the longest ping, when the
 * word was searchable and the shell command's time.
 *
 *   npx tsx bench/edit-stall.ts SITE [--edits N] [--bin path/to/bin/svc-mcp.js] [--cpu-prof DIR]
 *
 * SITE: a large generated site (`npx tsx bench/large-site.ts versioned OUT`) or a real one.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fg from "fast-glob";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const bin = option("--bin") ?? new URL("../bin/svc-mcp.js", import.meta.url).pathname;
const edits = Number(option("--edits") ?? "3");
const profile = option("--cpu-prof");
const site = args[0];
if (site === undefined || site.startsWith("--")) throw new Error("usage: edit-stall.ts SITE [--edits N] [--bin BIN]");

const root = mkdtempSync(join(tmpdir(), "edit-stall-"));
cpSync(site, root, { recursive: true });
const pages = fg.sync("**/*.mdx", { cwd: root }).sort();
const page = pages[Math.floor(pages.length / 2)] as string;
// A hit names the page's path (a search with no hit repeats the query, so the word cannot tell).
const pagePath = `/${page.replace(/\.mdx$/, "")}`;
const client = new Client({ name: "edit-stall", version: "1" });
const started = performance.now();
await client.connect(new StdioClientTransport({ command: process.execPath, args: ["--expose-gc", ...(profile !== undefined ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []), bin, "serve", "--dir", root, "--state", mkdtempSync(join(tmpdir(), "edit-stall-state-"))], stderr: "ignore" }));
const tools = (await client.listTools()).tools.map((t) => t.name);
const search = tools.find((t) => t.startsWith("search")) as string;
const shell = tools.find((t) => t.startsWith("query_docs_filesystem")) as string;
const text = async (name: string, a: Record<string, unknown>): Promise<string> => ((await client.callTool({ name, arguments: a })) as { content: { text: string }[] }).content[0]?.text ?? "";
await text(search, { query: "how do I configure the agent's memory when running several tasks in parallel?" });
await text(shell, { command: "ls / | head -3" });
const ready = performance.now() - started;

const out: { edit: number; worstPingMs: number; searchableAfterMs: number; shellMs: number }[] = [];
for (let i = 0; i < edits; i++) {
  const word = `zebramarker${i}q`;
  const t0 = performance.now();
  appendFileSync(join(root, page), `\n${word} one more line.\n`);
  let worst = 0;
  let pings = 0;
  let found = 0;
  while (found === 0 && performance.now() - t0 < 600_000) {
    const s = performance.now();
    await client.ping();
    worst = Math.max(worst, performance.now() - s);
    if (++pings % 20 === 0 && (await text(search, { query: word })).includes(pagePath)) found = performance.now() - t0;
  }
  const s = performance.now();
  await text(shell, { command: `grep -c ${word} /${page}` });
  out.push({ edit: i, worstPingMs: Math.round(worst), searchableAfterMs: Math.round(found), shellMs: Math.round(performance.now() - s) });
}
console.log(JSON.stringify({ site, pages: pages.length, readyMs: Math.round(ready), edits: out }));
await client.close();
rmSync(root, { recursive: true, force: true });
