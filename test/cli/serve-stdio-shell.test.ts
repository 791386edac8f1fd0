/**
 * Over stdio no shell command holds the server past its time limit (adversary, 2026-11-29: one
 * `diff` of two large sorted inputs held the stdio server's one thread for 54.6 s; a `ping`, an
 * `ls /` and `notifications/cancelled` waited behind it). Commands run in the shell pool's
 * workers, as over HTTP. A real `serve` process and the SDK client; what is asserted is the order
 * of events (answers, the server's log lines), never how long anything took. The runaway is an
 * awk loop of 10^10 steps that checks neither the clock nor the caller: it ends only by its
 * worker being ended.
 */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { REPO, fixture } from "../helpers/paths.js";
import { TestClient } from "../helpers/test-client.js";

const BIN = join(REPO, "bin", "svc-mcp.js");
const FS = "query_docs_filesystem_nimbus_storage";
const runaway = (marker: number): string => `awk 'BEGIN { for (i = 0; i < 1e5; i++) for (j = 0; j < 1e5; j++) s += ${marker}; print s }'`;
/** What the runaway answers: the work budget (4 million steps; an awk step is 20) ends it in its worker, the same on any machine (issue 25). */
const WORK_LIMIT = "bash: awk: work limit reached (4000000 steps per call; a limit of the docs shell: do less in one call)\n[exit code 124]";
const STUCK = "svc-mcp: warning: a docs-shell command ran past its time limit without yielding; restarting its shell worker";

interface Served {
  readonly client: Client;
  /** The server's stderr lines so far. */
  readonly log: string[];
  /** Resolves with the first stderr line `match` accepts. */
  readonly logLine: (match: (line: string) => boolean) => Promise<string>;
}

let open: Client | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function serve(): Promise<Served> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", "--dir", fixture("demo"), "--no-watch", "--no-fetch-remote"], stderr: "pipe" });
  const log: string[] = [];
  const waiting: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  const stderr = transport.stderr;
  if (stderr === null) throw new Error("no stderr");
  createInterface({ input: stderr as Readable }).on("line", (line) => {
    log.push(line);
    for (const w of waiting.splice(0)) {
      if (w.match(line)) w.resolve(line);
      else waiting.push(w);
    }
  });
  const client = new TestClient({ name: "stdio-shell-test", version: "1" });
  await client.connect(transport);
  open = client;
  await client.listTools();
  const logLine = (match: (line: string) => boolean): Promise<string> => {
    const seen = log.find(match);
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ match, resolve }));
  };
  return { client, log, logLine };
}

const text = (r: Record<string, unknown>): string => (r.content as { text: string }[]).map((c) => c.text).join("");

describe("svc-mcp serve (stdio): a command stuck in synchronous code", () => {
  it("answers exit 124 at its work limit, while the server answers a ping and another command", async () => {
    const { client } = await serve();
    const events: string[] = [];
    const stuck = client.callTool({ name: FS, arguments: { command: runaway(1) } }).then((r) => {
      events.push("runaway answered");
      return r;
    });
    // The first ping may be read with the call; the second is sent once the first is answered,
    // so the server reads it while the runaway is under way.
    await client.ping();
    events.push("ping answered");
    await client.ping();
    events.push("second ping answered");
    const ls = await client.callTool({ name: FS, arguments: { command: "ls /" } });
    events.push("ls answered");
    const r = await stuck;
    expect(events).toEqual(["ping answered", "second ping answered", "ls answered", "runaway answered"]);
    expect(text(ls)).toBe("api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n");
    expect({ isError: r.isError, text: text(r) }).toEqual({ isError: true, text: WORK_LIMIT });
  });

  it("stops on notifications/cancelled, and a runaway sent after it ends at its work limit: neither is reported stuck", async () => {
    const { client, log } = await serve();
    const abort = new AbortController();
    const first = client.callTool({ name: FS, arguments: { command: runaway(1) } }, undefined, { signal: abort.signal }).then(
      () => "answered",
      () => "given up",
    );
    // The SDK client sends notifications/cancelled for the call.
    abort.abort();
    expect(await first).toBe("given up");
    // A second runaway, started after the first. Before issue 25's work limit, the pool found it
    // stuck at its 5 s clock and restarted its worker; now the budget ends it inside the worker,
    // and only the wall-clock backstop (60 s) would find a command stuck.
    const second = await client.callTool({ name: FS, arguments: { command: runaway(2) } });
    expect(text(second)).toBe(WORK_LIMIT);
    expect(log.filter((l) => l.startsWith(STUCK))).toEqual([]);
  });
});
