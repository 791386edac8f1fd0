/**
 * Ready means the first search answers: spawn `svc-mcp serve --dir SITE` over stdio with the
 * official SDK client and time spawn → `tools/list`, → first search, → first shell command, and
 * the server's peak RSS (VmHWM). A distinct long question each time (no cache can answer it).
 *
 *   npx tsx bench/ready.ts SITE [--bin path/to/bin/svc-mcp.js] [--runs N] [--wait-cache]
 *
 * Prints one JSON line per run. `fromCache` says whether the start read the persistent cache (its
 * stderr said "search ready from the cache"): a warm figure is one where it did. A client that
 * closes at once may end the server before its cache is written (it is written after the build,
 * and finished at exit only within the client's grace time): `--wait-cache` keeps the client
 * open until the server says it wrote it, so that the next run starts warm. `READY_ARGS` are added
 * to `serve`'s arguments, `READY_NODE_ARGS` to node's (`--cpu-prof`, which NODE_OPTIONS refuses).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const QUESTIONS = [
  "how do I configure the checkout flow so that guests can pay without creating an account",
  "what is the difference between a store credit and a gift card when refunding an order",
  "como configuro os métodos de envio para vários armazéns e mercados diferentes",
  "where are the webhooks for order completion documented and how do I verify their signature",
];

export interface ReadyRun {
  readonly listMs: number;
  readonly searchMs: number;
  readonly shellMs: number;
  readonly peakRssMb: number;
  readonly hits: number;
  /** The server's CPU (all its threads, user + system) when `tools/list` answered, and at the end:
   *  on a busy machine the figure that queueing does not inflate. */
  readonly cpuAtListMs: number;
  readonly cpuMs: number;
  /** The server's main thread's CPU when `tools/list` answered: what a start waits for on an idle
   *  machine once work is moved to worker threads (which `cpuAtListMs` counts too). */
  readonly mainCpuAtListMs: number;
  /** The main thread's CPU when the first search answered: less `mainCpuAtListMs`, what the
   *  first search waited for on an idle machine (the reader's state made after the tool list,
   *  and the search). */
  readonly mainCpuAtSearchMs: number;
  /** Spawn → `tools/list` less the main thread's time on a core and waiting for one: what it
   *  spent blocked (waiting for another thread's work, for the disk), which a busy machine
   *  inflates far less than wall time. */
  readonly mainBlockedAtListMs: number;
  /** Whether the server started from the persistent cache. */
  readonly fromCache: boolean;
  /** With `waitCache`: whether the server said it wrote its cache before the client closed. */
  readonly cacheWritten?: boolean;
  /** With `waitCache`: the server's peak RSS once its cache is written. `peakRssMb` is read after
   *  the first shell command, while a cold start's write (which begins 1 s after the index is
   *  ready) may still be under way: this one covers the whole write too (issue 22). */
  readonly peakRssWithCacheMb?: number;
}

/** User + system CPU of a process and all its threads so far (or of its main thread alone), from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number, mainThread = false): number {
  try {
    const fields = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Each thread's id and CPU (ms) so far. */
function threadsOf(pid: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
      out.push([Number(tid), (Number(fields[11]) + Number(fields[12])) * 10]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** The main thread's time on a core and waiting for one (ms, /proc schedstat): the rest of its
 *  life it was blocked (a wait for another thread, for I/O), which a busy machine does not inflate. */
function mainSchedOf(pid: number): { runMs: number; queuedMs: number } {
  try {
    const [run, queued] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return { runMs: Math.round((run ?? 0) / 1e6), queuedMs: Math.round((queued ?? 0) / 1e6) };
  } catch {
    return { runMs: 0, queuedMs: 0 };
  }
}

function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? 0 : Math.round(Number(m[1]) / 1024);
  } catch {
    return 0;
  }
}

export async function readyOnce(site: string, bin: string, run: number, env: Record<string, string> = {}, waitCache = false): Promise<ReadyRun> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...(process.env.READY_NODE_ARGS ?? "").split(" ").filter(Boolean), bin, "serve", "--dir", site, ...(process.env.READY_ARGS ?? "").split(" ").filter(Boolean)], stderr: "pipe", env: { ...(process.env as Record<string, string>), ...env } });
  let stderr = "";
  let onStderr = (): void => {};
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    onStderr();
  });
  const client = new Client({ name: "ready-bench", version: "1" });
  const start = performance.now();
  // READY_THREADS=1: each thread's id (less the process's), first and last seen (ms after spawn), and CPU until tools/list.
  const seen = new Map<number, [number, number, number]>();
  const sample = (): void => {
    const pid = transport.pid;
    if (pid === null || pid === undefined) return;
    const now = Math.round(performance.now() - start);
    for (const [tid, ms] of threadsOf(pid)) seen.set(tid, [seen.get(tid)?.[0] ?? now, now, ms]);
  };
  const sampler = process.env.READY_THREADS === "1" ? setInterval(sample, 10) : undefined;
  await client.connect(transport, { timeout: 600_000 });
  const tools = await client.listTools(undefined, { timeout: 600_000 });
  const listMs = performance.now() - start;
  const cpuAtListMs = cpuMsOf(transport.pid as number);
  const mainCpuAtListMs = cpuMsOf(transport.pid as number, true);
  const sched = mainSchedOf(transport.pid as number);
  // From the spawn (the process's first ms, before its main thread exists, count as blocked).
  const mainBlockedAtListMs = Math.max(0, Math.round(listMs) - sched.runMs - sched.queuedMs);
  if (sampler !== undefined) {
    clearInterval(sampler);
    sample();
    const threads = [...seen].filter(([, [, , ms]]) => ms > 0).map(([tid, [first, last, ms]]) => ({ thread: tid - (transport.pid as number), firstMs: first, lastMs: last, cpuMs: ms }));
    console.error(JSON.stringify({ threads }));
  }
  const search = tools.tools.find((t) => t.name.startsWith("search"));
  const shell = tools.tools.find((t) => t.name.startsWith("query_docs_filesystem"));
  if (search === undefined || shell === undefined) throw new Error(`tools not found: ${tools.tools.map((t) => t.name).join(", ")}`);
  const pid = transport.pid as number;
  let t = performance.now();
  const found = await client.callTool({ name: search.name, arguments: { query: `${QUESTIONS[run % QUESTIONS.length]} ${run}` } }, undefined, { timeout: 600_000 });
  const searchMs = performance.now() - t;
  const mainCpuAtSearchMs = cpuMsOf(pid, true);
  t = performance.now();
  await client.callTool({ name: shell.name, arguments: { command: "ls / | head -5" } }, undefined, { timeout: 600_000 });
  const shellMs = performance.now() - t;
  const hits = JSON.stringify(found.structuredContent ?? found.content).length;
  const peakRssMb = peakRss(pid);
  const cpuMs = cpuMsOf(pid);
  const written = (): boolean => /persistent cache written/.test(stderr);
  // A write that fails says so too ("search cache not written"); none comes from a warm start whose pages are all unchanged.
  if (waitCache) await new Promise<void>((resolve) => (onStderr = () => (written() || /search cache not written|search ready from the cache/.test(stderr) ? resolve() : undefined))());
  const peakWithCache = waitCache ? peakRss(pid) : undefined;
  await client.close();
  const fromCache = /search ready from the cache/.test(stderr);
  return { listMs: Math.round(listMs), searchMs: Math.round(searchMs), shellMs: Math.round(shellMs), peakRssMb, hits, cpuAtListMs, cpuMs, mainCpuAtListMs, mainCpuAtSearchMs, mainBlockedAtListMs, fromCache, ...(waitCache ? { cacheWritten: written(), peakRssWithCacheMb: peakWithCache } : {}) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const site = args[0];
  const flag = (name: string): string | undefined => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
  if (site === undefined) {
    console.error("usage: ready.ts SITE [--bin BIN] [--runs N]");
    process.exit(2);
  }
  const bin = flag("bin") ?? join(import.meta.dirname, "../bin/svc-mcp.js");
  for (let run = 0; run < Number(flag("runs") ?? 1); run++) console.log(JSON.stringify(await readyOnce(site, bin, run, {}, args.includes("--wait-cache"))));
}
