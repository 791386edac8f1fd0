/**
 * `bench/ready.ts` over HTTP: spawn `svc-mcp serve --http --workers N --dir SITE`, time spawn →
 * listening (the start-up lines), → first search, → each of a few shell commands (`ls /`,
 * `rg -il`, `cat`, a pipe), and give each process's peak RSS (VmHWM) and CPU, with native
 * `rg -il` over the same files for comparison. A distinct long question each run.
 *
 *   npx tsx bench/ready-http.ts SITE [--bin path/to/bin/svc-mcp.js] [--workers N] [--word W] [--wait-all]
 *
 * `--wait-all`: then wait until every worker serves, and search and run commands over four more
 * connections (each worker gets some), so each worker's peak RSS includes serving.
 * Prints one JSON line. The state and cache folders are whatever XDG_* the environment names.
 *
 * `--wait-line RE` (with `--wait-all`): also wait for a stderr line matching RE.
 * `--answers FILE`: write every answer (the searches' and commands' whole results) to FILE, to
 * compare two builds' answers. `--memory`: before stopping, each process's RSS and PSS from
 * /proc/PID/smaps_rollup (and their sums); with `MEMPROBE_DIR` set and a preload that answers
 * SIGUSR2 (`NODE_OPTIONS="--require bench/memory-probe.cjs"`), each worker's memory by kind after a full GC.
 *
 * On a loaded machine wall times say little: each step also gives `cpuMs`, the CPU the server's
 * processes (primary and workers, every thread) used during it, and `exit`, the command's exit
 * status (124: stopped at a limit); `cpuAtListeningMs` is each process's CPU when the port opened.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** RSS and PSS (MB) of one process, from smaps_rollup: PSS shares pages another process maps too. */
function rollup(pid: number): { rssMb: number; pssMb: number; anonMb: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
    return { rssMb: Math.round(kb("Rss") / 1024), pssMb: Math.round(kb("Pss") / 1024), anonMb: Math.round(kb("Anonymous") / 1024) };
  } catch {
    return { rssMb: 0, pssMb: 0, anonMb: 0 };
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

/** Child processes of `pid` (the worker processes of the primary). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (text !== "") out.push(...text.split(" ").map(Number));
    }
  } catch {
    /* gone */
  }
  return out;
}

/** A file of the site to `cat`: the first page under the first folder with one. */
function somePage(site: string): string {
  const found = execFileSync("rg", ["--files", "--sort", "path", "-g", "*.mdx", site], { encoding: "utf8", maxBuffer: 1 << 30 }).split("\n")[0] ?? "";
  return found.slice(site.length).replace(/^\/?/, "/");
}

/**
 * Each process's RSS and PSS (and their sums); with a probe preloaded (`MEMPROBE_DIR`), each
 * worker's memory by kind after a full GC, RSS and PSS read again after it.
 */
async function memoryOf(primary: number, workers: number[]): Promise<unknown> {
  const dir = process.env.MEMPROBE_DIR;
  const kinds: Record<number, unknown> = {};
  if (dir !== undefined) {
    for (const w of workers) {
      const file = join(dir, `mem-${w}.json`);
      rmSync(file, { force: true });
      process.kill(w, "SIGUSR2");
      for (let i = 0; i < 600 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      await new Promise((resolve) => setTimeout(resolve, 200));
      kinds[w] = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : "no answer";
    }
  }
  const each = [primary, ...workers].map((p) => ({ pid: p, ...rollup(p), kinds: kinds[p] }));
  return { processes: each, totalRssMb: each.reduce((s, p) => s + p.rssMb, 0), totalPssMb: each.reduce((s, p) => s + p.pssMb, 0) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const site = args[0];
  const flag = (name: string): string | undefined => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
  if (site === undefined) throw new Error("usage: ready-http.ts SITE [--bin BIN] [--workers N] [--word W]");
  const bin = flag("bin") ?? join(import.meta.dirname, "../bin/svc-mcp.js");
  const workers = flag("workers") ?? "2";
  const word = flag("word") ?? "checkout";
  const run = Number(flag("run") ?? Date.now() % 1000);
  const start = performance.now();
  const child: ChildProcess = spawn(process.execPath, [bin, "serve", "--http", "--port", "0", "--no-watch", "--no-fetch-remote", "--workers", workers, "--dir", site], { stdio: ["ignore", "ignore", "pipe"] });
  const lines: string[] = [];
  let allServing!: () => void;
  const allServed = new Promise<void>((resolve) => (allServing = resolve));
  let allMs = 0;
  const origin = await new Promise<string>((resolve, reject) => {
    let url: string | undefined;
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      if (/worker process(es)? on one port/.test(line)) {
        allMs = performance.now() - start;
        allServing();
      }
      if (process.env.READY_VERBOSE === "1") process.stderr.write(`${((performance.now() - start) / 1000).toFixed(1)}s ${line}\n`);
      const m = /MCP \(public\): +(\S+)\/mcp$/.exec(line);
      if (m !== null) url = m[1];
      if (url !== undefined && line.includes("site auth")) resolve(url);
    });
    child.once("exit", (code) => reject(new Error(`svc-mcp serve exited with ${code}:\n${lines.join("\n")}`)));
  });
  const listeningMs = performance.now() - start;
  const pid = child.pid as number;
  const serverCpu = (): number => [pid, ...childrenOf(pid)].reduce((sum, p) => sum + cpuMsOf(p), 0);
  const cpuAtListeningMs = Object.fromEntries([pid, ...childrenOf(pid)].map((p) => [p, cpuMsOf(p)]));
  let cpu0 = serverCpu();
  const client = new Client({ name: "ready-http-bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)), { timeout: 600_000 });
  const tools = await client.listTools(undefined, { timeout: 600_000 });
  const search = tools.tools.find((t) => t.name.startsWith("search"));
  const shell = tools.tools.find((t) => t.name.startsWith("query_docs_filesystem"));
  if (search === undefined || shell === undefined) throw new Error(`tools not found: ${tools.tools.map((t) => t.name).join(", ")}`);
  const connectCpuMs = serverCpu() - cpu0;
  let t = performance.now();
  cpu0 = serverCpu();
  const answers: unknown[] = [];
  const found = await client.callTool({ name: search.name, arguments: { query: `how do I configure the ${word} flow so that guests can pay without creating an account ${run}` } }, undefined, { timeout: 600_000 });
  const searchMs = Math.round(performance.now() - t);
  answers.push({ search: found.structuredContent ?? found.content });
  const searchCpuMs = serverCpu() - cpu0;
  const page = somePage(site);
  const commands = ["echo hi", "ls / | head -5", `cat ${page} | head -3`, `rg -il ${word} / | wc -l`, `rg -il ${word} / | wc -l`, "ls / | wc -l"];
  const shellRuns: { command: string; ms: number; cpuMs: number; exit: unknown; out: string }[] = [];
  /** One shell call: its wall time, the server's CPU meanwhile, its exit status and the start of its output. */
  const shellCall = async (on: Client, label: string, command: string): Promise<void> => {
    t = performance.now();
    cpu0 = serverCpu();
    const r = await on.callTool({ name: shell.name, arguments: { command } }, undefined, { timeout: 600_000 });
    const ms = Math.round(performance.now() - t);
    answers.push({ command: label, answer: r.structuredContent ?? r.content });
    const content = r.structuredContent as { exitCode?: unknown } | undefined;
    shellRuns.push({ command: label, ms, cpuMs: serverCpu() - cpu0, exit: content?.exitCode, out: JSON.stringify(r.structuredContent ?? r.content).slice(0, 120) });
  };
  const runAll = async (): Promise<void> => {
    for (const command of commands) await shellCall(client, command, command);
  };
  await runAll();
  // Then once every worker serves: the same over fresh connections (the cluster hands each to a worker in turn).
  let laterSearchMs: number[] = [];
  const laterSearchCpuMs: number[] = [];
  if (args.includes("--wait-all")) {
    await allServed;
    // `--wait-line RE`: then wait for a line matching RE too (a replaced worker's successor serving).
    const waitLine = flag("wait-line");
    if (waitLine !== undefined) {
      const re = new RegExp(waitLine);
      while (!lines.some((l) => re.test(l))) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (let i = 0; i < 4; i++) {
      const other = new Client({ name: "ready-http-bench", version: "1" });
      await other.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)), { timeout: 600_000 });
      t = performance.now();
      cpu0 = serverCpu();
      const later = await other.callTool({ name: search.name, arguments: { query: `where are the webhooks for ${word} completion documented and how do I verify them ${run + i}` } }, undefined, { timeout: 600_000 });
      answers.push({ laterSearch: i, answer: later.structuredContent ?? later.content });
      laterSearchMs = [...laterSearchMs, Math.round(performance.now() - t)];
      laterSearchCpuMs.push(serverCpu() - cpu0);
      for (const command of ["echo hi", `rg -il ${word} / | wc -l`]) await shellCall(other, `later ${i}: ${command}`, command);
      await other.close();
    }
  }
  // Native ripgrep over the same files, twice (the second from the page cache): wall and CPU
  // (user + system of the shell's children, from bash's `times`).
  const native: number[] = [];
  const nativeCpuMs: number[] = [];
  let nativeCount = "";
  for (let i = 0; i < 2; i++) {
    t = performance.now();
    const out = execFileSync("bash", ["-c", `cd ${JSON.stringify(site)} && rg -il ${word} . | wc -l && times`], { encoding: "utf8" }).trim().split("\n");
    native.push(Math.round(performance.now() - t));
    nativeCount = out[0] ?? "";
    // `times`: the shell's user and system time, then its children's: "0m0.301s 0m0.812s".
    const children = (out[2] ?? "").match(/(\d+)m([\d.]+)s/g) ?? [];
    nativeCpuMs.push(Math.round(children.reduce((sum, x) => { const m = /(\d+)m([\d.]+)s/.exec(x) as RegExpExecArray; return sum + (Number(m[1]) * 60 + Number(m[2])) * 1000; }, 0)));
  }
  const kids = childrenOf(pid);
  const memory = args.includes("--memory") ? await memoryOf(pid, kids) : undefined;
  const processes = [{ pid, role: "primary", peakRssMb: peakRss(pid), cpuMs: cpuMsOf(pid) }, ...kids.map((k) => ({ pid: k, role: "worker", peakRssMb: peakRss(k), cpuMs: cpuMsOf(k) }))];
  const answersFile = flag("answers");
  if (answersFile !== undefined) writeFileSync(answersFile, `${JSON.stringify(answers, null, 1)}\n`);
  await client.close();
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  const hits = JSON.stringify(found.structuredContent ?? found.content).length;
  console.log(
    JSON.stringify({ listeningMs: Math.round(listeningMs), allServingMs: Math.round(allMs), cpuAtListeningMs, connectCpuMs, searchMs, searchCpuMs, laterSearchMs, laterSearchCpuMs, hits, memory, exit124: shellRuns.filter((r) => r.exit === 124).length, shell: shellRuns, nativeRgMs: native, nativeRgCpuMs: nativeCpuMs, nativeCount, processes, load: readFileSync("/proc/loadavg", "utf8").trim() }),
  );
}

await main();
