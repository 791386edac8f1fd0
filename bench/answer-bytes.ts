import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { SHARED } from "../test/helpers/paths.js";
import { QueryStream } from "./query-stream.js";

/**
 * Whether two checkouts answer tool calls alike, byte for byte, in every way a client sends them
 * (a change to the call path that must not change an answer, issue 23): each checkout's
 * `serve --http` on spree (limits off, result cache off, as bench/wrk-ab.ts), sent the same
 * calls in three ways, and every answer's status, headers (but the date, the connection's and
 * the session id, which differ by server) and body compared:
 * - `2026-07-28`: stateless `tools/call`s;
 * - `2025-11-25`: `tools/call`s in one session;
 * - `batch`: JSON-RPC batches in one 2025-03-26 session, `--batch` calls each, with a ping, a
 *   notification, a shell command and a call the tool refuses mixed in.
 * Each search asks the next distinct question of bench/query-stream.ts (the same on both sides);
 * every 50th call is another tool or a call the direct paths leave to the SDK (an id of another
 * kind, `_meta`, arguments that are not an object). Prints one JSON line per way and the first
 * differences; exits 1 if any answer differs.
 *
 *   npx tsx bench/answer-bytes.ts <checkoutA> <checkoutB> [--calls N] [--batch K]
 */

const SPREE = join(SHARED, "corpora", "spree");
const OFF = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);
/** Calls in flight at once per side. */
const IN_FLIGHT = 8;

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
  readonly tools: { readonly search: string; readonly shell: string };
  readonly state: string;
}

async function start(dir: string): Promise<Server> {
  const state = mkdtempSync(join(tmpdir(), "svc-answer-bytes-"));
  const args = [join(resolve(dir), "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", "--no-watch", "--dir", SPREE, "--no-fetch-remote", "--state", state, ...OFF, "--search-cache", "0"];
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
  const names = /tools (\S+), ([^,\s]+)/.exec(lines.join("\n"));
  return { child, url: `${origin}/mcp`, tools: { search: names?.[1] ?? "search", shell: names?.[2] ?? "query_docs_filesystem" }, state };
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode === null) {
    const exited = once(server.child, "exit");
    server.child.kill("SIGTERM");
    await exited;
  }
  rmSync(server.state, { recursive: true, force: true });
}

type Way = "2026-07-28" | "2025-11-25" | "batch";

/** One side's way of calling: the headers each POST carries (a session's opened first). */
async function headersFor(server: Server, way: Way): Promise<Record<string, string>> {
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (way === "2026-07-28") return { ...base, "mcp-protocol-version": way, "mcp-method": "tools/call" };
  const version = way === "batch" ? "2025-03-26" : way;
  const init = await fetch(server.url, { method: "POST", headers: base, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "answer-bytes", version: "1" } } }) });
  const session = init.headers.get("mcp-session-id");
  await init.text();
  if (init.status !== 200 || session === null) throw new Error(`initialize: ${init.status}`);
  const headers = { ...base, "mcp-session-id": session, "mcp-protocol-version": version };
  await (await fetch(server.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  return headers;
}

const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "answer-bytes", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

/** Call `i`: a search of the stream's `i`th question, or every 50th another tool or an odd call. */
function callOf(server: Server, way: Way, i: number, question: string): Record<string, unknown> {
  const envelope = way === "2026-07-28" ? { _meta: ENVELOPE } : {};
  const search = { jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: server.tools.search, arguments: { query: question }, ...envelope } };
  switch (i % 50 === 49 ? (i / 50) % 5 : -1) {
    case 0:
      return { ...search, params: { name: server.tools.shell, arguments: { command: `rg -il "${question.split(" ")[0] ?? "api"}" / | head -3` }, ...envelope } };
    case 1:
      return { ...search, id: `call-${i}` };
    case 2:
      return { ...search, params: { ...search.params, arguments: { query: question, pageSize: 0 } } };
    case 3:
      return { ...search, params: { ...search.params, arguments: [question] } };
    case 4:
      return { ...search, params: { ...search.params, _meta: { ...(way === "2026-07-28" ? ENVELOPE : {}), progressToken: i } } };
    default:
      return search;
  }
}

/** The body of each POST of `way`: one call, or a batch of `batch` calls with a ping and a notification. */
function bodies(server: Server, way: Way, calls: number, batch: number): string[] {
  const stream = new QueryStream();
  const all = Array.from({ length: calls }, (_, i) => callOf(server, way, i, stream.at(i)));
  if (way !== "batch") return all.map((c) => JSON.stringify(c));
  const out: string[] = [];
  for (let i = 0; i < calls; i += batch) {
    const part: unknown[] = all.slice(i, i + batch);
    if ((i / batch) % 10 === 3) part.splice(1, 0, { jsonrpc: "2.0", id: `ping-${i}`, method: "ping" }, { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    out.push(JSON.stringify(part));
  }
  return out;
}

/** Every POST's answer as text: status, headers but the per-server ones, body. */
async function answers(server: Server, way: Way, headers: Record<string, string>, posts: readonly string[]): Promise<string[]> {
  const out = new Array<string>(posts.length);
  const session = headers["mcp-session-id"];
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < posts.length) {
        const i = next++;
        const body = posts[i] as string;
        const name = way === "2026-07-28" ? ((JSON.parse(body) as { params: { name: string } }).params.name) : undefined;
        const r = await fetch(server.url, { method: "POST", headers: { ...headers, ...(name !== undefined ? { "mcp-name": name } : {}) }, body });
        const kept = [...r.headers].filter(([k]) => k !== "date" && k !== "keep-alive" && k !== "connection").map(([k, v]) => `${k}: ${session === undefined ? v : v.replaceAll(session, "<session>")}`);
        out[i] = `${r.status}\n${kept.join("\n")}\n\n${await r.text()}`;
      }
    }),
  );
  return out;
}

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : (args.splice(at, 2)[1] as string);
};
const calls = Number(option("--calls", "3000"));
const batch = Number(option("--batch", "4"));
if (args.length !== 2) {
  process.stderr.write("usage: npx tsx bench/answer-bytes.ts <checkoutA> <checkoutB> [--calls N] [--batch K]\n");
  process.exit(2);
}
const servers = await Promise.all(args.map(start));
try {
  for (const way of ["2026-07-28", "2025-11-25", "batch"] as const) {
    const [a, b] = (await Promise.all(servers.map(async (s) => answers(s, way, await headersFor(s, way), bodies(s, way, calls, batch))))) as [string[], string[]];
    const differ = a.flatMap((x, i) => (x !== b[i] ? [i] : []));
    for (const i of differ.slice(0, 3)) process.stdout.write(`${way} post ${i} differs:\n${(a[i] ?? "").slice(0, 600)}\n---\n${(b[i] ?? "").slice(0, 600)}\n`);
    const statuses: Record<string, number> = {};
    for (const x of a) statuses[x.slice(0, 3)] = (statuses[x.slice(0, 3)] ?? 0) + 1;
    process.stdout.write(`${JSON.stringify({ way, posts: a.length, calls, differ: differ.length, statuses, bytes: a.reduce((n, x) => n + Buffer.byteLength(x), 0) })}\n`);
    if (differ.length > 0) process.exitCode = 1;
  }
} finally {
  await Promise.all(servers.map(stop));
}
