import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { cpuMs } from "./cpu-time.js";

/**
 * What handing out connections costs the primary of `serve --http --workers N` (issue 23): each
 * side's server started at once on the demo fixture, then `rounds` rounds in which each side in
 * turn (the order reversed every round) answers `connections` requests, each on a new connection
 * (`Connection: close`; 16 at a time), for `GET /.well-known/mcp`, which reads no docs. Prints
 * one JSON line per side: the primary's CPU per connection (µs), the workers' together, and each
 * round's load average. CPU time, not wall time: it holds on a loaded machine.
 *
 *   npx tsx bench/connection-churn.ts <workers> <connections> <rounds> <checkout> <checkout>...
 */

const [workersArg, connectionsArg, roundsArg, ...checkouts] = process.argv.slice(2);
const workers = Number(workersArg);
const connections = Number(connectionsArg);
const rounds = Number(roundsArg);
if (!(workers >= 2) || !(connections >= 1) || !(rounds >= 1) || checkouts.length === 0) {
  process.stderr.write("usage: npx tsx bench/connection-churn.ts <workers> <connections> <rounds> <checkout>...\n");
  process.exit(2);
}
const AT_ONCE = 16;

interface Side {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pids: readonly number[];
  readonly port: number;
  readonly state: string;
  primaryMs: number;
  workersMs: number;
  handled: number;
  readonly loads: number[];
}

async function start(checkout: string): Promise<Side> {
  const dir = resolve(checkout);
  const state = mkdtempSync(join(tmpdir(), "svc-churn-"));
  const args = ["serve", "--http", "--port", "0", "--no-watch", "--dir", join(dir, "fixtures", "demo"), "--state", state, "--workers", String(workers), "--rate-limit", "ip=off"];
  const child = spawn(process.execPath, [join(dir, "bin", "svc-mcp.js"), ...args], { stdio: ["ignore", "ignore", "pipe"] });
  const lines: string[] = [];
  const { origin, pids } = await new Promise<{ origin: string; pids: number[] }>((ready, fail) => {
    let found: string | undefined;
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      found ??= /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line)?.[1];
      const many = /worker processes on one port \(pids ([\d, ]+)\)$/.exec(line);
      if (found !== undefined && many !== null) ready({ origin: found, pids: (many[1] as string).split(", ").map(Number) });
    });
    child.once("exit", (code) => fail(new Error(`${checkout}: serve exited with ${code}:\n${lines.join("\n")}`)));
  });
  return { name: checkout, child, pids, port: Number(new URL(origin).port), state, primaryMs: 0, workersMs: 0, handled: 0, loads: [] };
}

/** One request on a new connection, closed after its answer. */
function once200(port: number): Promise<void> {
  return new Promise((done, fail) => {
    const req = request({ host: "127.0.0.1", port, path: "/.well-known/mcp", agent: false, headers: { connection: "close" } }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? done() : fail(new Error(`status ${res.statusCode}`))));
    });
    req.on("error", fail);
    req.end();
  });
}

async function churn(side: Side): Promise<void> {
  let next = 0;
  const primary0 = cpuMs(side.child.pid);
  const workers0 = side.pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next++ < connections) await once200(side.port);
    }),
  );
  side.primaryMs += cpuMs(side.child.pid) - primary0;
  side.workersMs += side.pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - workers0;
  side.handled += connections;
}

const sides: Side[] = [];
try {
  for (const checkout of checkouts) sides.push(await start(checkout));
  // Warm both (JIT) before counting.
  for (const side of sides) for (let i = 0; i < 200; i++) await once200(side.port);
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      side.loads.push(Math.round((loadavg()[0] as number) * 10) / 10);
      await churn(side);
    }
  }
  for (const side of sides) {
    const us = (ms: number): number => Math.round((ms / side.handled) * 1000);
    process.stdout.write(`${JSON.stringify({ side: side.name, workers, connections: side.handled, primaryCpuUsPerConnection: us(side.primaryMs), workersCpuUsPerConnection: us(side.workersMs), loads: side.loads })}\n`);
  }
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
