/**
 * Every call of the docs shell is bounded: time, output, command length, loops; nothing can be
 * written, nothing reached over the network, no process controlled. Each bound is a result
 * with an exact message and exit code, never an exception.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SHELL_COMMANDS } from "../../src/engine/shell/commands/index.js";
import { DocsShell } from "../../src/engine/shell/docs-shell.js";
import { type Shell, type ShellLimits, cpuLimitMessage } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { workLimitMessage } from "../../src/engine/shell/work-budget.js";
import type { SiteView } from "../../src/vfs/view.js";
import { fixture } from "../helpers/paths.js";

let view: SiteView;
let shell: Shell;

/** A shell over the demo site with some limits made small enough to hit in a test. */
function shellWith(limits: Partial<ShellLimits>): DocsShell {
  return new DocsShell(
    view,
    SHELL_COMMANDS.map((make) => make(view)),
    { ...LIMITS.shell, ...limits },
  );
}

beforeAll(async () => {
  const runtime = await DocsRuntime.load({ root: fixture("demo") });
  view = runtime.readerState(localContext()).view;
  shell = runtime.readerState(localContext()).shell;
});

describe("time", () => {
  it("stops a runaway loop at the deadline with exit 124", async () => {
    const fast = shellWith({ maxExecutionMs: 200, maxCommandCount: 1e9, maxLoopIterations: 1e9 });
    const r = await fast.run("while true; do :; done");
    expect(r).toEqual({ stdout: "", stderr: "bash: execution exceeded execution deadline (200ms)\n", exitCode: 124, truncated: false });
  });

  it("stops our own commands too (they check the deadline between files)", async () => {
    const fast = shellWith({ maxExecutionMs: 200, maxCommandCount: 1e9, maxLoopIterations: 1e9 });
    // How soon after the deadline it stops is measured by `npm run bench -- shell`.
    const r = await fast.run("while true; do rg -c zzzz / > /dev/null; grep -r zzzz / > /dev/null; done");
    expect(r.exitCode).toBe(124);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^bash: (rg|grep|execution) exceeded execution deadline \(200ms\)\n$/);
  });

  it("bounds diff's search as GNU diff does (its cost cut-off), with GNU diff 3.8's answer", async () => {
    // 20,000 numbers against the same sorted as text: Myers' search alone costs lines x
    // differences (a minute for two 100,000-line inputs: adversary, 2026-11-29); past GNU's cost
    // cut-off a split takes its best diagonal so far, and the answer is no longer the minimal
    // one (`diff --minimal` prints 20,995 lines). The hour-long limit leaves only the answer to
    // compare (`seq` past 10,000 iterations needs its limit raised).
    const slow = shellWith({ maxExecutionMs: 3_600_000, maxLoopIterations: 100_000 });
    const r = await slow.run("diff <(seq 1 20000) <(seq 1 20000 | sort) | md5sum; diff <(seq 1 20000) <(seq 1 20000 | sort) | wc -l");
    expect(r).toEqual({ stdout: "e4a537ec223ddde49cb36762449fe405  -\n23811\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("stops loops that run too many commands at the work limit, saying what to do", async () => {
    // Each command a loop runs is a step of the work budget (BASH_STEP): a runaway loop ends there,
    // at the same pass on any machine. An hour's clock and CPU limit: only the count decides.
    const r = await shellWith({ maxSteps: 100_000, maxExecutionMs: 3_600_000, maxCpuMs: 3_600_000 }).run("while true; do :; done");
    expect(r).toEqual({
      stdout: "",
      stderr: "bash: work limit reached (100000 steps per call; a limit of the docs shell: do less in one call)\n",
      exitCode: 124,
      truncated: false,
    });
  });

  it("lets seq and loops run past 10,000 within the work limit, as GNU seq and bash do (issue 25, adversary F3)", async () => {
    // Before, just-bash's fixed caps answered: `seq: iteration limit exceeded (10000)`, `for loop: too
    // many iterations (10000)`, `too many commands executed (>10000)` (exit 126). The outputs are GNU
    // seq 9.1's and bash 5.2's.
    const roomy = shellWith({ maxExecutionMs: 3_600_000, maxCpuMs: 3_600_000 });
    const ok = (stdout: string) => ({ stdout, stderr: "", exitCode: 0, truncated: false });
    expect(await roomy.run("seq 100000 | wc -l")).toEqual(ok("100000\n"));
    expect(await roomy.run("seq 1 50000 | tail -1")).toEqual(ok("50000\n"));
    expect(await roomy.run("seq 20000 | sort -n | tail -1")).toEqual(ok("20000\n"));
    expect(await roomy.run("n=0; for i in $(seq 20000); do n=$((n+1)); done; echo $n $i")).toEqual(ok("20000 20000\n"));
    expect(await roomy.run("i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo $i")).toEqual(ok("20000\n"));
    expect(await roomy.run("for ((i=0; i<20000; i++)); do :; done; echo $i")).toEqual(ok("20000\n"));
    // Runaways still end, by the count: seq's numbers are steps too (a sum that no longer moves
    // would write 16 MB of zeros first).
    const over = (who: string) => ({ stdout: "", stderr: `bash: ${who}work limit reached (4000000 steps per call; a limit of the docs shell: do less in one call)\n`, exitCode: 124, truncated: false });
    expect(await roomy.run("seq 0 1e-300 1 | tail -1")).toEqual(over("seq: "));
    expect(await roomy.run("until false; do :; done")).toEqual(over(""));
  });

  it("stops runaway recursion", async () => {
    const r = await shell.run("f(){ f; }; f");
    expect(r).toEqual({
      stdout: "",
      stderr: "bash: f: maximum recursion depth (100) exceeded (a limit of the docs shell: do less in one call)\n",
      exitCode: 126,
      truncated: false,
    });
  });
});

describe("work (issue 25): every command's loops are counted and checked, in this thread too", () => {
  /** An hour: only the work budget can end these calls. */
  // The clock and the CPU limit out of the way (an hour each): the count alone decides, so a
  // busy machine, on which the same work costs more CPU time, cannot change the answer.
  const budgeted = (maxSteps: number) => shellWith({ maxSteps, maxExecutionMs: 3_600_000, maxCpuMs: 3_600_000, maxLoopIterations: 1e12 });
  const overBudget = (command: string, maxSteps: number) => ({
    stdout: "",
    stderr: `bash: ${command}: work limit reached (${maxSteps} steps per call; a limit of the docs shell: do less in one call)\n`,
    exitCode: 124,
    truncated: false,
  });

  it("stops a runaway awk or sort at the call's work budget, with the same answer on any machine", async () => {
    // jq is not counted: it is the real jq in WebAssembly, and a runaway jq ends at the CPU limit
    // (test/shell/jq-wasm.test.ts; issue 25).
    // Before, a nested awk loop ran until it was done (101 s for 3 million steps), each loop
    // within its own iteration limit; the awk here has 10^24 steps to do.
    const awk = "awk 'BEGIN { print 1; for (i = 0; i < 1e12; i++) for (j = 0; j < 1e12; j++) s += j; print s }'";
    expect(await budgeted(20_000).run(awk)).toEqual(overBudget("awk", 20_000));
    expect(await budgeted(20_000).run(`${awk} | head -1; echo after`)).toEqual(overBudget("awk", 20_000));
    // Any sort of 5,000 lines compares at least 4,999 times.
    expect(await budgeted(12_000).run("seq 1 5000 | sort | tail -1")).toEqual(overBudget("sort", 12_000));
  });

  it("counts what commands read and pipe (256 bytes a step): a command over files stops at the same step on any machine, exit 124", async () => {
    // Before, reading was not counted: `rg` in a loop over the site, or `cat` of every page,
    // ended only at the 5 s clock, so a heavy first command on a busy machine said 124 where a
    // quiet one answered (issue 25).
    const loop = "while true; do rg -c zzzz / > /dev/null; done";
    // (Each pass is also a command and the start of one, BASH_STEP: at this budget the step that passes it is rg's.)
    expect(await budgeted(2_000).run(loop)).toEqual(overBudget("rg", 2_000));
    // (find and cat start and read within it; what wc reads from the pipe passes it.)
    expect(await budgeted(2_700).run("cat $(find / -type f) | wc -c")).toEqual(overBudget("wc", 2_700));
    // just-bash's own commands read through the filesystem, which cannot say which one reads.
    // (The line's commands and expansions and nl's start take the first 960 steps, BASH_STEP; nl's reads the next.)
    expect(await budgeted(965).run("nl /api/overview.mdx /api/overview.mdx /api/overview.mdx | wc -l")).toEqual({
      stdout: "",
      stderr: "bash: work limit reached (965 steps per call; a limit of the docs shell: do less in one call)\n",
      exitCode: 124,
      truncated: false,
    });
  });

  it("charges each start of a command that is not a builtin, so a loop piping into one ends at the work limit, not the CPU limit (issue 25)", async () => {
    // Three passes of `echo | cat`: each start of echo and of cat is BASH_STEP.run (800) besides
    // its command step; the answer at exactly this budget, and one step short the work limit.
    const loop = "for i in $(seq 3); do echo $i | cat; done";
    expect(await budgeted(6_182).run(loop)).toEqual({ stdout: "1\n2\n3\n", stderr: "", exitCode: 0, truncated: false });
    expect(await budgeted(6_181).run(loop)).toEqual(overBudget("cat", 6_181));
    // The loop, at the call's real budget with the clock and CPU limit an hour away: it
    // ends by its count (~2,300 passes, ~2 s of CPU). Before, a start cost what `:` costs, and
    // the loop ran ~6,000 passes into the 5 s CPU limit, a time, with most of its budget unspent.
    const real = shellWith({ maxExecutionMs: 3_600_000, maxCpuMs: 3_600_000 });
    expect(await real.run("for i in $(seq 100000); do echo $i | cat; done | tail -1")).toEqual({
      stdout: "",
      stderr: `bash: work limit reached (${LIMITS.shell.maxSteps} steps per call; a limit of the docs shell: do less in one call)\n`,
      exitCode: 124,
      truncated: false,
    });
  });

  it("charges each start of jq (JQ_START_STEPS), so a loop of jq calls ends at the work limit, not by the CPU it spent (issue 25, adversary round 35 F2)", async () => {
    // Three runs: each is a command, a start (BASH_STEP) and jq's own start (8,000 steps), its
    // input and its output; the answer at exactly this budget, one step short the work limit.
    const loop = "for i in $(seq 3); do jq -n $i; done";
    expect(await budgeted(27_629).run(loop)).toEqual({ stdout: "1\n2\n3\n", stderr: "", exitCode: 0, truncated: false });
    expect(await budgeted(27_628).run(loop)).toEqual(overBudget("jq", 27_628));
    // The finding's loop at the call's real budget, the clock and the CPU limit an hour away: it
    // ends by its count after ~450 runs (~2-3 s of CPU). Before, a jq start cost only its command
    // step and nothing counted its thread's CPU: 1,500 runs answered after 9.7 s of the process's
    // CPU, and 3,000 met the 60 s backstop.
    const real = shellWith({ maxExecutionMs: 3_600_000, maxCpuMs: 3_600_000 });
    expect(await real.run("for i in $(seq 1500); do jq -n 1; done | wc -l")).toEqual({
      stdout: "",
      stderr: `bash: work limit reached (${LIMITS.shell.maxSteps} steps per call; a limit of the docs shell: do less in one call)\n`,
      exitCode: 124,
      truncated: false,
    });
    // A modest loop, as an agent writes one, answers within the real budget.
    expect(await real.run("for f in $(seq 60); do echo \"{\\\"n\\\": $f}\" | jq .n; done | tail -2")).toEqual({ stdout: "59\n60\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("answers a command just within the budget and stops it one step short, whatever the machine's load", async () => {
    // The whole demo site read, sorted and counted costs exactly this many steps: the answer at
    // the budget is decided by the count alone (no clock is read: the limit is an hour).
    const command = "cat $(find / -type f | sort) | sort | uniq -c | sort -rn | head -3";
    const exact = 10_530;
    expect(await budgeted(exact).run(command)).toEqual({ stdout: "     51 \n     16 ---\n      5 ```bash\n", stderr: "", exitCode: 0, truncated: false });
    // The last step is `head`'s output.
    expect(await budgeted(exact - 1).run(command)).toEqual(overBudget("head", exact - 1));
  });

  it("lets the same commands finish within the budget", async () => {
    const shell = budgeted(200_000);
    expect(await shell.run("awk 'BEGIN { for (i = 0; i < 100; i++) for (j = 0; j < 10; j++) s += j; print s }'")).toEqual({ stdout: "4500\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run("seq 1 5000 | sort -rn | head -2")).toEqual({ stdout: "5000\n4999\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run("jq -n '[range(1000)] | length'")).toEqual({ stdout: "1000\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("counts each sed command and each match of s as a step (our sed), with the same answer on any machine", async () => {
    // 2,000 lines, one `p` each: at least 2,000 steps.
    // (seq's 2,000 numbers and the line's commands take ~2,300 steps before sed's.)
    expect(await budgeted(5_000).run("seq 1 2000 | sed -n p | tail -1")).toEqual(overBudget("sed", 5_000));
    // One line, one command, 3,000 matches.
    expect(await budgeted(7_000).run("seq 1 3000 | tr -d '\\n' | sed 's/./x/g' | wc -c")).toEqual(overBudget("sed", 7_000));
    expect(await budgeted(100_000).run("seq 1 2000 | sed -n p | tail -1")).toEqual({ stdout: "2000\n", stderr: "", exitCode: 0, truncated: false });
    // Empty matches too, and the one GNU skips right after a match (issue 25, adversary round 26): each
    // costs an exec, two steps (STEP_COST.sedMatch). Before, 3,000 empty matches took 3,000 steps and
    // the 3,000 skipped ones none, so both answered within 5,000; over millions the clock ended them.
    expect(await budgeted(5_000).run("printf '%*s' 3000 '' | sed 's/x*/-/g' | wc -c")).toEqual(overBudget("sed", 5_000));
    expect(await budgeted(5_000).run("printf 'xa%.0s' {1..1500} | sed 's/x*/-/g' | wc -c")).toEqual(overBudget("sed", 5_000));
    expect(await budgeted(20_000).run("printf 'xa%.0s' {1..1500} | sed 's/x*/-/g' | wc -c")).toEqual({ stdout: "3001\n", stderr: "", exitCode: 0, truncated: false });
  });

  it.each([
    // A line of 3,000 spaces: 3,001 empty matches (gsub, gensub), or 3,000 empty matches that
    // separate nothing (split, a regex FS), each a search.
    ["gsub", "printf '%*s' 3000 '' | awk '{ print gsub(/x*/, \"-\") }'"],
    ["gensub", "printf '%*s' 3000 '' | awk '{ print length(gensub(/x*/, \"-\", \"g\")) }'"],
    ["split", "printf '%*s' 3000 '' | awk '{ print split($0, q, /x*/) }'"],
    ["FS", "printf '%*s' 3000 '' | awk -F'x*' '{ print NF }'"],
    // `a[^z]*z|a` reads the rest of the line at each match: 100 a's, ~5,000 characters read.
    ["sub's loop rereading", "printf 'a%.0s' {1..100} | awk '{ print gsub(/a[^z]*z|a/, \"-\") }'"],
    // One search that reads 3,000 characters, three times (~, a /re/ expression), or once (match).
    ["~", "printf 'a%.0s' {1..3000} | awk '{ for (i = 0; i < 3; i++) n += $0 ~ /a[^z]*z|a/; print n }'"],
    ["match", "printf 'a%.0s' {1..3000} | awk '{ print match($0, /a[^z]*z|a/), RLENGTH }'"],
  ])("counts each search of awk's regexes and what it reads (%s), as sed's s and jq's match are counted", async (_, command) => {
    // Before (issue 25), none was a step: each of these answered within 5,000 steps (exit 0),
    // and over millions of characters the CPU limit ended them, not the count. Now a search is
    // two steps and each character it reads two more (just-bash-awk-regex-patches.mjs).
    expect(await budgeted(5_000).run(command)).toEqual(overBudget("awk", 5_000));
  });

  it("answers awk's regex functions as before within the budget", async () => {
    const command =
      "printf 'xa%.0s' {1..50} | awk '{ s = $0; n = gsub(/x*/, \"-\"); print n, length($0), match(s, /a+x/), RLENGTH, split(s, q, /a/), length(gensub(/a/, \"b\", \"g\", s)), s ~ /ax$/ }'";
    expect(await budgeted(20_000).run(command)).toEqual({ stdout: "51 101 2 2 51 100 0\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("ends a sed loop that reads no input by a count of its commands, not by the clock: the same answer on any machine", async () => {
    // Each step of these is cheap: before, they ran until the time limit (exit 124 after 5 s,
    // millions of steps; the work budget, 200 million, is far above that), so the output and the
    // answer depended on the machine. 100,000 commands without reading a line (the figure the
    // shell gives just-bash's own sed, which ours replaced) ends them, with exit 4.
    const loop = "sed: ran 100000 commands without reading a line, a loop that does not end (a limit of the docs shell: a loop in the script must read input or stop sooner)\n";
    expect(await shell.run("echo x | sed ':a;s/x/x/;ta'")).toEqual({ stdout: "", stderr: loop, exitCode: 4, truncated: false });
    expect(await shell.run("echo x | sed -n ':a;p;ba' | wc -l")).toEqual({ stdout: "33333\n", stderr: loop, exitCode: 0, truncated: false });
    // A loop that reads a line at each turn is bounded by its input: with the bound at 10,000
    // commands, 4,000 lines joined run 12,000.
    const small = shellWith({ maxAwkSedIterations: 10_000 });
    const lines = "(seq 1 1000; seq 1 1000; seq 1 1000; seq 1 1000)";
    expect(await small.run(`${lines} | sed ':a;N;$!ba;s/\\n/+/g' | tr -cd + | wc -c`)).toEqual({ stdout: "3999\n", stderr: "", exitCode: 0, truncated: false });
    expect(await small.run("echo x | sed ':a;ba'")).toEqual({ stdout: "", stderr: loop.replace("100000", "10000"), exitCode: 4, truncated: false });
    expect(await shell.run("printf 'a b c\\n' | sed ':a;s/ //;ta'")).toEqual({ stdout: "abc\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("bounds sed's pattern and hold space (16 MiB of characters), whatever the script: a doubling s, G and H in a loop", async () => {
    // The adversary's: the pattern space doubles at each step, so thirty steps make a gigabyte
    // (22 s and 1.8 GB in this thread before, no answer); it stops once it would pass the bound.
    const space = (which: string) => `sed: ${which} space would pass 16777216 characters (a limit of the docs shell: sed holds at most that much; work on less text at once)\n`;
    // A doubling s whose pattern has a repeat without bound searches a pattern space past 1,000
    // characters on the linear-time engine (regex/long-line.ts), which counts what it reads: its
    // ~16 million characters read end at the work limit first, for the whole call (the G and H
    // loops below still meet the bound).
    const work = { stdout: "", stderr: workLimitMessage("sed", LIMITS.shell.maxSteps), exitCode: 124, truncated: false };
    // The count and the bound decide, the clock and the CPU limit an hour away: these lines take
    // seconds of CPU, and on a busy machine (load 30-40, issue 25) the 60 s wall-clock backstop
    // answered some of them first.
    const shell = shellWith({ maxExecutionMs: 3_600_000, maxCpuMs: 3_600_000 });
    expect(await shell.run("echo x | sed ':a;s/x*/&&/;ta'")).toEqual(work);
    expect(await shell.run("echo x | sed ':a;s/x*/&&/;ta' | wc -c")).toEqual(work);
    // One s that makes 38,894 characters 500 times as many, in one step.
    expect(await shell.run(`seq 1 10000 | tr -d '\\n' | sed 's/.*/${"&".repeat(500)}/'`)).toEqual({ stdout: "", stderr: space("pattern"), exitCode: 4, truncated: false });
    expect(await shell.run("echo x | sed ':a;G;h;ba'")).toEqual({ stdout: "", stderr: space("pattern"), exitCode: 4, truncated: false });
    expect(await shell.run("echo x | sed -n ':a;H;g;ba'")).toEqual({ stdout: "", stderr: space("hold"), exitCode: 4, truncated: false });
  });

  it("stops an awk loop at the time limit in this thread (svc-mcp fs, --no-shell-worker): the loop checks the clock as it counts", async () => {
    // just-bash's awk never lets this thread's event loop run, so the call's timer could not
    // fire: before, a loop ran to its end and only then said 124 (2 million iterations: 207 s at
    // load 11); this one (10^24 steps, no work budget) never ended. The suite's hang detector
    // would see that hang: the answer is the same however fast the machine.
    const fast = shellWith({ maxExecutionMs: 200, maxSteps: 1e15, maxLoopIterations: 1e12 });
    const r = await fast.run("awk 'BEGIN { for (i = 0; i < 1e12; i++) for (j = 0; j < 1e12; j++) s += j; print s }'");
    expect(r).toEqual({ stdout: "", stderr: "bash: execution exceeded execution deadline (200ms)\n", exitCode: 124, truncated: false });
  });
});

describe("CPU in this thread (svc-mcp fs, serve --no-shell-worker)", () => {
  it("stops a call at its CPU limit, as a shell worker's host does: the same message and exit 124", async () => {
    // Issue 25: these modes had no CPU backstop, only the 60 s wall clock (a jq flatten of a
    // 2^27 tree ran 16.7 s of CPU and 1.7 GB). The loop never ends by itself (no work budget,
    // an hour of time): the thread's CPU ends it, whatever the machine's load. The suite's
    // hang detector only sees a hang.
    const cpu = shellWith({ maxCpuMs: 300, maxExecutionMs: 3_600_000, maxSteps: 1e15, maxLoopIterations: 1e12 });
    const r = await cpu.run("awk 'BEGIN { for (i = 0; i < 1e12; i++) for (j = 0; j < 1e12; j++) s += j; print s }'");
    expect(r).toEqual({ stdout: "", stderr: cpuLimitMessage(300), exitCode: 124, truncated: false });
  });

  it("answers jq's flatten and JSON text as jq does (the work limit no longer sees inside jq: a runaway jq ends at the CPU limit, test/shell/jq-wasm.test.ts)", async () => {
    expect(await shell.run("jq -nc '[1, [2, [3, [4]]]] | flatten, flatten(1), flatten(0)'")).toEqual({ stdout: "[1,2,3,4]\n[1,2,[3,[4]]]\n[1,[2,[3,[4]]]]\n", stderr: "", exitCode: 0, truncated: false });
    const text = '"[1,[2,{\\"a\\":null,\\"b\\":\\"x\\\\\\"y\\"}],true,1.5]"';
    expect(await shell.run(`jq -nc '[1, [2, {"a": null, "b": "x\\"y"}], true, 1.5] | tojson, tostring, @json, @text, "v=\\(.)"'; jq -n 'null | @text, tojson'`)).toEqual({
      stdout: `${text}\n${text}\n${text}\n${text}\n"v=${text.slice(1)}\n"null"\n"null"\n`,
      stderr: "",
      exitCode: 0,
      truncated: false,
    });
  });
});

describe("regexes that backtrack", () => {
  it("answers a catastrophic pattern on the linear-time engine, as the real tools do, whatever the machine's load", async () => {
    const input = `printf '${"a".repeat(40)}!\\n'`;
    // Each answer is GNU grep's, sed's and ripgrep's on the same input (a backtracking engine
    // would run for hours on these: 2^40 ways to split the a's).
    for (const [command, stdout, exitCode] of [
      [`${input} | rg -c '(a+)+$'`, "", 1],
      [`${input} | grep -Ec '(a+)+$'`, "0\n", 1],
      [`${input} | sed -n '/\\(a\\+\\)\\+$/p'`, "", 0],
      // Alternatives that match the same text, under a repeat: each repetition may take either.
      [`${input} | rg -c '(\\w|\\w)+#'`, "", 1],
      [`${input} | grep -Ec '(a|a)*$'`, "1\n", 0],
      [`${input} | sed -n 's/\\(a\\|a\\)*$/x/p'`, `${"a".repeat(40)}!x\n`, 0],
      // find -regex tests whole paths; a nested repeat backtracks on every path it does not match.
      ["find / -regex '\\(.*\\)*%'", "", 0],
      ["find / -regextype posix-extended -iregex '(.|.)*%'", "", 0],
    ] as const) {
      expect([command, await shell.run(command)]).toEqual([command, { stdout, stderr: "", exitCode, truncated: false }]);
    }
  });

  it("runs a risky pattern the linear-time engine cannot (a backreference, -w's look-arounds) on the counted machine, with GNU grep's answers", async () => {
    // Refused before (issue 25, adversary round 29 F2): see test/shell/counted-regex.test.ts.
    expect(await shell.run("printf 'aa\\n' | grep -Ec '(a+)+\\1$'; printf 'aa\\n' | grep -wEc '(a|a)*$'")).toEqual({ stdout: "1\n1\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("decides by the pattern, never by time: the issue's rg -c '\\w+@\\w+' and find -regex '.*e\\{2\\}.*'", async () => {
    expect(await shell.run("printf 'mail ann@example.com\\nnone\\nbob@x.io\\n' | rg -c '\\w+@\\w+'")).toEqual({ stdout: "2\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run("find /guides -regex '.*e\\{2\\}.*'")).toEqual({ stdout: "", stderr: "", exitCode: 0, truncated: false });
    // In find's default (emacs) syntax \{2\} is literal, as GNU find reads it; in POSIX basic, a count.
    expect(await shell.run("find / -regextype posix-basic -regex '.*o\\{2\\}.*'")).toEqual({ stdout: "/guides/webhooks.mdx\n", stderr: "", exitCode: 0, truncated: false });
  });

  it("runs such a pattern normally when it is fast on the data", async () => {
    expect(await shell.run("printf 'xaxb\\naaa\\n' | rg -c '(a+)+$'")).toEqual({ stdout: "1\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run("rg -c '.*Signed.*access.*object' /index.mdx")).toEqual({ stdout: "1\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run("printf 'abab\\nxc\\n' | grep -Ec '(a|ab)*c'")).toEqual({ stdout: "1\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run("find /guides -regex '\\(/[a-z]*\\)*\\.mdx'")).toEqual({
      stdout: "/guides/webhooks.mdx\n",
      stderr: "",
      exitCode: 0,
      truncated: false,
    });
  });

  it("matches globs with many stars in linear time (as a regex, each star tries every split)", async () => {
    const glob = "*?*?*?*?*?*?*?*?*?*?*?*?z";
    expect(await shell.run(`find / -name '${glob}'; find / -path '${glob}'; ls /guides | grep -c .`)).toEqual({ stdout: "3\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run(`rg -l -g '${glob}' Webhook /; echo $?`)).toEqual({ stdout: "1\n", stderr: "", exitCode: 0, truncated: false });
    expect(await shell.run(`grep -rl --include='${glob}' Webhook /; tree -P '${glob}' /guides`)).toEqual({ stdout: "/guides\n\n0 directories, 0 files\n", stderr: "", exitCode: 0, truncated: false });
    // Same answer as GNU find on the fixture's files.
    expect(await shell.run("find /guides -name '*?*?*?*?*?*s*' | sort")).toEqual({
      stdout: "/guides\n/guides/access-control.mdx\n/guides/uploading-files.mdx\n/guides/webhooks.mdx\n",
      stderr: "",
      exitCode: 0,
      truncated: false,
    });
  });
});

describe("output", () => {
  it("cuts output at the cap, at a line end, with a note saying how to narrow", async () => {
    const small = shellWith({ maxOutputBytes: 300 });
    const text = readFileSync(join(fixture("demo"), "guides", "webhooks.mdx"), "utf8");
    const r = await small.run("cat /guides/webhooks.mdx");
    const kept = text.slice(0, text.lastIndexOf("\n", 300) + 1);
    expect(r.truncated).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      `${kept}[output truncated: showed ${Buffer.byteLength(kept)} of ${Buffer.byteLength(text)} bytes. ` +
        "Narrow the command: pipe into `head -n 100`, search first (`rg -l PATTERN /`), " +
        "read one section (`sed -n '/^## Setup/,/^## /p' FILE`) or fewer files per call]\n",
    );
  });

  it("says it was the error output that was cut when stderr ran over the cap", async () => {
    const small = shellWith({ maxOutputBytes: 300 });
    const name = "x".repeat(3_000);
    const r = await small.run(`cat /guides/${name}`);
    const full = `cat: /guides/${name}: No such file or directory\n`;
    expect(r).toEqual({
      stdout:
        `[output truncated: showed ${LIMITS.shell.maxStderrBytesWhenTruncated} of ${Buffer.byteLength(full)} bytes of its error output. ` +
        "Narrow the command: pipe into `head -n 100`, search first (`rg -l PATTERN /`), " +
        "read one section (`sed -n '/^## Setup/,/^## /p' FILE`) or fewer files per call]\n",
      stderr: full.slice(0, LIMITS.shell.maxStderrBytesWhenTruncated),
      exitCode: 1,
      truncated: true,
    });
  });

  it("keeps a pipeline's full intermediate output: only what is shown is capped", async () => {
    const small = shellWith({ maxOutputBytes: 300 });
    const r = await small.run("cat /guides/*.mdx /api/*.mdx /index.mdx /quickstart.mdx | wc -l");
    const total = ["guides/access-control.mdx", "guides/uploading-files.mdx", "guides/webhooks.mdx", "api/authentication.mdx", "api/overview.mdx", "index.mdx", "quickstart.mdx"]
      .map((f) => readFileSync(join(fixture("demo"), f), "utf8").split("\n").length - 1)
      .reduce((a, b) => a + b, 0);
    expect(r).toEqual({ stdout: `${total}\n`, stderr: "", exitCode: 0, truncated: false });
  });

  it("stops a command producing more than the internal budget (memory bound for pipelines)", async () => {
    const tiny = shellWith({ maxInternalOutputBytes: 1_000 });
    const message = "bash: pipeline: total output size exceeded (>1000 bytes) (a limit of the docs shell: do less in one call)\n";
    expect(await tiny.run("rg -n . /guides")).toEqual({ stdout: "", stderr: message, exitCode: 126, truncated: false });
    expect(await tiny.run("cat /guides/*.mdx /guides/*.mdx | wc -c")).toEqual({ stdout: "", stderr: message, exitCode: 126, truncated: false });
  });
});

describe("command length", () => {
  it("refuses a command longer than the limit", async () => {
    const r = await shell.run(`echo ${"x".repeat(LIMITS.shell.maxCommandLength)}`);
    expect(r).toEqual({ stdout: "", stderr: `bash: command too long (over ${LIMITS.shell.maxCommandLength} bytes)\n`, exitCode: 2, truncated: false });
  });
});

describe("no writes", () => {
  const cases: ReadonlyArray<[string, string, number]> = [
    ["echo hi > /notes.txt", "bash: /notes.txt: Read-only file system\n", 1],
    ["echo hi >> /index.mdx", "bash: /index.mdx: Read-only file system\n", 1],
    ["touch /a.mdx", "touch: cannot touch '/a.mdx': Read-only file system\n", 1],
    ["mkdir /new /guides", "mkdir: cannot create directory '/new': Read-only file system\nmkdir: cannot create directory '/guides': File exists\n", 1],
    ["rm /index.mdx", "rm: cannot remove '/index.mdx': Read-only file system\n", 1],
    ["rm -rf /", "rm: cannot remove '/': Read-only file system\n", 1],
    ["rm /guides", "rm: cannot remove '/guides': Is a directory\n", 1],
    ["rmdir /guides", "rmdir: failed to remove '/guides': Read-only file system\n", 1],
    ["cp /index.mdx /copy.mdx", "cp: cannot create regular file '/copy.mdx': Read-only file system\n", 1],
    ["mv /index.mdx /moved.mdx", "mv: cannot move '/index.mdx' to '/moved.mdx': Read-only file system\n", 1],
    ["ln -s /index.mdx /link", "ln: failed to create symbolic link '/link': Read-only file system\n", 1],
    ["chmod 777 /index.mdx", "chmod: changing permissions of '/index.mdx': Read-only file system\n", 1],
    ["sed -i 's/a/b/' /index.mdx", "sed: couldn't edit /index.mdx: Read-only file system\n", 4],
    ["sed 'w /out.txt' /index.mdx", "sed: couldn't open file /out.txt: Read-only file system\n", 4],
    ["sort -o /sorted.txt /index.mdx", "sort: open failed: /sorted.txt: Read-only file system\n", 2],
    ["split -l 2 /index.mdx", "split: cannot open 'xaa' for writing: Read-only file system\n", 1],
    ["find /guides -name webhooks.mdx -delete", "find: cannot delete \u2018/guides/webhooks.mdx\u2019: Read-only file system\n", 1],
  ];
  for (const [command, stderr, exitCode] of cases) {
    it(command, async () => {
      const r = await shell.run(command);
      expect(r).toEqual({ stdout: "", stderr, exitCode, truncated: false });
    });
  }

  it("tee still copies its input to stdout", async () => {
    const r = await shell.run("echo hi | tee /t.txt");
    expect(r).toEqual({ stdout: "hi\n", stderr: "tee: /t.txt: Read-only file system\n", exitCode: 1, truncated: false });
  });

  it("changes nothing", async () => {
    expect((await shell.run("ls -R /")).stdout).toBe(
      "/:\napi\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n\n/api:\nauthentication.mdx\noverview.mdx\n\n/guides:\naccess-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n",
    );
  });

  it("reports a redirection it cannot open as bash does, and the command line goes on", async () => {
    expect(
      await shell.run("echo a; echo b > /out.txt; echo s=$?; f=/x; ls > \"$f.txt\"; echo t=$?; for i in 1; do echo $i; done > /guides; echo b > /nope/o; g=/dev/null; echo c > $g; echo end"),
    ).toEqual({
      stdout: "a\ns=1\nt=1\nend\n",
      stderr:
        "bash: /out.txt: Read-only file system\nbash: /x.txt: Read-only file system\nbash: /guides: Is a directory\nbash: /nope/o: No such file or directory\n",
      exitCode: 0,
      truncated: false,
    });
  });

  it.each([
    ["cat < /index.mdx/.", "bash: /index.mdx/.: Not a directory\n"],
    ["wc -l < /index.mdx/", "bash: /index.mdx/: Not a directory\n"],
    ["cat 0< /index.mdx/..", "bash: /index.mdx/..: Not a directory\n"],
    ["cat <> /index.mdx/.", "bash: /index.mdx/.: Not a directory\n"],
    ["exec 3< /index.mdx/.", "bash: /index.mdx/.: Not a directory\n"],
    ["cat < /nope.mdx", "bash: /nope.mdx: No such file or directory\n"],
  ])("names an input redirect from a path through a file Not a directory, as bash 5.2 does (%s; issue 25)", async (command, stderr) => {
    // bash -c 'CMD' over a disk copy (bash 5.2.15): these lines, exit 1. (bash names the line,
    // `bash: line 1: ...`, when such a command is not the last of its -c string; ours never does,
    // for any redirect error.) just-bash said "No such file or directory" for each.
    expect(await shell.run(command)).toEqual({ stdout: "", stderr, exitCode: 1, truncated: false });
  });

  it("lets /dev/null swallow output", async () => {
    expect(await shell.run("cat /nope 2>/dev/null; echo done > /dev/null; echo ok")).toEqual({ stdout: "ok\n", stderr: "", exitCode: 0, truncated: false });
  });
});

describe("no network, no processes", () => {
  for (const name of ["curl https://example.com", "wget https://example.com", "sleep 1", "kill 1", "timeout 1 ls", "jobs", "bg", "fg", "nohup ls", "python3 -c 1", "node -e 1", "sqlite3 x.db"]) {
    it(name, async () => {
      const command = name.split(" ")[0] as string;
      const r = await shell.run(name);
      expect(r.exitCode).toBe(127);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(new RegExp(`^bash: ${command}: command not`));
    });
  }

  it("runs `&` in the foreground (there is no job control)", async () => {
    expect(await shell.run("ls /api & wait")).toEqual({ stdout: "authentication.mdx\noverview.mdx\n", stderr: "", exitCode: 0, truncated: false });
  });
});

describe("never an exception", () => {
  const odd = ["echo $((1/0))", "echo ${x:?unset}", "exec 3>/x", "if then fi", "(((", 'echo "unterminated', "\u0000"];
  for (const command of odd) {
    it(JSON.stringify(command), async () => {
      const r = await shell.run(command);
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).not.toBe("");
    });
  }
});
