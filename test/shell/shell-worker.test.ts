/**
 * The shell worker (`ShellHost`, used by `serve --http`): the same answers as the in-thread
 * shell for every reader, the current snapshot after a reload, and a server that survives a
 * command stuck in synchronous code or one that exhausts the worker's memory.
 */
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/tools/runtime.js";
import { ShellHost } from "../../src/tools/shell/shell-host.js";
import { ALL_ACCESS, ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { fixture } from "../helpers/paths.js";

const READERS: readonly [string, Reader][] = [
  ["anonymous", ANONYMOUS],
  ["staff", readerWithGroups(["staff"])],
  ["partners", readerWithGroups(["partners"])],
  ["all groups", ALL_ACCESS],
];

/** One or more of every command family, failures and limits included. */
const COMMANDS = [
  "tree / -L 2",
  "ls -la /guides",
  "ls -R /",
  "find / -name '*.mdx' | sort",
  "rg -il marker /",
  "rg -n -C 1 webhook /guides",
  "grep -rn Marker /",
  "grep -c '^#' /guides/*.mdx",
  "cat /guides/webhooks.mdx",
  "cat /internal/runbook.mdx",
  "head -5 /index.mdx /quickstart.mdx",
  "tail -n 3 /partners/pricing.mdx",
  "stat -c '%n %s %a' /index.mdx /internal /nope.mdx",
  "wc -l /*.mdx /*/*.mdx",
  "sed -n '/^## /p' /guides/webhooks.mdx",
  "awk '/Marker/ { print FILENAME }' /*/*.mdx",
  "cut -d: -f1 /index.mdx | sort | uniq -c",
  "cat /skill.md | head -3",
  "echo /*/*.mdx",
  "cat /guides/webhook.mdx",
  "echo x > /guides/new.mdx",
  "seq 1 20000",
  "if then fi",
  "jq --help | head -2",
] as const;

let inline: DocsRuntime;
let worker: DocsRuntime;

beforeAll(async () => {
  inline = await DocsRuntime.load({ root: fixture("demo") });
  worker = await DocsRuntime.load({ root: fixture("demo"), shellWorker: true });
});

afterAll(async () => {
  await Promise.all([inline?.close(), worker?.close()]);
});

describe("commands in the shell worker", () => {
  for (const [name, reader] of READERS) {
    it(`answer byte for byte what the in-thread shell answers (${name})`, async () => {
      const expected = await Promise.all(COMMANDS.map((c) => inline.readerState(reader).shell.run(c)));
      // All at once: the worker runs calls concurrently and answers each its own result.
      const actual = await Promise.all(COMMANDS.map((c) => worker.readerState(reader).shell.run(c)));
      for (let i = 0; i < COMMANDS.length; i++) expect({ command: COMMANDS[i], ...actual[i] }).toEqual({ command: COMMANDS[i], ...expected[i] });
    });
  }

  it("see only the reader's files", async () => {
    expect((await worker.readerState(ANONYMOUS).shell.run("rg -l Marker /")).stdout).toBe("");
    expect((await worker.readerState(readerWithGroups(["partners"])).shell.run("rg -l Marker /")).stdout).toBe("/partners/pricing.mdx\n");
    expect((await worker.readerState(readerWithGroups(["staff"])).shell.run("rg -l Marker /")).stdout).toBe("/internal/runbook.mdx\n/partners/pricing.mdx\n");
  });
});

describe("a reload", () => {
  let dir: string;
  let runtime: DocsRuntime;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-mcp-worker-"));
    cpSync(fixture("demo"), dir, { recursive: true });
    runtime = await DocsRuntime.load({ root: dir, shellWorker: true });
  });

  afterAll(async () => {
    await runtime?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is what the next command sees", async () => {
    const before = runtime.readerState(ANONYMOUS).shell;
    expect((await before.run("wc -l /quickstart.mdx")).exitCode).toBe(0);
    writeFileSync(join(dir, "guides", "retries.mdx"), "---\ntitle: Retries\n---\n\nRetry with backoff.\n");
    unlinkSync(join(dir, "quickstart.mdx"));
    await runtime.applyChanges(["guides/retries.mdx", "quickstart.mdx"]);
    const after = runtime.readerState(ANONYMOUS).shell;
    expect(await after.run("tail -1 /guides/retries.mdx; cat /quickstart.mdx")).toEqual({
      stdout: "Retry with backoff.\n",
      stderr: "cat: /quickstart.mdx: No such file or directory\n",
      exitCode: 1,
      truncated: false,
    });
    // A shell taken before the reload keeps answering from its own snapshot.
    expect((await before.run("ls /guides/retries.mdx")).exitCode).toBe(2);
  });
});

describe("a worker in trouble", () => {
  const view = () => inline.readerState(ANONYMOUS).view;
  const webhooks = { stdout: "489 /guides/webhooks.mdx\n", stderr: "", exitCode: 0, truncated: false };

  it("stuck in synchronous code: the call ends at its time limit, the others run on a fresh worker", async () => {
    const logs: string[] = [];
    // Loops bounded only by time: a loop the shell itself cannot interrupt (it never yields).
    const limits = { ...LIMITS.shell, maxExecutionMs: 300, maxLoopIterations: 1e12 };
    const host = new ShellHost({ log: (m) => logs.push(m), limits, stuckGraceMs: 300 });
    try {
      const shell = host.shellFor(inline.site, view());
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
      const loop = "awk 'BEGIN { for (i = 0; i < 1e12; i++) s += i; print s }'";
      const [stuck, other] = await Promise.all([shell.run(loop), shell.run("wc -c /guides/webhooks.mdx")]);
      expect(stuck).toEqual({ stdout: "", stderr: "bash: command stopped after 300 ms (time limit)\n", exitCode: 124, truncated: false });
      expect(other).toEqual(webhooks);
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
      expect(logs).toEqual([
        `warning: a docs-shell command ran past its time limit without yielding; restarting the shell worker (${JSON.stringify(loop)})`,
      ]);
    } finally {
      await host.close();
    }
  });

  it("out of memory: the call that caused it fails with a message, the server and the other calls go on", async () => {
    const logs: string[] = [];
    const limits = { ...LIMITS.shell, maxExecutionMs: 60_000, maxLoopIterations: 1e12, maxInternalOutputBytes: 2 ** 30 };
    const host = new ShellHost({ log: (m) => logs.push(m), limits, maxHeapMb: 32 });
    try {
      const shell = host.shellFor(inline.site, view());
      const [hog, other] = await Promise.all([shell.run("seq 1 100000000 | wc -l"), shell.run("wc -c /guides/webhooks.mdx")]);
      expect(hog).toEqual({ stdout: "", stderr: "bash: out of memory: this command needs more than the docs shell's 32 MB; narrow it\n", exitCode: 1, truncated: false });
      expect(other).toEqual(webhooks);
      // Tried on a second worker before giving up: the first death may have been another call's doing.
      expect(logs).toEqual([
        "warning: the shell worker failed: Worker terminated due to reaching memory limit: JS heap out of memory",
        "warning: the shell worker failed: Worker terminated due to reaching memory limit: JS heap out of memory",
      ]);
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
    } finally {
      await host.close();
    }
  });

  it("closed: calls get an error result, never hang", async () => {
    const host = new ShellHost();
    const shell = host.shellFor(inline.site, view());
    const running = shell.run("wc -c /guides/webhooks.mdx");
    await host.close();
    const closed = { stdout: "", stderr: "bash: the docs shell was shut down\n", exitCode: 1, truncated: false };
    expect(await running).toEqual(closed);
    expect(await shell.run("ls")).toEqual(closed);
  });
});
