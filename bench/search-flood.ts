// Issue 25: callers flood `serve --http` with searches, each on a new connection (as soon as one
// is answered the next is sent), distinct long questions, `pageSize: 50`, from several loopback
// addresses; meanwhile another address (a process of its own, so the flood's answers never delay
// its own event loop) asks, one after another, `GET /.well-known/mcp.json`, `ls /` over `/mcp`
// and a search over `/mcp`, and its latency is what this prints.
//
//   node --import tsx bench/search-flood.ts <checkout> [mode] [seconds]
//
// <checkout>: the repository whose bin/svc-mcp.js is served (build it first); A/B two checkouts
// by running each in turn, alternating. Modes: `preview` (GET /_svc/preview/search), `mcp`
// (tools/call of the search tool on /mcp), `mixed` (half preview, half MCP). BENCH_FLOOD: requests
// in flight over all flood callers (150); BENCH_CALLERS: flood addresses (4); BENCH_CORPUS: the
// site (shared/corpora/open-wearables). Prints one JSON line with the victim's p50/p95 per kind,
// the flood's statuses, the server's CPU seconds and the load average.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";

const repo = process.argv[2] ?? new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const mode = (process.argv[3] ?? "mcp") as "preview" | "mcp" | "mixed";
const seconds = Number(process.argv[4] ?? 10);
const corpus = process.env.BENCH_CORPUS ?? join(repo, "..", "shared", "corpora", "open-wearables");
const IN_FLIGHT = Number(process.env.BENCH_FLOOD ?? 150);
const CALLERS = Number(process.env.BENCH_CALLERS ?? 4);
const OFF = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "flood-bench", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

const WORDS =
  "how do I configure sync of heart rate data from garmin devices into the workout timeline when the oauth token expires and the webhook retries fail with a timeout error while the database migration runs on a new deployment behind a proxy with sleep stages and activity summaries exported to csv".split(
    " ",
  );
/** The `n`th distinct long question (a repeated one would be answered from the answer cache). */
function question(n: number): string {
  const out: string[] = [];
  let k = n + 1;
  for (let i = 0; i < 12; i++) {
    out.push(WORDS[(k * 7 + i * 13) % WORDS.length]!);
    k = Math.floor(k / 3) + i + n;
  }
  return `${out.join(" ")} ${n}`;
}

function mcpBody(method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: ENVELOPE } });
}

function post(path: string, body: string, headers: Record<string, string>): string {
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function mcpCall(name: string, args: Record<string, unknown>): string {
  return post("/mcp", mcpBody("tools/call", { name, arguments: args }), { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name });
}

interface Reply {
  readonly status: number;
  readonly ms: number;
  readonly body: string;
}

/** One request on a new connection from `from`; its status (0: the connection failed) and milliseconds. */
function once(port: number, from: string, request: string): Promise<Reply> {
  const t = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: from });
    const chunks: Buffer[] = [];
    socket.on("connect", () => socket.write(request));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), ms: performance.now() - t, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
  });
}

/** The flood (a child process): `IN_FLIGHT` requests in flight from `CALLERS` addresses until `seconds` pass; prints its statuses. */
async function flood(port: number, searchTool: string): Promise<void> {
  const addresses = Array.from({ length: CALLERS }, (_, i) => `127.0.0.${10 + i}`);
  const statuses: Record<string, number> = {};
  const end = performance.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, slot) => {
      const from = addresses[slot % addresses.length]!;
      const preview = mode === "preview" || (mode === "mixed" && slot % 2 === 0);
      while (performance.now() < end) {
        const q = question(n++);
        const request = preview ? `GET /_svc/preview/search?pageSize=50&query=${encodeURIComponent(q)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n` : mcpCall(searchTool, { query: q, pageSize: 50 });
        const r = await once(port, from, request);
        const key = r.status === 200 ? "200" : `${r.status} ${/"(?:code|reason)":"([a-z_]+)"/.exec(r.body)?.[1] ?? ""}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        // A refused request is sent again after a moment, as a client honouring nothing would.
        if (r.status !== 200) await new Promise((done) => setTimeout(done, 20));
      }
    }),
  );
  process.stdout.write(JSON.stringify(statuses));
}

function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN);
}

function cpuOf(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

const summary = (xs: readonly number[]): { n: number; p50: number; p95: number } => ({ n: xs.length, p50: pct(xs, 50), p95: pct(xs, 95) });

async function main(): Promise<void> {
  if (process.argv[5] === "--flood") return flood(Number(process.argv[6]), process.argv[7]!);
  const child = spawn(process.execPath, [join(repo, "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", "--no-watch", "--dir", corpus, ...OFF], { stdio: ["ignore", "ignore", "pipe"] });
  const origin = await new Promise<string>((resolve, reject) => {
    let url: string | undefined;
    const lines: string[] = [];
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      const m = /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line);
      if (m !== null) url = m[1];
      if (url !== undefined && line.includes("site auth")) resolve(url);
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${lines.join("\n")}`)));
  });
  const port = Number(new URL(origin).port);
  const victim = "127.0.0.9";
  try {
    const list = JSON.parse((await once(port, victim, post("/mcp", mcpBody("tools/list", {}), { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list" }))).body) as { result: { tools: { name: string }[] } };
    const names = list.result.tools.map((t) => t.name);
    const fs = names.find((x) => x.startsWith("query_docs_filesystem_"))!;
    const search = names.find((x) => x.startsWith("search_"))!;
    // Warm: the index built, the shell's workers started.
    for (let i = 0; i < 3; i++) {
      await once(port, victim, mcpCall(fs, { command: "ls /" }));
      await once(port, victim, mcpCall(search, { query: question(100_000 + i), pageSize: 50 }));
    }
    const cpu0 = cpuOf(child.pid!);
    const floodChild = spawn(process.execPath, ["--import", "tsx", new URL(import.meta.url).pathname, repo, mode, String(seconds), "--flood", String(port), search], { stdio: ["ignore", "pipe", "inherit"] });
    let floodOut = "";
    floodChild.stdout!.on("data", (d: Buffer) => (floodOut += d.toString()));
    const floodDone = new Promise<void>((done) => floodChild.once("exit", () => done()));
    // Let the flood reach its requests in flight before timing.
    await new Promise((done) => setTimeout(done, 1_500));
    const times = { wellKnown: [] as number[], ls: [] as number[], search: [] as number[] };
    const bad: string[] = [];
    let stop = false;
    void floodDone.then(() => (stop = true));
    for (let i = 0; !stop; i++) {
      const a = await once(port, victim, "GET /.well-known/mcp.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      times.wellKnown.push(a.ms);
      if (a.status !== 200) bad.push(`wellKnown ${a.status}`);
      const b = await once(port, victim, mcpCall(fs, { command: "ls /" }));
      times.ls.push(b.ms);
      if (b.status !== 200 || b.body.includes('"isError":true')) bad.push(`ls ${b.status}`);
      const c = await once(port, victim, mcpCall(search, { query: question(200_000 + i), pageSize: 50 }));
      times.search.push(c.ms);
      if (c.status !== 200 || c.body.includes('"isError":true')) bad.push(`search ${c.status}`);
    }
    await floodDone;
    const cpu = cpuOf(child.pid!) - cpu0;
    const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1];
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    const victimMs = { wellKnown: summary(times.wellKnown), ls: summary(times.ls), search: summary(times.search) };
    process.stdout.write(
      `${JSON.stringify({ checkout: repo, mode, inFlight: IN_FLIGHT, callers: CALLERS, seconds, victimMs, victimFailures: bad, flood: JSON.parse(floodOut || "{}") as unknown, serverCpuS: Math.round(cpu * 100) / 100, peakRssMB: Math.round(Number(hwm) / 1024), load })}\n`,
    );
  } finally {
    child.kill("SIGTERM");
    await new Promise((done) => child.once("exit", done));
  }
}

await main();
