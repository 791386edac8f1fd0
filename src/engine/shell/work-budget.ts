import { CallCpu } from "./call-cpu.js";

/** just-bash's `FeatureCoverageWriter` (its type is not exported): told of each step it evaluates. */
interface CoverageWriter {
  hit(feature: string): void;
}

/**
 * What one awk step costs, in steps of jq's size: just-bash's awk awaits a promise per
 * expression and statement, and takes ~10 times as long per step as jq, more than a
 * comparison of `sort` (CPU time, one process: 1 million awk steps 5.4 s, 1 million jq nodes
 * 0.63 s, load average 11); twenty keeps awk's share of the budget as long as the others'.
 */
export const AWK_STEP = 20;

/**
 * What the interpreter's own steps cost, in steps of jq's size: a command it runs (`bash:cmd:`,
 * a loop's every pass runs at least one) and an expansion (`bash:expansion:`, `$((i+1))`). CPU
 * time, the bundle in one process, load average ~2, 2026-12-01: `for i in $(seq 20000); do :;
 * done` ~40 us a pass (a command and a builtin), `while [ $i -lt 20000 ]; do i=$((i+1)); done`
 * ~107 us a pass (two commands, a builtin, five expansions). At 60 and 10 a pass of either costs
 * ~0.6 us of CPU a step, as jq's nodes: the call's budget ends a loop of `:` after ~65,000
 * passes and the arithmetic one after ~23,000 (~2.5 s), before the CPU limit can (issue 25:
 * just-bash's fixed cap of 10,000 commands and passes answered first, and a count no work
 * figure justified).
 *
 * `run`: starting a command that is not a builtin (just-bash's `echo`, `seq`, ours such as
 * `cat`; `bash:run:NAME`, a patch of just-bash-patches.mjs), on top of its `command` step:
 * just-bash builds a revocable copy of the command's context, defence wrappers, a deadline race
 * and a PATH lookup for each. CPU time, `svc-mcp fs` (the bundle, a shell worker), 8,000 passes
 * against one, three runs each, load average 25-34, 2026-12-01: `for i in $(seq 8000); do echo
 * $i | cat; done` 0.87 ms a pass where `:` took ~40 us, ~22 times as much, ~1,340 steps at
 * `:`'s rate; so a run is ~600 steps, and 800 leaves room for a loaded machine. Before (issue
 * 25), a run cost what `:` costs, and such a loop (~130 steps a pass) ended at the 5 s CPU limit
 * after ~6,000 passes, by the machine's speed, with most of its budget unspent; now it ends at
 * the work limit after ~2,300 passes (~2 s), on any machine.
 */
export const BASH_STEP = { command: 60, expansion: 10, run: 800 } as const;

/**
 * What one step of our own commands costs, where a step costs more than a jq node (CPU time,
 * one process, load average 18, 2026-11-30: a jq node ~0.7 µs, a comparison of `sort` ~1.8 µs
 * (`seq 1 200000 | sort -r`), a command of `sed` with the line it reads ~3.9 µs
 * (`seq 1 200000 | sed -n p`)): so each command's share of the budget takes about as long.
 */
export const STEP_COST = {
  sort: 3,
  sed: 5,
  /**
   * One match of sed's `s`, empty or not (CPU time, one process, load average 11, 2026-12-01:
   * `printf '%*s' 2000000 '' | sed 's,x*,-,g'`, two million empty matches, 2.9 s, ~1.45 µs
   * each; `s/ /-/g` over the same 2.1 s): at one step, a pattern space of 4 million characters
   * took more CPU than the call's 5 s limit before its 4 million steps were counted, so the
   * clock ended it where the count should have (issue 25, adversary round 26).
   */
  sedMatch: 2,
} as const;

/**
 * Bytes that make one step: what a command reads (a file's text, its piped input) and what it
 * writes costs one step per 256 bytes, plus one per file or pipe: a little more CPU than a jq
 * node (CPU time, one process, load average 18, 2026-11-30: `rg -il checkout /` over a
 * 50,000-page site, 380 MB, 2.6 s, ~1.8 µs per 256 bytes; a jq node ~0.7 µs), so that a search
 * over a whole large site stays well within the budget.
 * Counted so that a command over the whole site (`cat $(find /)`, `rg x /` in a loop) stops by
 * its work as the loops of awk and jq do, not by a clock.
 */
export const BYTES_PER_STEP = 256;

/** Steps for reading or writing `bytes` bytes at once (`BYTES_PER_STEP`). */
export function stepsForBytes(bytes: number): number {
  return 1 + Math.floor(bytes / BYTES_PER_STEP);
}

/** A coverage writer that can also be charged bulk work at once (the call's `WorkBudget`). */
export interface Chargeable {
  charge(feature: string, steps: number): void;
  /** Steps left before the budget is spent. */
  readonly left: number;
}

/**
 * The call's CPU account behind a command's coverage writer, when the call keeps one: the
 * account itself, not the proxy a command's context gives (`CallCpu.byId`).
 */
export function callCpuOf(coverage: unknown): CallCpu | undefined {
  const id = coverage instanceof WorkBudget ? coverage.cpu?.id : undefined;
  return id === undefined ? undefined : CallCpu.byId(id);
}

/** The call's budget behind a command's coverage writer, when it is one (tests may give none). */
export function chargeableOf(coverage: unknown): Chargeable | undefined {
  return coverage instanceof WorkBudget ? coverage : undefined;
}

/** The steps one hit of `feature` costs (AWK_STEP, BASH_STEP; 1 for the rest). */
function stepsOf(feature: string): number {
  if (feature.startsWith("awk:")) return AWK_STEP;
  if (feature.startsWith("bash:cmd:")) return BASH_STEP.command;
  if (feature.startsWith("bash:expansion:")) return BASH_STEP.expansion;
  if (feature.startsWith("bash:run:")) return BASH_STEP.run;
  return 1;
}

/** How just-bash names a builtin it is about to run, to the coverage writer. */
const BUILTIN = "bash:builtin:";

/**
 * Starting one jq run (issue 25, adversary round 35 F2), on top of the command's `run` step:
 * copying its input, a message to jq's own thread, a fresh WebAssembly instance (16 MB of memory
 * made and later collected, ~1.5 ms) and jq's own start (it compiles its builtins, written in
 * jq, at every start, ~3 ms), none of which any step counted. So a loop of jq calls ended
 * neither by the work limit nor by the CPU limit (which read only the shell's thread): `for i in
 * $(seq 1500); do jq -n 1; done` answered after 9.7 s of the process's CPU, 3,000 passes met the
 * 60 s backstop. CPU time of the whole `svc-mcp fs` process (the bundle, a shell worker), ~5-6 ms
 * a pass of `jq -n 1` beyond `ls /`, load 20-30, 2026-12-02; at `BASH_STEP`'s rate (~0.6 µs a
 * step) that is ~9,000 steps. At 8,000 a call may start ~450 jq runs (`find / -name '*.json'
 * -exec jq ... {} \;` over 400 files; `-exec jq ... {} +` or `jq ... FILES` is one run), the loop
 * ends at the work limit after ~2.7 s of the process's CPU, and the same loop ends at the same
 * pass on any machine; on this one the CPU limit would end it only after ~1,000 passes.
 */
export const JQ_START_STEPS = 8_000;

/** Thrown from inside a command's loop when the call's work budget is spent or it must stop. */
export class WorkStopped extends Error {
  constructor(readonly why: "steps" | "stop") {
    super(why === "steps" ? "work limit of the docs shell reached" : "stopped");
  }
}

/**
 * The work one call may do, counted in steps, and the place where a command in a loop stops.
 *
 * Why: just-bash's `awk` runs its loops as chains of already-resolved promises, and `sort`
 * compares in synchronous code; neither lets the thread's event loop run, so in the process's
 * own thread (`serve --no-shell-worker`; before, `svc-mcp fs` and the preview) neither the call's timer nor
 * the caller's cancellation could stop them (a nested awk loop ran 101 s). just-bash reports
 * every awk expression and statement, every jq node and every sed command it evaluates to the
 * `coverage` writer it is given, and our commands report their own steps (a comparison of
 * `sort`); so this writer sees each step of every command, in every thread.
 *
 * What is decided where: the budget (`maxSteps`) counts work, so the same command line stops
 * at the same step on any machine, with the same output; every `checkEvery` steps `check` is
 * called, which throws when the caller cancelled or the call's time is up (the time limit stays
 * a limit, now also in code that never yields).
 */
export class WorkBudget implements CoverageWriter {
  private steps = 0;
  /** The call's CPU, its commands' own threads included (`call-cpu.ts`), where the shell keeps it. */
  cpu: CallCpu | undefined;
  /** Set once a check threw: the call is over, and no command may take another step. */
  private stopped = false;
  private nextCheck: number;
  /** The command (`awk`, `jq`, `sed`, `sort`...) whose step passed the budget, once one did. */
  exceededBy: string | undefined;
  /**
   * Asked before each builtin the interpreter runs (just-bash tells this writer of each as
   * `bash:builtin:NAME`): false stops the line there (`run-time-texts.ts`: a builtin that would
   * parse text no transform saw).
   */
  mayRunBuiltin: ((name: string) => boolean) | undefined;
  /** The builtin refused by `mayRunBuiltin`, once one was. */
  refusedBuiltin: string | undefined;

  constructor(
    private readonly maxSteps: number,
    private readonly checkEvery: number,
    private readonly check: () => void,
    private readonly onExceeded: () => void = () => {},
  ) {
    this.nextCheck = checkEvery;
  }

  /** One step of work: `feature` is just-bash's name for it (`awk:stmt:for`, `jq:node:Pipe`). */
  hit(feature: string): void {
    if (this.stopped) throw new WorkStopped("stop");
    if (feature.startsWith(BUILTIN) && this.mayRunBuiltin !== undefined && !this.mayRunBuiltin(feature.slice(BUILTIN.length))) {
      this.refusedBuiltin = feature.slice(BUILTIN.length);
      this.stopped = true;
      this.onExceeded();
      throw new WorkStopped("stop");
    }
    this.charge(feature, stepsOf(feature));
  }

  /**
   * `count` steps of work at once (`feature` as in `hit`: `cat:bytes`): bytes a command read or
   * wrote (`stepsForBytes`). Throws as `hit` does.
   */
  charge(feature: string, count: number): void {
    if (this.stopped) throw new WorkStopped("stop");
    const steps = (this.steps += count);
    if (steps > this.maxSteps) {
      if (this.exceededBy === undefined) {
        this.exceededBy = feature.slice(0, Math.max(0, feature.indexOf(":"))) || feature;
        this.onExceeded();
      }
      throw new WorkStopped("steps");
    }
    if (steps >= this.nextCheck) {
      this.nextCheck = steps + this.checkEvery;
      try {
        this.check();
      } catch (error) {
        // Every later step throws too: jq's `limit`, `first` and `try` catch what is not one of
        // just-bash's own limit errors and go on, so one throw might not end the command.
        this.stopped = true;
        throw error;
      }
    }
  }

  /**
   * Steps left before the budget is spent (negative once it is): a regex search is armed with
   * it, so that one search stops inside its engine when its work passes it (RE2_WORK in
   * just-bash-jq-lazy-patches.mjs, regex/linear.ts).
   */
  get left(): number {
    return this.maxSteps - this.steps;
  }

  /** Steps taken so far. */
  get spent(): number {
    return this.steps;
  }
}

/**
 * What a call over its work budget answers last (exit status 124: the call's limit, as the time
 * limit was). `command` is the one whose step passed it; `bash` when just-bash's own command read
 * a file (its filesystem does not say which command reads).
 */
export function workLimitMessage(command: string, maxSteps: number): string {
  const who = command === "bash" ? "" : `${command}: `;
  return `bash: ${who}work limit reached (${maxSteps} steps per call; a limit of the docs shell: do less in one call)\n`;
}
