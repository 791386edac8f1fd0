/**
 * The shell worker pool (`ShellHost`, used by `serve --http`): the same answers as the in-thread
 * shell for every reader, the current snapshot after a reload, a server that survives a command
 * stuck in synchronous code or one that exhausts its worker's memory, and callers who cannot
 * hold each other's commands up.
 */
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { PoolEvent } from "../../src/engine/shell/pool-events.js";
import { ShellHost, type ToWorker, shellPoolSize } from "../../src/engine/shell/shell-host.js";
import { ALL_ACCESS, ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { heldTextOf } from "../../src/vfs/held-text.js";
import { makeFile, type SiteFile } from "../../src/vfs/site-file.js";
import { SiteView } from "../../src/vfs/view.js";
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
      const expected = await Promise.all(COMMANDS.map((c) => inline.readerState(localContext(reader)).shell.run(c)));
      // All at once, each of its own caller (one caller may hold only a few): the pool runs them
      // on its workers and answers each its own result.
      const actual = await Promise.all(COMMANDS.map((c, i) => worker.readerState(localContext(reader)).shell.run(c, `caller-${i}`)));
      for (let i = 0; i < COMMANDS.length; i++) expect({ command: COMMANDS[i], ...actual[i] }).toEqual({ command: COMMANDS[i], ...expected[i] });
    });
  }

  it("see only the reader's files", async () => {
    expect((await worker.readerState(localContext()).shell.run("rg -l Marker /")).stdout).toBe("");
    expect((await worker.readerState(localContext(readerWithGroups(["partners"]))).shell.run("rg -l Marker /")).stdout).toBe("/partners/pricing.mdx\n");
    expect((await worker.readerState(localContext(readerWithGroups(["staff"]))).shell.run("rg -l Marker /")).stdout).toBe("/internal/runbook.mdx\n/partners/pricing.mdx\n");
  });
});

/** Pages in several scripts, each stored in the shared snapshot its own way (`storedEncoding`):
 *  Latin-1, UTF-8 (mostly ASCII with dashes, quotes, an emoji), UTF-16 (Chinese, Arabic). */
const SCRIPTS: Readonly<Record<string, string>> = {
  "latin.mdx": "---\ntitle: Café\n---\n\nCafé au lait: ½ price, déjà vu.\n",
  "english.mdx": "---\ntitle: Settings — the “short” way\n---\n\n# Settings\n\nSet `mode` to fast – or slow 🚀.\nThe “checkout” step — done.\n",
  "chinese.mdx": "---\ntitle: 快速开始\n---\n\n# 快速开始\n\n安装 checkout 模块，然后运行。\n配置完成。\n",
  "arabic.mdx": "---\ntitle: البدء السريع\n---\n\n# البدء السريع\n\nثبّت وحدة checkout ثم شغّلها.\n",
  "emoji.mdx": "# 🚀🚀\n\n🎉 checkout 🎉\n",
};

/** Commands that read those texts whole, by line, by byte and by pattern. */
const SCRIPT_COMMANDS = [
  "cat /latin.mdx /english.mdx /chinese.mdx /arabic.mdx /emoji.mdx",
  "rg -n checkout /",
  "rg -il 'SETTINGS|快速|البدء' /",
  "grep -rn '—' /",
  "grep -c '🚀' /english.mdx /emoji.mdx",
  "wc -c /*.mdx",
  "head -c 20 /chinese.mdx | od -c | head -3",
  "sed -n '5,6p' /english.mdx /arabic.mdx",
  "awk '{ n += length($0) } END { print n }' /*.mdx",
  "rg -o '[^\\x00-\\x7f]+' /english.mdx",
  // just-bash's awk as corrected (src/engine/shell/just-bash-patches.mjs) in the worker too
  "awk 'BEGIN { print int(-3.7), 1e20, toupper(\"straße\") }'",
] as const;

describe("texts beyond Latin-1 in the shell worker", () => {
  let dir: string;
  let inlineRuntime: DocsRuntime;
  let workerRuntime: DocsRuntime;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-mcp-scripts-"));
    for (const [name, text] of Object.entries(SCRIPTS)) writeFileSync(join(dir, name), text);
    inlineRuntime = await DocsRuntime.load({ root: dir });
    workerRuntime = await DocsRuntime.load({ root: dir, shellWorker: true });
  });

  afterAll(async () => {
    await Promise.all([inlineRuntime?.close(), workerRuntime?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("answer byte for byte what the in-thread shell answers (CJK, Arabic, emoji, dashes)", async () => {
    // One after another: ten at once in one thread could share out a busy machine's time past a
    // command's limit.
    const expected = [];
    const actual = [];
    for (const c of SCRIPT_COMMANDS) expected.push(await inlineRuntime.readerState(localContext()).shell.run(c));
    for (const c of SCRIPT_COMMANDS) actual.push(await workerRuntime.readerState(localContext()).shell.run(c));
    for (let i = 0; i < SCRIPT_COMMANDS.length; i++) expect({ command: SCRIPT_COMMANDS[i], ...actual[i] }).toEqual({ command: SCRIPT_COMMANDS[i], ...expected[i] });
    expect(actual[0]).toEqual({ stdout: Object.values(SCRIPTS).join(""), stderr: "", exitCode: 0, truncated: false });
    expect(actual[9]?.stdout).toBe("—\n“\n”\n–\n🚀\n“\n”\n—\n");
    expect(actual[10]?.stdout).toBe("-3 100000000000000000000 STRAßE\n");
    expect(actual[1]?.stdout).toBe(
      "/arabic.mdx:7:ثبّت وحدة checkout ثم شغّلها.\n/chinese.mdx:7:安装 checkout 模块，然后运行。\n/emoji.mdx:3:🎉 checkout 🎉\n/english.mdx:8:The “checkout” step — done.\n",
    );
  });
});

describe("page texts once the pool holds them", () => {
  let dir: string;
  let inlineRuntime: DocsRuntime;
  let workerRuntime: DocsRuntime;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-mcp-held-"));
    for (const [name, text] of Object.entries(SCRIPTS)) writeFileSync(join(dir, name), text);
    inlineRuntime = await DocsRuntime.load({ root: dir });
    workerRuntime = await DocsRuntime.load({ root: dir, shellWorker: true });
  });

  afterAll(async () => {
    await Promise.all([inlineRuntime?.close(), workerRuntime?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("are read from the snapshot's bytes, not kept twice, and read back the same (issue 22)", async () => {
    await Promise.all([inlineRuntime.whenIndexed(), workerRuntime.whenIndexed()]);
    await workerRuntime.readerState(localContext()).shell.run("ls /");
    const pages = [...workerRuntime.site.pages.values()];
    expect(pages.map((p) => [p.path, heldTextOf(p.file)?.parked])).toEqual(Object.keys(SCRIPTS).sort().map((name) => [`/${name.replace(/\.mdx$/, "")}`, true]));
    const plain = (runtime: DocsRuntime) => [...runtime.site.pages.values()].map((p) => ({ path: p.path, text: p.file.text, body: p.body, size: p.file.size, bodyLine: p.bodyLine }));
    expect(plain(workerRuntime)).toEqual(plain(inlineRuntime));
    expect(workerRuntime.site.pages.get("/chinese")?.file.text).toBe(SCRIPTS["chinese.mdx"]);
    expect(workerRuntime.site.pages.get("/english")?.body).toBe("\n# Settings\n\nSet `mode` to fast – or slow 🚀.\nThe “checkout” step — done.\n");
    for (const query of ["checkout", "快速开始", "البدء السريع", "settings short way", "café"]) {
      const expected = await inlineRuntime.search(localContext(), { query });
      expect({ query, hits: await workerRuntime.search(localContext(), { query }) }).toEqual({ query, hits: expected });
    }
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
    const before = runtime.readerState(localContext()).shell;
    expect((await before.run("wc -l /quickstart.mdx")).exitCode).toBe(0);
    writeFileSync(join(dir, "guides", "retries.mdx"), "---\ntitle: Retries\n---\n\nRetry with backoff.\n");
    unlinkSync(join(dir, "quickstart.mdx"));
    await runtime.applyChanges(["guides/retries.mdx", "quickstart.mdx"]);
    const after = runtime.readerState(localContext()).shell;
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

/** A command stuck in synchronous code until it is stopped (with `maxLoopIterations: 1e12, maxAwkSedIterations: 1e13, maxSteps: 1e15`). */
const AWK_LOOP = "awk 'BEGIN { for (i = 0; i < 1e12; i++) s += i; print s }'";

describe("idle workers", () => {
  it("are stopped after idleMs, all but two (a spare and the trusted callers' own), which serve the next calls", async () => {
    let now = 1_000_000;
    let loaded = 0;
    let allLoaded = (): void => {};
    const four = new Promise<void>((resolve) => (allLoaded = resolve));
    const onEvent = (e: PoolEvent): void => {
      if (e.t === "loaded" && ++loaded === 4) allLoaded();
    };
    const host = new ShellHost({ workers: 4, idleMs: 60_000, now: () => now, onEvent });
    try {
      const shell = host.shellFor(inline.site, inline.readerState(localContext()).view);
      const wc = { stdout: "489 /guides/webhooks.mdx\n", stderr: "", exitCode: 0, truncated: false };
      // Four callers at once: the whole pool of four starts.
      const calls = ["a", "b", "c", "d"].map((caller) => shell.run("wc -c /guides/webhooks.mdx", caller));
      expect(await Promise.all(calls)).toEqual([wc, wc, wc, wc]);
      expect(host.workers).toBe(4);
      // Workers that were still starting when the calls were answered are idle once loaded.
      await four;
      now += 59_999;
      expect(host.retireIdle()).toBe(0);
      now += 1;
      expect(host.retireIdle()).toBe(2);
      expect(host.workers).toBe(2);
      expect(host.retireIdle()).toBe(0);
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(wc);
    } finally {
      await host.close();
    }
  });
});

describe("a worker in trouble", () => {
  const view = () => inline.readerState(localContext()).view;
  const webhooks = { stdout: "489 /guides/webhooks.mdx\n", stderr: "", exitCode: 0, truncated: false };

  it("stuck in synchronous code: the call ends at its time limit with its worker, the others run on other workers", async () => {
    const logs: string[] = [];
    // Loops bounded only by time: a loop the shell itself cannot interrupt (it never yields). The
    // limit leaves a loaded machine room to start workers and run the other calls within it.
    const limits = { ...LIMITS.shell, maxExecutionMs: 2_000, maxLoopIterations: 1e12, maxAwkSedIterations: 1e13, maxSteps: 1e15 };
    const host = new ShellHost({ log: (m) => logs.push(m), limits, stuckGraceMs: 300, workers: 2 });
    try {
      const shell = host.shellFor(inline.site, view());
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
      // awk loads on first use (an await the deadline could win on a busy machine): load it on
      // the worker the loop will take (the first idle one), so the loop is all that runs there.
      expect(await shell.run("awk 'BEGIN { print 1 }'")).toEqual({ stdout: "1\n", stderr: "", exitCode: 0, truncated: false });
      const [stuck, other] = await Promise.all([shell.run(AWK_LOOP, "a"), shell.run("wc -c /guides/webhooks.mdx", "b")]);
      expect(stuck).toEqual({ stdout: "", stderr: "bash: command stopped after 2000 ms (time limit)\n", exitCode: 124, truncated: false });
      expect(other).toEqual(webhooks);
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
      expect(logs).toEqual([
        `warning: a docs-shell command ran past its time limit without yielding; restarting its shell worker (${JSON.stringify(AWK_LOOP)})`,
      ]);
    } finally {
      await host.close();
    }
  });

  it("a call that ended with the time-limit status (124): its worker is kept where the line stopped itself (`exit 124`, even after printing the time-limit message; as at its work or CPU limit), and replaced where the clock stopped it while it awaited (the command may run on there)", async () => {
    // The clock's 3 s reached by a jq that never ends while the line awaits it (its CPU limit an hour away).
    const host = new ShellHost({ workers: 1, limits: { ...LIMITS.shell, maxExecutionMs: 3_000 }, maxCpuMs: 3_600_000 });
    // Which worker each command is posted to, observed (not changed).
    const ranOn: Worker[] = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: ToWorker, ...rest: []) {
      if (message.t === "run") ranOn.push(this);
      post.call(this, message, ...rest);
    };
    try {
      const shell = host.shellFor(inline.site, view());
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
      // What the shell answers for a command it stopped at its limit; `exit 124` gives it at once.
      expect(await shell.run("exit 124")).toEqual({ stdout: "", stderr: "", exitCode: 124, truncated: false });
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
      // A command that prints the clock's own words last on stderr and exits 124 is a normal exit:
      // the worker says what stopped a line beside its result, and the host reads no stderr (issue 25).
      expect(await shell.run("echo 'bash: command stopped after 3000 ms (time limit)' >&2; exit 124")).toEqual({ stdout: "", stderr: "bash: command stopped after 3000 ms (time limit)\n", exitCode: 124, truncated: false });
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
      expect(await shell.run("jq -n 'def f: f; f'")).toEqual({ stdout: "", stderr: "bash: command stopped after 3000 ms (time limit)\n", exitCode: 124, truncated: false });
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
      expect([1, 2, 3, 4, 5, 6, 7].map((k) => ranOn[k] === ranOn[k - 1])).toEqual([true, true, true, true, true, false, true]);
    } finally {
      Worker.prototype.postMessage = post;
      await host.close();
    }
  });

  it("out of memory: the call that caused it fails with a message, the server and the other calls go on", async () => {
    const logs: string[] = [];
    const limits = { ...LIMITS.shell, maxExecutionMs: 60_000, maxLoopIterations: 1e12, maxAwkSedIterations: 1e13, maxSteps: 1e15, maxInternalOutputBytes: 2 ** 30 };
    const host = new ShellHost({ log: (m) => logs.push(m), limits, maxHeapMb: 32 });
    try {
      const shell = host.shellFor(inline.site, view());
      const [hog, other] = await Promise.all([shell.run("seq 1 100000000 | wc -l", "a"), shell.run("wc -c /guides/webhooks.mdx", "b")]);
      expect(hog).toEqual({ stdout: "", stderr: "bash: out of memory: this command needs more than the docs shell's 32 MB; narrow it\n", exitCode: 1, truncated: false });
      expect(other).toEqual(webhooks);
      // One worker, one call: the call that ran out of memory is the one that fails, once.
      expect(logs).toEqual(["warning: a shell worker failed: Worker terminated due to reaching memory limit: JS heap out of memory"]);
      expect(await shell.run("wc -c /guides/webhooks.mdx")).toEqual(webhooks);
    } finally {
      await host.close();
    }
  });

  it("many readers sharing one variant of a big file: the worker gets its text once, not once per reader", async () => {
    // 80 readers (distinct group sets, so distinct views) of one access class share a 3 MB
    // variant of a file. What the host posts to the worker is observed, not changed.
    const big = makeFile("/api/spec.yaml", `${"x".repeat(99)}\n`.repeat(30_000), {}, new Date(0));
    const site = { files: new Map([["/index.mdx", inline.site.files.get("/index.mdx") as SiteFile]]), pages: new Map() };
    let sent = 0;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: ToWorker, ...rest: []) {
      if (message.t === "view") for (const e of message.extra) sent += e.file?.size ?? 0;
      // (A host that sends files themselves, as before ids, is counted too.)
      if (message.t === "view") for (const e of message.extra as unknown[]) sent += (e as Partial<SiteFile>).size ?? 0;
      post.call(this, message, ...rest);
    };
    // One worker: every view goes to the same one.
    const host = new ShellHost({ workers: 1 });
    try {
      const shells = Array.from({ length: 80 }, (_, i) => host.shellFor(inline.site, new SiteView(site, readerWithGroups([`g${i}`]), "public", [big])));
      for (const shell of shells) expect(await shell.run("wc -l /api/spec.yaml")).toEqual({ stdout: "30000 /api/spec.yaml\n", stderr: "", exitCode: 0, truncated: false });
      expect(sent).toBe(big.size);
    } finally {
      Worker.prototype.postMessage = post;
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

describe("the pool", () => {
  const view = () => inline.readerState(localContext()).view;
  const ls = () => inline.readerState(localContext()).shell.run("ls /");
  const shutDown = { stdout: "", stderr: "bash: the docs shell was shut down\n", exitCode: 1, truncated: false };
  /** Runaways that would run for a minute: only shutting the pool down ends them in a test. */
  const runawayLimits = { ...LIMITS.shell, maxExecutionMs: 60_000, maxLoopIterations: 1e12, maxAwkSedIterations: 1e13, maxSteps: 1e15 };

  it("has twice as many workers as cores, at least 6 and at most 16", () => {
    expect([1, 2, 3, 4, 8, 9, 64].map(shellPoolSize)).toEqual([6, 6, 6, 8, 16, 16, 16]);
  });

  for (const [what, callers] of [
    ["one caller", ["attacker", "attacker", "attacker"]],
    ["three callers", ["attacker-1", "attacker-2", "attacker-3"]],
  ] as const) {
    it(`runs another reader's ls / to completion while three runaway commands of ${what} are in flight (the pool of a 2-core machine)`, async () => {
      const host = new ShellHost({ limits: runawayLimits, maxCpuMs: 3_600_000, workers: shellPoolSize(2) });
      const events: string[] = [];
      try {
        const shell = host.shellFor(inline.site, view());
        // Every worker loaded first, so the runaways (which burn a core each) run only briefly.
        await Promise.all(Array.from({ length: host.size }, (_, k) => shell.run("ls /", `warm-${k}`)));
        const runaways = callers.map((caller, k) =>
          shell.run(AWK_LOOP, caller).then((r) => {
            events.push(`runaway ${k + 1} ended`);
            return r;
          }),
        );
        const victim = await host.shellFor(inline.site, view()).run("ls /", "victim");
        events.push("victim answered");
        expect(victim).toEqual(await ls());
        expect(events).toEqual(["victim answered"]);
        await host.close();
        expect(await Promise.all(runaways)).toEqual([shutDown, shutDown, shutDown]);
      } finally {
        await host.close();
      }
    });
  }

  it("serves a newcomer before the calls another caller queued earlier", async () => {
    const host = new ShellHost({ workers: 1 });
    const order: string[] = [];
    try {
      const shell = host.shellFor(inline.site, view());
      const track = (name: string, caller: string) => shell.run("ls /", caller).then(() => order.push(name));
      await Promise.all([track("a1", "a"), track("a2", "a"), track("a3", "a"), track("b1", "b")]);
      expect(order).toEqual(["a1", "b1", "a2", "a3"]);
    } finally {
      await host.close();
    }
  });

  it("refuses a caller's call past what it may hold (running and waiting) at once, naming the limit; other callers' calls go on", async () => {
    const host = new ShellHost({ workers: 1, maxHeldPerCaller: 3 });
    try {
      const shell = host.shellFor(inline.site, view());
      const results = await Promise.all([shell.run("ls /", "a"), shell.run("ls /", "a"), shell.run("ls /", "a"), shell.run("ls /", "a"), shell.run("ls /", "b")]);
      const ok = await ls();
      expect(results).toEqual([
        ok,
        ok,
        ok,
        {
          stdout: "",
          stderr:
            "bash: too many commands of this client in the docs shell: at most 3 running or waiting at once per client (an address, an IPv6 /64 or a token); wait for their results, then send more\n",
          exitCode: 126,
          truncated: false,
        },
        ok,
      ]);
    } finally {
      await host.close();
    }
  });
  it("ends work no count sees (a jq that never ends, inside WebAssembly) at its thread's CPU limit, exit 124, and a third caller's ls / answers while two such run (issue 25)", async () => {
    // Two workers (a stdio or preview pool), both taken by two callers' runaways. Only the CPU
    // limit ends them: the wall-clock backstop is an hour here, and the work budget cannot see
    // inside jq (real jq compiled to WebAssembly, run in the worker's own thread). CPU time
    // accrues only while the thread runs, so on any machine and under any load each ends after
    // the same second of its own work; the worker is then replaced.
    const host = new ShellHost({ limits: { ...LIMITS.shell, maxExecutionMs: 3_600_000 }, maxCpuMs: 1_000, workers: 2 });
    const runaway = `jq -n 'def f: f; f'`;
    const cpuLimit = {
      stdout: "",
      stderr:
        "bash: command stopped after 1000 ms of CPU time (CPU limit: one step of it, such as a jq or regex operation on a huge value, was too costly for the work limit to count); narrow it\n",
      exitCode: 124,
      truncated: false,
    };
    try {
      const shell = host.shellFor(inline.site, view());
      const runaways = [shell.run(runaway, "attacker-1"), shell.run(runaway, "attacker-2")];
      const victim = await host.shellFor(inline.site, view()).run("ls /", "victim");
      expect(victim).toEqual(await ls());
      expect(await Promise.all(runaways)).toEqual([cpuLimit, cpuLimit]);
      // Both workers were ended and are replaced: the next call answers.
      expect(await shell.run("ls /", "attacker-1")).toEqual(await ls());
    } finally {
      await host.close();
    }
  });
});
