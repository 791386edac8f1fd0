import { type ChildProcess, spawn } from "node:child_process";
import { LIMITS } from "../src/limits.js";
import { once } from "node:events";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { WebSocket } from "undici";
import { CORPORA } from "../test/helpers/paths.js";
import { cpuMs, mainThreadCpuMs } from "./cpu-time.js";
import { QueryStream } from "./query-stream.js";

/**
 * Garbage per HTTP call (issue 23). Under distinct questions the tail of `serve --http` is
 * garbage collection, not costly questions, so the figures that say whether a change helped are
 * V8's own counts, which a busy machine does not move the way it moves calls/s and p99: bytes
 * allocated per call, bytes promoted to the old generation per call (what survives two
 * scavenges: it is what fills the old generation and brings the mark-compacts that stall every
 * request in flight), bytes still live after a full collection per call (a leak), scavenges and
 * mark-compacts with their pauses per 1,000 calls, and CPU per call.
 *
 * One `serve --http` process (one worker, the young generation a worker gets) on a
 * site, result cache off, every limit off, `clients` keep-alive connections each with one
 * 2026-07-28 `tools/call` in flight, every call a distinct question of bench/query-stream.ts.
 * The server runs with `--trace-gc-nvp` (one line per collection on its stdout: bytes allocated
 * since the last one, bytes promoted, the pause) and its inspector on a local port, through which
 * a full collection is forced at each window's start and end, so a window's collections are
 * exactly those between the two and its allocation is exactly what its calls (and the inspector's
 * two messages) allocated.
 */

export interface AllocWindow {
  readonly calls: number;
  /** Bytes allocated on the JavaScript heap per call. */
  readonly allocatedPerCall: number;
  /** Bytes moved from the young to the old generation per call. */
  readonly promotedPerCall: number;
  /** Growth of the heap between the two forced full collections, per call. */
  readonly retainedPerCall: number;
  readonly scavengesPer1000: number;
  readonly scavengeMsPer1000: number;
  /** Mark-compacts V8 started on its own (the two forced ones not counted). */
  readonly markCompactsPer1000: number;
  readonly markCompactMsPer1000: number;
  /** CPU of the server process per call (all threads), ms. */
  readonly cpuMsPerCall: number;
  /** The part of it on the main thread (JavaScript and the collector's main-thread work), ms. */
  readonly mainThreadCpuMsPerCall: number;
  readonly callsPerSec: number;
}

interface GcLine {
  /** V8's isolate: the main thread's, or a worker thread's (the docs shell's pool). */
  readonly isolate: string;
  readonly kind: string;
  readonly pause: number;
  readonly allocated: number;
  readonly promoted: number;
  readonly sizeAfter: number;
}

const previousSizeAfter = new Map<string, number>();

/** One `--trace-gc-nvp` line, or undefined for any other output. */
function parseGcLine(line: string): GcLine | undefined {
  const kind = / gc=(\S+)/.exec(line)?.[1];
  if (kind === undefined) return undefined;
  const field = (name: string): number => Number(new RegExp(` ${name}=([\\d.]+)`).exec(line)?.[1] ?? Number.NaN);
  const isolate = /^\[(\d+:0x[0-9a-f]+)\]/.exec(line)?.[1] ?? "";
  // `allocated` is the growth of the heap's objects since the last collection, printed unsigned: a heap the sweeper shrank in between prints 2^64 - n.
  const allocated = field("total_size_before") - (previousSizeAfter.get(isolate) ?? 0);
  previousSizeAfter.set(isolate, field("total_size_after"));
  return { isolate, kind, pause: field("pause"), allocated, promoted: field("promoted"), sizeAfter: field("total_size_after") };
}

/** A minimal Chrome DevTools protocol client over the inspector's WebSocket. */
class Inspector {
  private nextId = 1;
  private readonly waiting = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return;
      const w = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) w?.fail(new Error(message.error.message));
      else w?.ok(message.result);
    });
  }

  static async open(url: string): Promise<Inspector> {
    // undici's WebSocket (Node 20 has no global one without a flag).
    const socket = new WebSocket(url);
    await new Promise<void>((open, fail) => {
      socket.addEventListener("open", () => open());
      socket.addEventListener("error", () => fail(new Error(`cannot reach the inspector at ${url}`)));
    });
    return new Inspector(socket);
  }

  send<T>(method: string, params: object = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((ok, fail) => {
      this.waiting.set(id, { ok: ok as (v: unknown) => void, fail });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

/** A sampling heap profile's node (HeapProfiler.SamplingHeapProfileNode). */
interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

export interface AllocServer {
  readonly child: ChildProcess;
  readonly inspector: Inspector;
  readonly port: number;
  readonly tool: string;
  readonly gc: GcLine[];
  /** Resolvers waiting for the next full collection's line. */
  readonly markCompactWaiters: ((line: GcLine) => void)[];
  readonly state: string;
  /**
   * The main thread's isolate, whose collections are counted (worker threads, such as the docs
   * shell's pool, have their own heaps and lines): the one that collected most in the warm-up,
   * as it answers every call (`settleMainIsolate`).
   */
  readonly main: { isolate: string };
}

/** Take the isolate with the most collections so far as the main thread's (after a warm-up). */
function settleMainIsolate(server: AllocServer): void {
  if (server.main.isolate !== "") return;
  const counts = new Map<string, number>();
  for (const l of server.gc) counts.set(l.isolate, (counts.get(l.isolate) ?? 0) + 1);
  server.main.isolate = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
}

const OFF = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);

/** `serve --http` of the checkout `dir` on `site`, traced and inspectable, once it serves. */
export async function startAllocServer(dir: string, site: string, extraNodeOptions: readonly string[] = []): Promise<AllocServer> {
  const state = mkdtempSync(join(tmpdir(), "svc-alloc-"));
  const args = [`--max-semi-space-size=${LIMITS.serve.workerSemiSpaceMb}`, "--trace-gc-nvp", "--inspect=127.0.0.1:0", ...extraNodeOptions, join(resolve(dir), "bin", "svc-mcp.js")];
  args.push("serve", "--http", "--port", "0", "--no-watch", "--dir", site, "--no-fetch-remote", "--state", state, ...OFF, "--search-cache", "0");
  const main = { isolate: "" };
  const child = spawn(process.execPath, args, { env: { ...process.env, NODE_OPTIONS: "" }, stdio: ["ignore", "pipe", "pipe"] });
  const gc: GcLine[] = [];
  const markCompactWaiters: ((line: GcLine) => void)[] = [];
  const log = process.env.HTTP_ALLOC_GC_LOG;
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (log !== undefined) appendFileSync(log, `${line}\n`);
    const parsed = parseGcLine(line);
    if (parsed === undefined) return;
    gc.push(parsed);
    if (parsed.kind === "mc" && parsed.isolate === main.isolate) markCompactWaiters.shift()?.(parsed);
  });
  const lines: string[] = [];
  const ready = await new Promise<{ origin: string; ws: string }>((ok, fail) => {
    let origin: string | undefined;
    let ws: string | undefined;
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      ws ??= /Debugger listening on (ws:\S+)/.exec(line)?.[1];
      origin ??= /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line)?.[1];
      if (origin !== undefined && ws !== undefined && line.includes("site auth")) ok({ origin, ws });
    });
    child.once("exit", (code) => fail(new Error(`serve exited with ${code}:\n${lines.join("\n")}`)));
  });
  const tool = /tools (\S+),/.exec(lines.join("\n"))?.[1] ?? "search";
  const inspector = await Inspector.open(ready.ws);
  return { child, inspector, port: Number(new URL(ready.origin).port), tool, gc, markCompactWaiters, state, main };
}

export async function stopAllocServer(server: AllocServer): Promise<void> {
  server.inspector.close();
  if (server.child.exitCode === null) {
    const exited = once(server.child, "exit");
    server.child.kill("SIGTERM");
    await exited;
  }
  rmSync(server.state, { recursive: true, force: true });
}

/** A full collection, forced; resolves with its trace line (the index of it in `server.gc` is then `gc.length - 1`). */
async function fullCollection(server: AllocServer): Promise<GcLine> {
  settleMainIsolate(server);
  const line = new Promise<GcLine>((ok) => server.markCompactWaiters.push(ok));
  await server.inspector.send("HeapProfiler.collectGarbage");
  return line;
}

/**
 * `calls` distinct questions from `stream` over `clients` keep-alive connections, one in flight
 * on each; resolves with every answer's body when the last is read (any status but 200 rejects).
 */
export async function sendCalls(server: AllocServer, stream: QueryStream, calls: number, clients: number): Promise<string[]> {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "bench-alloc", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const request = (id: number, query: string): string => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: server.tool, arguments: { query }, _meta: meta } });
    return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: ${server.tool}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const answers: string[] = new Array<string>(calls);
  let sent = 0;
  await Promise.all(
    Array.from(
      { length: Math.min(clients, calls) },
      () =>
        new Promise<void>((done, fail) => {
          const socket = connect(server.port, "127.0.0.1");
          let buffer: Buffer = Buffer.alloc(0);
          let current = -1;
          const next = (): void => {
            if (sent >= calls) {
              socket.end();
              done();
              return;
            }
            current = sent++;
            socket.write(request(current + 1, stream.take()));
          };
          socket.on("connect", next);
          socket.on("error", fail);
          socket.on("data", (data: Buffer) => {
            buffer = buffer.length === 0 ? data : Buffer.concat([buffer, data]);
            const end = buffer.indexOf("\r\n\r\n");
            if (end < 0) return;
            const head = buffer.subarray(0, end).toString("latin1");
            const length = /content-length: *(\d+)/i.exec(head)?.[1];
            if (length === undefined) return fail(new Error(`an answer without Content-Length: ${head}`));
            if (buffer.length < end + 4 + Number(length)) return;
            if (!head.startsWith("HTTP/1.1 200")) return fail(new Error(`expected 200, got ${head.slice(0, head.indexOf("\r\n"))}`));
            answers[current] = buffer.subarray(end + 4, end + 4 + Number(length)).toString("utf8");
            buffer = buffer.subarray(end + 4 + Number(length));
            next();
          });
        }),
    ),
  );
  return answers;
}

/** One measured window of `calls` calls between two forced full collections. */
export async function measureWindow(server: AllocServer, stream: QueryStream, calls: number, clients: number): Promise<AllocWindow> {
  const pid = server.child.pid as number;
  const first = await fullCollection(server);
  const from = server.gc.length;
  const cpu0 = cpuMs(pid);
  const main0 = mainThreadCpuMs(pid);
  const t0 = performance.now();
  await sendCalls(server, stream, calls, clients);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMs(pid) - cpu0;
  const main = mainThreadCpuMs(pid) - main0;
  const last = await fullCollection(server);
  // The window's collections: after the first forced one, up to and including the last (whose `allocated` is the window's tail).
  const lines = server.gc.slice(from, server.gc.length).filter((l) => l.isolate === server.main.isolate);
  const between = lines.slice(0, -1);
  const sum = (xs: readonly GcLine[], f: (l: GcLine) => number): number => xs.reduce((n, l) => n + f(l), 0);
  const scavenges = between.filter((l) => l.kind === "s");
  const markCompacts = between.filter((l) => l.kind === "mc");
  const per1000 = (n: number): number => (n * 1000) / calls;
  return {
    calls,
    allocatedPerCall: sum(lines, (l) => l.allocated) / calls,
    promotedPerCall: sum(between, (l) => l.promoted) / calls,
    retainedPerCall: (last.sizeAfter - first.sizeAfter) / calls,
    scavengesPer1000: per1000(scavenges.length),
    scavengeMsPer1000: per1000(sum(scavenges, (l) => l.pause)),
    markCompactsPer1000: per1000(markCompacts.length),
    markCompactMsPer1000: per1000(sum(markCompacts, (l) => l.pause)),
    cpuMsPerCall: cpu / calls,
    mainThreadCpuMsPerCall: main / calls,
    callsPerSec: calls / seconds,
  };
}

/**
 * Where a window's bytes were allocated, by V8's sampling heap profiler: `all` of them;
 * `promoted`, only objects that outlived the young generation (live at the end or collected by a
 * full collection); `retained`, only those still live after a full collection at the end. Self bytes per call by allocating function and place,
 * largest first.
 */
export async function allocationSites(server: AllocServer, stream: QueryStream, calls: number, clients: number, kept: "all" | "promoted" | "retained" | "live"): Promise<{ site: string; bytesPerCall: number }[]> {
  // `live`: the same calls go on after the window (the half of the connections that ran through it), so what a call keeps for a while is still live when the window ends.
  let going = true;
  const after = kept === "live" ? (async () => { while (going) await sendCalls(server, stream, clients, Math.ceil(clients / 2)); })() : undefined;
  await fullCollection(server);
  await server.inspector.send("HeapProfiler.startSampling", { samplingInterval: 512, includeObjectsCollectedByMajorGC: kept === "all" || kept === "promoted", includeObjectsCollectedByMinorGC: kept === "all" });
  await sendCalls(server, stream, calls, kept === "live" ? Math.ceil(clients / 2) : clients);
  if (kept === "retained" || kept === "live") await fullCollection(server);
  const { profile } = await server.inspector.send<{ profile: { head: ProfileNode } }>("HeapProfiler.stopSampling");
  going = false;
  await after;
  const bySite = new Map<string, number>();
  const walk = (node: ProfileNode, path: readonly string[]): void => {
    const frame = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/^.*\/(src|dist|node_modules)\//, "$1/")}:${node.callFrame.lineNumber + 1}`;
    const here = [...path, frame];
    if (node.selfSize > 0) {
      // The allocating frame and its two callers: enough to tell a site apart from another of the same helper.
      const site = here.slice(-3).reverse().join(" < ");
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    }
    for (const c of node.children) walk(c, here);
  };
  walk(profile.head, []);
  return [...bySite].map(([site, bytes]) => ({ site, bytesPerCall: bytes / calls })).sort((a, b) => b.bytesPerCall - a.bytesPerCall);
}

/**
 *   npx tsx bench/http-alloc.ts <checkout>[+--node-flag...]... [--calls N] [--rounds R] [--warm-up N] [--clients C] [--site DIR]
 *   npx tsx bench/http-alloc.ts <checkout> --where [--promoted|--retained|--live] [--calls N]
 *   npx tsx bench/http-alloc.ts <checkout> <checkout>... --compare [--calls N]
 *
 * Every checkout's server is started at once and warmed by the same calls; then each round
 * measures a window of `calls` calls on each in turn (order reversed each round). Prints one JSON
 * line per side: the windows' medians and every window. `--where`: the allocation sites instead.
 * `--compare`: the first `calls` questions' answers of every checkout, compared byte for byte.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string): string => {
    const at = args.indexOf(name);
    return at < 0 ? fallback : (args.splice(at, 2)[1] as string);
  };
  const flag = (name: string): boolean => {
    const at = args.indexOf(name);
    if (at >= 0) args.splice(at, 1);
    return at >= 0;
  };
  const calls = Number(option("--calls", "3000"));
  const rounds = Number(option("--rounds", "3"));
  const warmUp = Number(option("--warm-up", "3000"));
  const clients = Number(option("--clients", "32"));
  const site = option("--site", join(CORPORA, "spree"));
  const where = flag("--where");
  const useNonsense = flag("--nonsense");
  const compare = flag("--compare");
  const kept = flag("--promoted") ? "promoted" : flag("--retained") ? "retained" : flag("--live") ? "live" : "all";
  const checkouts = args;
  if (checkouts.length === 0) throw new Error("usage: npx tsx bench/http-alloc.ts <checkout>... [--calls N] [--rounds R] [--warm-up N] [--clients C] [--site DIR] [--nonsense] [--where [--promoted|--retained|--live]]");
  const servers: AllocServer[] = [];
  try {
    // `dir+--flag+--flag`: that side's server gets those V8/Node options too.
    for (const spec of checkouts) {
      const [dir, ...flags] = spec.split("+");
      servers.push(await startAllocServer(dir as string, site, flags));
    }
    // Each side asks the same questions: a stream of its own, at the same place. `--nonsense`:
    // distinct words no page has, so the search and its answer cost next to nothing and what is
    // left is the HTTP and MCP path's own.
    if (compare) {
      // `--compare`: the first `calls` questions of the stream asked of each checkout, and every
      // answer compared byte for byte (a change that must not change an answer, issue 23).
      const answers = await Promise.all(servers.map((s) => sendCalls(s, new QueryStream(), calls, 8)));
      const [first, ...others] = answers as [string[], ...string[][]];
      const differ = first.flatMap((a, i) => (others.some((o) => o[i] !== a) ? [i] : []));
      for (const i of differ.slice(0, 3)) process.stdout.write(`call ${i} differs:\n${answers.map((x) => (x[i] ?? "").slice(0, 400)).join("\n")}\n`);
      process.stdout.write(`${JSON.stringify({ calls, differ: differ.length, meanBytes: Math.round(first.reduce((n, a) => n + Buffer.byteLength(a), 0) / calls) })}\n`);
      if (differ.length > 0) process.exitCode = 1;
      return;
    }
    const nonsense = Array.from({ length: 100 }, (_, i) => `qzx${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}vj`);
    const streams = servers.map(() => (useNonsense ? new QueryStream(["xqzvwk"], nonsense) : new QueryStream()));
    await Promise.all(servers.map((s, i) => sendCalls(s, streams[i] as QueryStream, warmUp, clients)));
    if (where) {
      const sites = await allocationSites(servers[0] as AllocServer, streams[0] as QueryStream, calls, clients, kept);
      for (const s of sites.slice(0, 60)) process.stdout.write(`${(s.bytesPerCall / 1024).toFixed(2).padStart(8)} KB  ${s.site}\n`);
      process.stdout.write(`${(sites.reduce((n, s) => n + s.bytesPerCall, 0) / 1024).toFixed(1)} KB per call in all\n`);
      return;
    }
    const windows: AllocWindow[][] = servers.map(() => []);
    for (let round = 0; round < rounds; round++) {
      const order = servers.map((_, i) => i);
      for (const i of round % 2 === 0 ? order : order.reverse()) windows[i]?.push(await measureWindow(servers[i] as AllocServer, streams[i] as QueryStream, calls, clients));
    }
    checkouts.forEach((dir, i) => process.stdout.write(`${JSON.stringify({ side: dir, median: medianWindow(windows[i] as AllocWindow[]), windows: windows[i] })}\n`));
  } finally {
    for (const s of servers) await stopAllocServer(s);
  }
}

/** Each figure's median over the windows. */
export function medianWindow(windows: readonly AllocWindow[]): AllocWindow {
  const keys = Object.keys(windows[0] as AllocWindow) as (keyof AllocWindow)[];
  const out: Record<string, number> = {};
  for (const k of keys) {
    const sorted = windows.map((w) => w[k]).sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    out[k] = sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  }
  return out as unknown as AllocWindow;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename ?? "")) await main();
