import { type ChildProcess, spawn } from "node:child_process";
import { LIMITS } from "../src/limits.js";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { SHARED } from "../test/helpers/paths.js";
import { cpuMs } from "./cpu-time.js";
import { QueryStream } from "./query-stream.js";

/**
 * Server CPU per call of JSON-RPC batches of `tools/call` in a 2025-03-26 session (wrk sends no
 * batches), two or more checkouts side by side (issue 23): each checkout's `serve --http` on
 * spree (one process, limits off, result cache off, as bench/wrk-ab.ts), one session each, 8
 * connections of a Node client sending `posts` batches of `batch` distinct searches
 * (bench/query-stream.ts) a round after as many to warm up, the sides alternating, the order
 * reversed each round. Only the server's CPU is counted, so the client's share of the machine
 * does not enter it. Prints one JSON line per side.
 *
 *   npx tsx bench/batch-ab.ts <rounds> <posts> <batch> <checkout> <checkout>...
 */

const SPREE = join(SHARED, "corpora", "spree");
const OFF = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);
const CONNECTIONS = 8;

interface Side {
  readonly dir: string;
  readonly child: ChildProcess;
  readonly url: string;
  readonly tool: string;
  readonly headers: Record<string, string>;
  readonly state: string;
  readonly stream: QueryStream;
  cpu: number;
  calls: number;
}

async function start(dir: string): Promise<Side> {
  const state = mkdtempSync(join(tmpdir(), "svc-batch-ab-"));
  const args = [`--max-semi-space-size=${LIMITS.serve.workerSemiSpaceMb}`, join(resolve(dir), "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", "--no-watch", "--dir", SPREE, "--no-fetch-remote", "--state", state, ...OFF, "--search-cache", "0"];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  const lines: string[] = [];
  const origin = await new Promise<string>((ready, fail) => {
    let found: string | undefined;
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      found ??= /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line)?.[1];
      if (found !== undefined && line.includes("site auth")) ready(found);
    });
    child.once("exit", (code) => fail(new Error(`${dir}: serve exited with ${code}:\n${lines.join("\n")}`)));
  });
  const url = `${origin}/mcp`;
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(url, { method: "POST", headers: base, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "batch-ab", version: "1" } } }) });
  await init.text();
  const session = init.headers.get("mcp-session-id");
  if (init.status !== 200 || session === null) throw new Error(`initialize: ${init.status}`);
  const tool = /tools (\S+),/.exec(lines.join("\n"))?.[1] ?? "search";
  return { dir, child, url, tool, headers: { ...base, "mcp-session-id": session, "mcp-protocol-version": "2025-03-26" }, state, stream: new QueryStream(), cpu: 0, calls: 0 };
}

/** `posts` batches of `batch` searches over `CONNECTIONS` connections; counted when `measured`. */
async function run(side: Side, posts: number, batch: number, measured: boolean): Promise<void> {
  let sent = 0;
  const before = cpuMs(side.child.pid);
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent < posts) {
        sent++;
        const body = JSON.stringify(Array.from({ length: batch }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: side.tool, arguments: { query: side.stream.take() } } })));
        const r = await fetch(side.url, { method: "POST", headers: side.headers, body });
        const text = await r.text();
        if (r.status !== 200) throw new Error(`batch: ${r.status} ${text.slice(0, 300)}`);
      }
    }),
  );
  if (!measured) return;
  side.cpu += cpuMs(side.child.pid) - before;
  side.calls += posts * batch;
}

const [roundsArg, postsArg, batchArg, ...checkouts] = process.argv.slice(2);
const rounds = Number(roundsArg);
const posts = Number(postsArg);
const batch = Number(batchArg);
if (!(rounds >= 1) || !(posts >= 1) || !(batch >= 1) || checkouts.length === 0) {
  process.stderr.write("usage: npx tsx bench/batch-ab.ts <rounds> <posts> <batch> <checkout> <checkout>...\n");
  process.exit(2);
}
const sides: Side[] = [];
try {
  for (const dir of checkouts) sides.push(await start(dir));
  for (const side of sides) await run(side, posts, batch, false);
  for (let round = 0; round < rounds; round++) for (const side of round % 2 === 0 ? sides : [...sides].reverse()) await run(side, posts, batch, true);
  for (const side of sides) process.stdout.write(`${JSON.stringify({ side: side.dir, batch, calls: side.calls, cpuMsPerCall: Math.round((side.cpu / side.calls) * 1000) / 1000 })}\n`);
} finally {
  for (const side of sides) {
    if (side.child.exitCode === null) {
      const exited = once(side.child, "exit");
      side.child.kill("SIGTERM");
      await exited;
    }
    rmSync(side.state, { recursive: true, force: true });
  }
}
