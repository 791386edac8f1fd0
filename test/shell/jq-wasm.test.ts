/**
 * Issue 25 (adversary findings F1, F2): the docs shell's jq is the real jq 1.8.2 compiled to
 * WebAssembly (src/engine/shell/jq/), not just-bash's reimplementation, which answered these
 * idioms wrongly and ran the reduce loop in quadratic time (past the 5 s CPU limit; jq 0.1 s).
 * jq reads files from the reader's view only, sees the shell's environment only, and may use
 * 256 MB of memory; in the process's own thread it runs in a thread that the CPU limit ends.
 * Expected values are jq 1.8's (its manual, and jq-wasm 3.0.0-jq-1.8.2's own output).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SHELL_COMMANDS } from "../../src/engine/shell/commands/index.js";
import { DocsShell } from "../../src/engine/shell/docs-shell.js";
import { CallCpu } from "../../src/engine/shell/call-cpu.js";
import { runJqInThread } from "../../src/engine/shell/jq/jq-in-thread.js";
import { jqModule } from "../../src/engine/shell/jq/jq-module.js";
import { checkJqModule } from "../../src/engine/shell/jq/wasm-host.mjs";
import { cpuLimitMessage } from "../../src/engine/shell/shell.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { LIMITS } from "../../src/limits.js";
import { localContext } from "../../src/vfs/request-context.js";
import { makeRepo } from "../helpers/repo.js";

let repo: { dir: string; cleanup: () => void };
let shell: Shell;
/** The same shell with an hour of wall-clock time: at load 30 the CPU limit's 5 s of a thread's CPU took over a minute, past the 60 s backstop. */
let slow: Shell;
let runtime: DocsRuntime;
beforeAll(async () => {
  repo = makeRepo({
    "docs.json": JSON.stringify({ name: "T", navigation: { groups: [{ group: "S", pages: ["index", "staff", "guides/a"] }] } }),
    "index.mdx": "---\ntitle: Home\n---\n\nok\n",
    "guides/a.mdx": "---\ntitle: A\n---\n\na\n",
    "staff.mdx": "---\ntitle: Staff\ngroups: [\"staff\"]\n---\n\nSTAFF-ONLY-TEXT\n",
  });
  runtime = await DocsRuntime.load({ root: repo.dir });
  shell = runtime.readerState(localContext()).shell;
  const view = runtime.readerState(localContext()).view;
  slow = new DocsShell(view, SHELL_COMMANDS.map((make) => make(view)), { ...LIMITS.shell, maxExecutionMs: 3_600_000 });
});
afterAll(async () => {
  await runtime.close();
  repo.cleanup();
});

const ok = (stdout: string) => ({ stdout, stderr: "", exitCode: 0, truncated: false });

describe("jq answers the idioms just-bash's jq got wrong (adversary F1)", () => {
  it.each([
    ["echo '{\"a\":1,\"b\":2,\"c\":3}' | jq -c 'del(.a, .b)'", '{"c":3}\n'],
    ["jq -nc '{} | .a.b = 1'", '{"a":{"b":1}}\n'],
    ["jq -nc '{} | (.a, .b) = 9'", '{"a":9,"b":9}\n'],
    ["jq -nc '[1,2] as [$a,$b] | {$a,$b}'", '{"a":1,"b":2}\n'],
    ["jq -nc '[5,6] | to_entries'", '[{"key":0,"value":5},{"key":1,"value":6}]\n'],
    ['jq -nr \'["a b", "it\'"\'"\'s"] | @sh\'', "'a b' 'it'\\''s'\n"],
    ["jq -nc '[1.5, 2.5, -1.5] | map(round)'", "[2,3,-2]\n"],
    ["jq -n '5 % 3, -5 % 3, 5.5 % 2'", "2\n-2\n1\n"],
    ["jq --version", "jq-1.8.2\n"],
    ["jq -nr '\"  indented\"'", "  indented\n"],
  ])("%s", async (command, stdout) => {
    expect(await shell.run(command)).toEqual(ok(stdout));
  });

  it("builds a 10,000-key object in one reduce, linearly (F2: just-bash's took past the CPU limit)", async () => {
    expect(await slow.run("jq -n 'reduce range(10000) as $i ({}; .[$i|tostring] = $i) | length'")).toEqual(ok("10000\n"));
  });
});

describe("jq names a folder or file with a trailing slash as the rest of the shell does", () => {
  it("a folder named `/guides/` is a directory, a file named `/index.mdx/` is not one (adversary round 34 F6)", async () => {
    // Before, `/guides/` was "No such file or directory": the host looked the name up with its slash.
    expect(await shell.run("jq -R . /guides/; jq -R . /guides; jq -R . /index.mdx/; jq -R . /guides/a.mdx/.")).toEqual({
      stdout: "",
      stderr:
        "jq: error: Is a directory\njq: error: Is a directory\njq: error: Could not open file /index.mdx/: Not a directory\njq: error: Could not open file /guides/a.mdx/.: Not a directory\n",
      exitCode: 2,
      truncated: false,
    });
  });

  it("refuses --run-tests, which tests jq itself, by name (F5: it failed inside WebAssembly and read as the memory cap)", async () => {
    expect(await shell.run("jq --run-tests < /dev/null; echo $?")).toEqual({ stdout: "2\n", stderr: "jq: --run-tests is not available in the docs shell (it tests jq itself)\n", exitCode: 0, truncated: false });
  });
});

describe("jq's bounds", () => {
  it("stops at its memory cap with exit 134 and says why; the next command runs", async () => {
    const mb = LIMITS.jq.maxMemoryBytes / 1024 / 1024;
    expect(await slow.run("jq -n '\"x\" | until(false; . + .)'; echo next")).toEqual({
      stdout: "next\n",
      stderr: `jq: error: cannot allocate memory\njq: stopped (abort): jq may use at most ${mb} MB of memory in the docs shell; narrow the input or the filter\n`,
      exitCode: 0,
      truncated: false,
    });
  });

  it("a jq that never ends stops at the CPU limit (exit 124) in the process's own thread, and so does the call", async () => {
    // The limit is the call's (issue 25, adversary round 35 F2): once jq's thread has used it, the
    // rest of the line has none left. Before, jq alone stopped and the line went on.
    expect(await slow.run("jq -n 'def f: f; f'; echo status $?")).toEqual({
      stdout: "",
      stderr: cpuLimitMessage(LIMITS.shell.maxCpuMs),
      exitCode: 124,
      truncated: false,
    });
  });

  it("counts jq's thread's CPU toward the call's CPU limit: a call with none left starts no jq (adversary round 35 F2)", async () => {
    // As a call whose earlier jq runs used the limit: each run's CPU in its own thread is added
    // to the call's (before, the CPU limit read only the shell's thread, so a loop of short jq
    // runs spent 9.7 s of the process's CPU under a 5 s limit).
    const cpu = new CallCpu();
    cpu.addHelper(LIMITS.shell.maxCpuMs + 1);
    const run = { args: ["-n", "1"], stdin: new Uint8Array(), files: new Map(), env: {}, cwd: "/", maxMemoryBytes: LIMITS.jq.maxMemoryBytes, maxOutputBytes: 1024, mergeStderr: false };
    const outcome = await runJqInThread(jqModule(), run, undefined, LIMITS.shell.maxCpuMs, cpu);
    expect({ exitCode: outcome.exitCode, stdout: [...outcome.stdout], stderr: [...outcome.stderr], outAt: cpu.outAt }).toEqual({ exitCode: 124, stdout: [], stderr: [], outAt: LIMITS.shell.maxCpuMs });
    // With the limit not reached, the run answers, and its thread's CPU (0 or more) is added.
    const fresh = new CallCpu();
    const answered = await runJqInThread(jqModule(), run, undefined, 3_600_000, fresh);
    expect({ exitCode: answered.exitCode, stdout: new TextDecoder().decode(answered.stdout), outAt: fresh.outAt }).toEqual({ exitCode: 0, stdout: "1\n", outAt: undefined });
  });

  it("a jq given up while its thread starts never runs: the abort came before anyone listened for it (adversary round 37 F1)", async () => {
    // Abandoned calls' runaways each ran to the CPU limit for callers long gone, and under load
    // (a thread's start takes seconds) piled up threads and memory. With an hour's CPU limit, only
    // the abort can end this one: before, the run never answered.
    const run = { args: ["-n", "[limit(100000000; repeat(1))] | length"], stdin: new Uint8Array(), files: new Map(), env: {}, cwd: "/", maxMemoryBytes: LIMITS.jq.maxMemoryBytes, maxOutputBytes: 1024, mergeStderr: false };
    const aborts = [new AbortController(), new AbortController(), new AbortController()];
    // Three at once: at least one thread is new, not one kept idle from an earlier run.
    const given = aborts.map((a) => runJqInThread(jqModule(), run, a.signal, 3_600_000));
    for (const a of aborts) a.abort();
    const outcomes = await Promise.all(given);
    expect(outcomes.map((o) => ({ exitCode: o.exitCode, stdout: [...o.stdout], stderr: [...o.stderr] }))).toEqual(aborts.map(() => ({ exitCode: 1, stdout: [], stderr: [] })));
    const next = await runJqInThread(jqModule(), { ...run, args: ["-n", "1 + 1"] }, undefined, 3_600_000);
    expect({ exitCode: next.exitCode, stdout: new TextDecoder().decode(next.stdout) }).toEqual({ exitCode: 0, stdout: "2\n" });
  });

  it("a jq thread started for a run is charged to its call from its start; a kept thread from its CPU when the run begins (issue 25, bench row (h))", async () => {
    // What each run tells its call's account as it begins (`CallCpu.helperRunning`): the thread
    // and the CPU it had used then, which the call is not charged. A new caller's trial reads
    // the same figures (`ShellWorkerData.helperCpu`): a thread's start (~70-100 ms of CPU, as
    // much as the trial) was not counted, so a flood of runaway jq cost twice a trial each.
    const run = { args: ["-n", "1"], stdin: new Uint8Array(), files: new Map(), env: {}, cwd: "/", maxMemoryBytes: LIMITS.jq.maxMemoryBytes, maxOutputBytes: 1024, mergeStderr: false };
    const began: { tid: number; from: number }[] = [];
    const before = CallCpu.onHelpers;
    CallCpu.onHelpers = (_helpers, tid, from) => {
      if (tid !== 0) began.push({ tid, from });
    };
    try {
      // Three at once: at most two threads are kept idle, so at least one starts for its run.
      const accounts = [new CallCpu(), new CallCpu(), new CallCpu()];
      const outcomes = await Promise.all(accounts.map((cpu) => runJqInThread(jqModule(), run, undefined, 3_600_000, cpu)));
      expect(outcomes.map((o) => new TextDecoder().decode(o.stdout))).toEqual(["1\n", "1\n", "1\n"]);
      expect(new Set(began.map((b) => b.tid)).size).toBe(3);
      // Started for its run: charged from 0, its start included.
      expect(began.filter((b) => b.from === 0).length).toBeGreaterThanOrEqual(1);
      // The next run finds a thread kept idle: charged from what that thread had used, its start
      // and its earlier run, never 0 (read in nanoseconds, a thread that ran is never at 0).
      began.length = 0;
      expect(new TextDecoder().decode((await runJqInThread(jqModule(), run, undefined, 3_600_000, new CallCpu())).stdout)).toBe("1\n");
      expect(began.length).toBe(1);
      expect(began[0]?.from).toBeGreaterThan(0);
    } finally {
      CallCpu.onHelpers = before;
    }
  });

  it("the shipped jq.wasm is the build the host was written for", () => {
    expect(() => checkJqModule(jqModule())).not.toThrow();
  });
});

describe("jq reads the reader's view only", () => {
  it.each([
    ["jq . /etc/passwd", "jq: error: Could not open file /etc/passwd: No such file or directory\n"],
    ["jq -R . /staff.mdx", "jq: error: Could not open file /staff.mdx: No such file or directory\n"],
    ["jq -R . ../../../../../../etc/hostname", "jq: error: Could not open file ../../../../../../etc/hostname: No such file or directory\n"],
    ["jq -n --rawfile s /staff.mdx '$s'", "jq: Bad JSON in --rawfile s /staff.mdx: Could not open /staff.mdx: No such file or directory\n"],
    ["jq -n --slurpfile s /etc/passwd '$s'", "jq: Bad JSON in --slurpfile s /etc/passwd: Could not open /etc/passwd: No such file or directory\n"],
  ])("%s", async (command, stderr) => {
    expect(await shell.run(command)).toMatchObject({ stdout: "", stderr, exitCode: 2 });
  });

  it("reads a page the reader may read, and names it as jq does", async () => {
    expect(await shell.run("jq -rR 'select(. == \"ok\") | \"\\(input_filename): \\(.)\"' /index.mdx")).toEqual(ok("/index.mdx: ok\n"));
    expect(await shell.run("cd / && jq -n --rawfile d index.mdx '$d | length'")).toEqual(ok("24\n"));
  });
});

describe("jq's environment is the shell's", () => {
  it("sees exported shell variables and not the process's environment", async () => {
    process.env.SVC_JQ_TEST_SECRET = "process-secret";
    try {
      expect(await shell.run("export FOO=bar; jq -nc '[env.FOO, $ENV.FOO, env.SVC_JQ_TEST_SECRET]'")).toEqual(ok('["bar","bar",null]\n'));
      expect(await shell.run("jq -nc '$ENV | keys'")).toEqual(ok('["HOME","LC_ALL","OLDPWD","PATH","PWD","TERM"]\n'));
    } finally {
      delete process.env.SVC_JQ_TEST_SECRET;
    }
  });

  it("keeps its error lines in order among its output with 2>&1", async () => {
    expect(await shell.run("jq -n '1, error(\"x\"), 2' 2>&1")).toEqual({ stdout: "1\njq: error (at <unknown>): x\n", stderr: "", exitCode: 5, truncated: false });
  });
});
