/**
 * How long an edit holds every caller of a large site: serve a copy of SITE over stdio with the
 * official SDK client, answer a first search and a first shell command, then make the edit of
 * CASE EDITS times.
 *
 *   npx tsx bench/edit-stall.ts SITE [--case page|docs-json|folder] [--edits N] [--folder REL]...
 *     [--bin path/to/bin/svc-mcp.js] [--cpu-prof DIR] [--http]
 *
 * `page` (the default): append a line with a new word to one page; after each save, ping without
 * pause until a search finds the word, then run one shell command. Prints, per edit, the longest
 * ping, when the word was searchable and the shell command's time.
 *
 * `docs-json` and `folder` are whole reloads: docs.json saved again with the site's name changed
 * (the whole file written at once, as an editor saves it), or the folders named by `--folder`
 * removed (default: every top-level folder but the first, with their pages). From the save until
 * the edit is served (`tools/list_changed` for the new name,
 * `ls /` no longer listing the folders once `rm -rf` is done), four callers ask without pause, each its own
 * request: `ping`, `ls /`, `cat` of a page that stays, and a small search. Prints, per edit, each
 * one's longest answer, its median (p50) and how many it got, when the edit was served, and the
 * server's largest resident set (RSS, sampled every 20 ms) meanwhile. A `docs-json` edit
 * alternates the name, so every edit is a change.
 *
 * `--http`: served by `serve --http --port 0` on loopback instead (the SDK's Streamable HTTP
 * client, one session); a `docs-json` edit is served once `tools/list` names the new tools.
 *
 * SITE: a large generated site (`npx tsx bench/large-site.ts versioned OUT`) or a real one.
 */
import { execFile, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fg from "fast-glob";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const options = (name: string): string[] => args.flatMap((a, i) => (a === name && args[i + 1] !== undefined ? [args[i + 1] as string] : []));
const bin = option("--bin") ?? new URL("../bin/svc-mcp.js", import.meta.url).pathname;
const edits = Number(option("--edits") ?? "3");
const profile = option("--cpu-prof");
const kind = option("--case") ?? "page";
const site = args[0];
if (site === undefined || site.startsWith("--")) throw new Error("usage: edit-stall.ts SITE [--case page|docs-json|folder] [--edits N] [--folder REL]... [--bin BIN]");
if (!["page", "docs-json", "folder"].includes(kind)) throw new Error(`unknown case ${kind}: page, docs-json or folder`);

const root = mkdtempSync(join(tmpdir(), "edit-stall-"));
cpSync(site, root, { recursive: true });
const pages = fg.sync("**/*.mdx", { cwd: root }).sort();
const page = pages[Math.floor(pages.length / 2)] as string;
// A hit names the page's path (a search with no hit repeats the query, so the word cannot tell).
const pagePath = `/${page.replace(/\.mdx$/, "")}`;
const client = new Client({ name: "edit-stall", version: "1" });
const started = performance.now();
const http = args.includes("--http");
const nodeArgs = ["--expose-gc", ...(profile !== undefined ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [])];
const state = mkdtempSync(join(tmpdir(), "edit-stall-state-"));
const serveArgs = ["serve", "--dir", root, "--state", state];
// The server's log, kept for when it ends before the bench does (then the bench stops, saying so).
const log: string[] = [];
let closing = false;
const ended = (): void => {
  if (closing) return;
  console.error(`the server ended during the bench; its log:\n${log.join("").slice(-4000)}`);
  process.exit(1);
};
let serverPid: number | undefined;
if (http) {
  const child = spawn(process.execPath, [...nodeArgs, bin, ...serveArgs, "--http", "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  serverPid = child.pid;
  child.on("exit", ended);
  const origin = await new Promise<string>((resolve) => {
    let url: string | undefined;
    createInterface({ input: child.stderr }).on("line", (line) => {
      log.push(`${line}\n`);
      url ??= /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line)?.[1];
      // The last start-up line: the server is ready once it is printed.
      if (url !== undefined && line.includes("site auth")) resolve(url);
    });
  });
  process.on("exit", () => child.kill());
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
} else {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeArgs, bin, ...serveArgs], stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  client.onclose = ended;
  await client.connect(transport);
  serverPid = transport.pid ?? undefined;
}
/** The server's resident set now (MB), from /proc (Linux); 0 elsewhere. */
const rssMb = (): number => {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${serverPid}/status`, "utf8"))?.[1];
    return Math.round(Number(kb ?? 0) / 1024);
  } catch {
    return 0;
  }
};
let tools = (await client.listTools()).tools.map((t) => t.name);
let search = tools.find((t) => t.startsWith("search")) as string;
let shell = tools.find((t) => t.startsWith("query_docs_filesystem")) as string;
const text = async (name: string, a: Record<string, unknown>): Promise<string> => ((await client.callTool({ name, arguments: a })) as { content: { text: string }[] }).content[0]?.text ?? "";
await text(search, { query: "how do I configure the agent's memory when running several tasks in parallel?" });
await text(shell, { command: "ls / | head -3" });
const ready = performance.now() - started;

/** Per edit of a page: the longest ping until the word is searchable, then a shell command. */
async function pageEdit(i: number): Promise<Record<string, number>> {
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
  return { edit: i, worstPingMs: Math.round(worst), searchableAfterMs: Math.round(found), shellMs: Math.round(performance.now() - s) };
}

let notified: (() => void) | undefined;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => notified?.());
const folders = options("--folder");
const removed = folders.length > 0 ? folders : readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort().slice(1);
// The page `cat` reads stays through the edits: in the first folder, which is never removed.
const kept = pages.find((p) => !removed.some((f) => p.startsWith(`${f}/`))) as string;
const config = readFileSync(join(root, "docs.json"), "utf8");

/** Per whole reload: each caller's longest answer from the save until the edit is served. */
async function wholeEdit(i: number): Promise<Record<string, number>> {
  const changed = new Promise<void>((resolve) => (notified = resolve));
  let done = false;
  const t0 = performance.now();
  // Removed by another process (`rm -rf`, file by file as an author's would), so that the callers
  // ask meanwhile; the edit is applied once `rm` is done and `ls /` lists none of the folders.
  const gone = kind === "folder" ? new Promise<void>((resolve) => execFile("rm", ["-rf", ...removed.map((f) => join(root, f))], () => resolve())) : undefined;
  if (kind !== "folder") {
    const json = JSON.parse(config) as { name: string };
    writeFileSync(join(root, "docs.json"), JSON.stringify({ ...json, name: i % 2 === 0 ? `${json.name} edited` : json.name }, null, 2));
  }
  const caller = async (ask: () => Promise<unknown>): Promise<{ worst: number; p50: number; answers: number }> => {
    const times: number[] = [];
    while (!done) {
      const s = performance.now();
      // The old tool names are refused once the new name serves (until the notification): an answer too.
      await ask().catch(() => undefined);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    return { worst: Math.round(times.at(-1) ?? 0), p50: Math.round(times[Math.floor(times.length / 2)] ?? 0), answers: times.length };
  };
  let peakRss = rssMb();
  const sampling = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 20);
  const rssBefore = peakRss;
  const asking = [
    caller(() => client.ping()),
    caller(() => text(shell, { command: "ls /" })),
    caller(() => text(shell, { command: `cat /${kept} | head -5` })),
    caller(() => text(search, { query: "configure the storefront", pageSize: 3 })),
  ];
  if (gone !== undefined) {
    await gone;
    const listed = async (): Promise<boolean> => {
      const names = (await text(shell, { command: "ls /" })).split(/\s+/);
      return removed.some((f) => names.includes(f));
    };
    while ((await listed()) && performance.now() - t0 < 600_000) await new Promise((resolve) => setTimeout(resolve, 20));
  } else if (http) {
    // Over HTTP without a standing stream the notification is not heard: the new tool names are.
    // A refused or failed listing (the server busy, a request over its limits) is asked again.
    const renamed = async (): Promise<boolean> => (await client.listTools().catch(() => undefined))?.tools.some((t) => t.name === search) === false;
    while (!(await renamed()) && performance.now() - t0 < 600_000) await new Promise((resolve) => setTimeout(resolve, 20));
  } else await Promise.race([changed, new Promise((resolve) => setTimeout(resolve, 600_000))]);
  const appliedMs = Math.round(performance.now() - t0);
  done = true;
  clearInterval(sampling);
  const [ping, ls, cat, find] = await Promise.all(asking);
  // The name changed: the tools have new names.
  tools = (await client.listTools()).tools.map((t) => t.name);
  search = tools.find((t) => t.startsWith("search")) as string;
  shell = tools.find((t) => t.startsWith("query_docs_filesystem")) as string;
  return {
    edit: i,
    appliedMs,
    worstPingMs: ping!.worst,
    worstLsMs: ls!.worst,
    worstCatMs: cat!.worst,
    worstSearchMs: find!.worst,
    p50PingMs: ping!.p50,
    p50LsMs: ls!.p50,
    p50CatMs: cat!.p50,
    p50SearchMs: find!.p50,
    answers: ping!.answers + ls!.answers + cat!.answers + find!.answers,
    rssBeforeMb: rssBefore,
    rssPeakMb: peakRss,
  };
}

const out: Record<string, number>[] = [];
const runs = kind === "folder" ? 1 : edits;
for (let i = 0; i < runs; i++) out.push(kind === "page" ? await pageEdit(i) : await wholeEdit(i));
console.log(JSON.stringify({ site, case: kind, pages: pages.length, ...(kind === "folder" ? { removed } : {}), readyMs: Math.round(ready), edits: out }));
closing = true;
await client.close();
rmSync(root, { recursive: true, force: true });
rmSync(state, { recursive: true, force: true });
// The bound on waiting for an edit is a timer still pending: the bench is over.
process.exit(0);
