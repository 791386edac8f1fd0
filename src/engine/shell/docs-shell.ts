import { Bash, type CommandName, type CustomCommand, InMemoryFs, type ScriptNode, type TransformPlugin, getCommandNames } from "just-bash";
import { LIMITS } from "../../limits.js";
import type { SiteView } from "../../vfs/view.js";
import { shownText } from "./lib/byte-text.js";
import { braceRangePlugin, refusedRangeCommand } from "./brace-ranges.js";
import { chargedView } from "./charged-view.js";
import { dirGlobPlugin } from "./dir-globs.js";
import { interruptibleController } from "./interruptible-signal.js";
import { PathSuggester } from "./did-you-mean.js";
import { mergeStderrPlugin } from "./merge-stderr.js";
import { type Shell, type ShellLimits, type ShellResult, type ShellStop, cpuLimitMessage, timeLimitMessage } from "./shell.js";
import { RunTimeTexts, checkEvalCommand, checkedCompgenCommand, stoppedBuiltinMessage, refusedBuiltinCommand, runTimeTextPlugin } from "./run-time-texts.js";
import { refusedWriteCommand, writeRedirectPlugin } from "./write-redirects.js";
import { CallCpu } from "./call-cpu.js";
import { WorkBudget, WorkStopped, workLimitMessage } from "./work-budget.js";

/**
 * just-bash built-ins we leave out: they write, reach the network, run code, or wait. Writes
 * that remain possible (`>`, `cp`, `rm`, ...) fail against the read-only view with EROFS.
 */
const EXCLUDED: ReadonlySet<string> = new Set([
  "sqlite3", // opens databases and writes them
  "html-to-markdown", // network companion of curl
  "sleep", // nothing in a docs filesystem to wait for
  "timeout",
  "gzip",
  "gunzip",
  "zcat",
  "tar", // archives: write-oriented and costly
  "history",
  "clear",
  "alias",
  "unalias",
]);

/** The built-in commands the docs shell offers (ours override same-named ones). */
export function builtinCommandNames(): CommandName[] {
  return getCommandNames().filter((n) => !EXCLUDED.has(n)) as CommandName[];
}

/**
 * The interpreter of one call: just-bash over the reader's view with our commands, the
 * refused writes and our command-line transforms, within `limits`.
 */
export function createDocsBash(view: SiteView, commands: readonly CustomCommand[], limits: ShellLimits, budget?: WorkBudget, texts = new RunTimeTexts()): Bash {
  // One list for the command line and for every text `eval` is about to parse (`run-time-texts.ts`).
  const plugins: TransformPlugin[] = [runTimeTextPlugin, braceRangePlugin, writeRedirectPlugin, dirGlobPlugin, mergeStderrPlugin(new Set(commands.map((c) => c.name)))];
  const transform = (ast: ScriptNode): ScriptNode => plugins.reduce((tree, plugin) => plugin.transform({ ast: tree, metadata: {} }).ast, ast);
  const bash = new Bash({
    // Reads by just-bash's own commands (`nl`, `tac`, `comm`...) are charged to the call's work
    // budget as ours are (`charged-view.ts`); ours read through their own `CommandIo`.
    fs: budget === undefined ? view : chargedView(view, budget, "bash"),
    cwd: "/",
    env: { HOME: "/", PATH: "/usr/bin:/bin", LC_ALL: "C.UTF-8", TERM: "dumb" },
    commands: builtinCommandNames(),
    customCommands: [...commands, refusedWriteCommand(view), refusedRangeCommand, refusedBuiltinCommand, checkEvalCommand(transform, texts), checkedCompgenCommand(texts)],
    // Keep just-bash's defence-in-depth on: our filesystem is our own implementation, so the
    // mode's restrictions on host globals cost us nothing.
    defenseInDepth: true,
    // just-bash reports each step of awk, jq and sed (and our commands theirs) to this writer:
    // the call's work budget, and where a loop checks the clock and the caller.
    ...(budget === undefined ? {} : { coverage: budget }),
    executionLimits: {
      maxCommandCount: limits.maxCommandCount,
      maxLoopIterations: limits.maxLoopIterations,
      maxAwkIterations: limits.maxAwkSedIterations,
      maxSedIterations: limits.maxAwkSedIterations,
      maxExecutionTimeMs: limits.maxExecutionMs,
      maxOutputSize: limits.maxInternalOutputBytes,
      maxSourceBytes: limits.maxCommandLength,
      maxBraceExpansionResults: limits.maxBraceRangeWords,
    },
  });
  for (const plugin of plugins) bash.registerTransformPlugin(plugin);
  return bash;
}

/**
 * Given a coverage writer (our work budget), just-bash imports a module of its own the first time
 * a lazily loaded command (`awk`, `jq`, `sort`...) runs, and its defence-in-depth refuses that
 * import inside a command line (`security violation: Module._load is blocked`). So it is
 * imported once beforehand, by an interpreter without the defence that runs `seq 0` over an
 * empty filesystem: nothing of a caller's runs there. A shell worker does it before it says it is
 * ready, so that no command's time (or a cancellation's grace) pays for it.
 */
let coverageModule: Promise<unknown> | undefined;
export function loadCoverageModule(): Promise<unknown> {
  coverageModule ??= new Bash({ fs: new InMemoryFs(), defenseInDepth: false, coverage: { hit: () => {} } }).exec("seq 0");
  return coverageModule;
}

/**
 * A read-only shell over one reader's view. Every call runs in a fresh interpreter: just-bash
 * keeps state between `exec` calls on one `Bash` (shell options from `shopt`, the `hash`
 * table, `readonly` and exported names, and whatever a later version adds), and one reader's
 * shell serves every client that reads as that reader. A new `Bash` per call closes the whole
 * class instead of resetting the fields known today; it costs ~0.05 ms of a ~1 ms `ls /`
 * (docs/shell.md, "Isolation"). Never throws for a user's command: every failure is a result.
 */
export class DocsShell implements Shell {
  private readonly suggester: PathSuggester;

  constructor(
    readonly view: SiteView,
    private readonly commands: readonly CustomCommand[],
    private readonly limits: ShellLimits = LIMITS.shell,
    /**
     * Whether commands in loops also check the time limit as they count their steps. In the
     * process's own thread nothing else can stop them; a shell worker leaves the time to its host,
     * which ends the worker 500 ms past the limit (`ShellHost`), so it passes false.
     */
    private readonly clockInLoops = true,
  ) {
    this.suggester = new PathSuggester(view);
  }

  /** Run one command line at `/`. */
  async run(command: string, _caller?: string, signal?: AbortSignal): Promise<ShellResult> {
    return (await this.runStopped(command, signal)).result;
  }

  /**
   * Run one command line, and say what stopped it, if anything did (`ShellStop`): the shell
   * worker passes that to its host beside the result, which decides by it whether to keep the
   * worker, never by the text on stderr, which a command may print itself (issue 25).
   */
  async runStopped(command: string, signal?: AbortSignal): Promise<Outcome> {
    const { result, stop } = await this.execute(command, signal);
    if (result.exitCode === 0) return { result, stop };
    const hint = this.suggester.hintFor(result.stderr, result.stdout);
    return { result: hint === undefined ? result : { ...result, hint }, stop };
  }

  private async execute(command: string, cancel: AbortSignal | undefined): Promise<Outcome> {
    const limits = this.limits;
    if (Buffer.byteLength(command) > limits.maxCommandLength) {
      return finish("", `bash: command too long (over ${limits.maxCommandLength} bytes)\n`, 2, limits);
    }
    // The caller's cancellation stops the command like the time limit: where it awaits (the
    // event), and wherever the interpreter checks `aborted` (read through, so that a signal
    // aborted without an event, as the shell worker's is, stops synchronous code too).
    await loadCoverageModule();
    const controller = interruptibleController(() => cancel?.aborted === true);
    // Set when the call's clock ran out while the line awaited (jq in its own thread, issue 25):
    // the interpreter then says only `execution aborted`, which is no reason.
    let clockRanOut = false;
    const timer = setTimeout(() => {
      clockRanOut = true;
      controller.abort();
    }, limits.maxExecutionMs);
    const onCancel = (): void => controller.abort();
    cancel?.addEventListener("abort", onCancel, { once: true });
    const signal = controller.signal;
    const deadline = Date.now() + limits.maxExecutionMs;
    // Set when a command's loop found the time up (just-bash's own checks say so themselves).
    let timedOut = false;
    // In this thread, its CPU time since the call began, with what jq's thread used for the
    // call, read as the work counts (no more than every `cpuPollMs`: a /proc read costs
    // microseconds); a shell worker's host reads the worker's thread, and jq checks the call's
    // whole account as it runs (`CallCpu`, `jq-in-thread.ts`).
    const cpu = new CallCpu(() => controller.abort(), limits.maxCpuMs);
    let cpuOut = false;
    let nextCpuRead = 0;
    const budget = new WorkBudget(
      limits.maxSteps,
      limits.stepsBetweenChecks,
      () => {
        if (this.clockInLoops && !signal.aborted) {
          const now = Date.now();
          if (now >= deadline) {
            timedOut = true;
            controller.abort();
          } else if (now >= nextCpuRead) {
            nextCpuRead = now + LIMITS.shellWorker.cpuPollMs;
            if (cpu.used() > limits.maxCpuMs) {
              cpuOut = true;
              controller.abort();
            }
          }
        }
        if (signal.aborted) throw new WorkStopped("stop");
      },
      () => controller.abort(),
    );
    budget.cpu = cpu;
    const texts = new RunTimeTexts();
    budget.mayRunBuiltin = (name) => texts.mayRun(name);
    try {
      const r = await createDocsBash(this.view, this.commands, limits, budget, texts).exec(command, { cwd: "/", signal });
      if (cancel?.aborted === true) return finish(r.stdout, `${r.stderr}bash: cancelled by the client\n`, 130, limits, "cancel");
      if (budget.refusedBuiltin !== undefined) return finish(r.stdout, `${withoutAbortLine(r.stderr)}${stoppedBuiltinMessage(budget.refusedBuiltin)}`, 126, limits);
      if (budget.exceededBy !== undefined) {
        // The call's limit (issue 25): exit 124, as `timeout` and the clock before it, at the
        // same step on any machine.
        return finish(r.stdout, `${withoutAbortLine(r.stderr)}${workLimitMessage(budget.exceededBy, limits.maxSteps)}`, 124, limits, "work-limit");
      }
      if (cpuOut) return finish(r.stdout, `${withoutAbortLine(r.stderr)}${cpuLimitMessage(limits.maxCpuMs)}`, 124, limits, "cpu-limit");
      if (cpu.outAt !== undefined) return finish(r.stdout, `${withoutAbortLine(r.stderr)}${cpuLimitMessage(cpu.outAt)}`, 124, limits, "cpu-limit");
      if (timedOut) {
        const message = `bash: execution exceeded execution deadline (${limits.maxExecutionMs}ms)\n`;
        return finish(r.stdout, `${withoutAbortLine(r.stderr)}${message}`, 124, limits, "deadline");
      }
      if (clockRanOut && /^bash: execution aborted\n/m.test(r.stderr)) {
        return finish(r.stdout, `${withoutAbortLine(r.stderr)}${timeLimitMessage(limits.maxExecutionMs)}`, 124, limits, "clock");
      }
      // just-bash's runner of a command in a thread of its own (jq) keeps the call's deadline too
      // and may notice it first: the call's clock all the same, said as the clock says it (under
      // two CPU hogs its line won the race: `bash: jq exceeded its execution deadline`).
      if (r.exitCode === 124 && RUNNER_DEADLINE.test(r.stderr)) {
        return finish(r.stdout, `${withoutAbortLine(r.stderr).replace(RUNNER_DEADLINE, "")}${timeLimitMessage(limits.maxExecutionMs)}`, 124, limits, "clock");
      }
      if (controller.signal.aborted && r.exitCode !== 124) {
        return finish(r.stdout, `${r.stderr}${timeLimitMessage(limits.maxExecutionMs)}`, 124, limits, "clock");
      }
      // The clock ran out and the line still ended by itself (its own exit status): it may have
      // left work running past the abort all the same, as a stop by the clock does.
      return finish(r.stdout, r.stderr, r.exitCode, limits, clockRanOut ? "clock" : undefined);
    } catch (error) {
      // A builtin refused at run time stops the line by a throw the interpreter passes on.
      if (budget.refusedBuiltin !== undefined) return finish("", stoppedBuiltinMessage(budget.refusedBuiltin), 126, limits);
      // A read charged past the budget inside just-bash's filesystem calls throws out of the line.
      if (budget.exceededBy !== undefined) return finish("", workLimitMessage(budget.exceededBy, limits.maxSteps), 124, limits, "work-limit");
      // A stop thrown where the interpreter does not catch it (a command's start, charged by a
      // patch) says the same reason as one the interpreter passed on: the fresh clone under load
      // got `bash: stopped`, exit 1, for a loop past its deadline.
      if (cancel?.aborted === true) return finish("", "bash: cancelled by the client\n", 130, limits, "cancel");
      if (cpuOut) return finish("", cpuLimitMessage(limits.maxCpuMs), 124, limits, "cpu-limit");
      if (cpu.outAt !== undefined) return finish("", cpuLimitMessage(cpu.outAt), 124, limits, "cpu-limit");
      if (timedOut) return finish("", `bash: execution exceeded execution deadline (${limits.maxExecutionMs}ms)\n`, 124, limits, "deadline");
      if (signal.aborted) return finish("", timeLimitMessage(limits.maxExecutionMs), 124, limits, "clock");
      // just-bash throws for some failures (a redirect into the read-only filesystem, limits).
      return finish("", `bash: ${describeThrown(error)}\n`, 1, limits);
    } finally {
      cpu.close();
      clearTimeout(timer);
      cancel?.removeEventListener("abort", onCancel);
    }
  }
}

/** What just-bash's runner of a threaded command (jq) says when the call's deadline passes while it runs. */
const RUNNER_DEADLINE = /^bash: \S+ exceeded its execution deadline\n/m;

/** The line stops where the budget ran out or the time was up: the interpreter then says `execution aborted`, which is no reason. */
function withoutAbortLine(stderr: string): string {
  return stderr.replace(/^bash: execution aborted\n/m, "");
}

function describeThrown(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const erofs = /^EROFS: read-only file system, \w+ '([^']*)'/.exec(message);
  if (erofs !== null) return `${erofs[1]}: Read-only file system`;
  return message.split("\n")[0] ?? message;
}

/**
 * just-bash words limit errors for its embedder (`..., increase executionLimits.maxCommandCount`);
 * an agent cannot change limits, so say what it can do instead.
 */
function explainLimits(stderr: string): string {
  return stderr.replace(/, increase executionLimits\.\w+$/gm, " (a limit of the docs shell: do less in one call)");
}

/** Apply the output cap: stderr keeps its first bytes, stdout the rest, with a note saying what was cut and how to narrow. */
/** A command line's result, and what stopped it, if anything did. */
export interface Outcome {
  readonly result: ShellResult;
  readonly stop: ShellStop | undefined;
}

function finish(rawStdout: string, rawStderr: string, exitCode: number, limits: ShellLimits, stop?: ShellStop): Outcome {
  return { result: cut(rawStdout, rawStderr, exitCode, limits), stop };
}

function cut(rawStdout: string, rawStderr: string, exitCode: number, limits: ShellLimits): ShellResult {
  // Here, and only here, escaped bytes become U+FFFD: stdout and stderr alike (byte-text.ts).
  const stdout = shownText(rawStdout);
  const stderr = explainLimits(shownText(rawStderr));
  const cap = limits.maxOutputBytes;
  const outBytes = Buffer.byteLength(stdout);
  const errBytes = Buffer.byteLength(stderr);
  if (outBytes + errBytes <= cap) return { stdout, stderr, exitCode, truncated: false };
  const keptErr = truncateBytes(stderr, Math.min(errBytes, LIMITS.shell.maxStderrBytesWhenTruncated));
  const keptOut = truncateBytes(stdout, cap - Buffer.byteLength(keptErr));
  const shown = Buffer.byteLength(keptOut);
  const shownErr = Buffer.byteLength(keptErr);
  // Say which stream was cut: a note about stdout alone read "showed 0 of 0 bytes" when a command's
  // error output was what ran over (adversary round 16 F6).
  const cuts = [
    ...(shown < outBytes ? [`showed ${shown} of ${outBytes} bytes`] : []),
    ...(shownErr < errBytes ? [`showed ${shownErr} of ${errBytes} bytes of its error output`] : []),
  ];
  const note =
    `${keptOut === "" || keptOut.endsWith("\n") ? "" : "\n"}[output truncated: ${cuts.join("; ")}. Narrow the command: pipe into \`head -n 100\`, ` +
    "search first (`rg -l PATTERN /`), read one section (`sed -n '/^## Setup/,/^## /p' FILE`) or fewer files per call]\n";
  return { stdout: keptOut + note, stderr: keptErr, exitCode, truncated: true };
}

/** Cut a string to at most `max` UTF-8 bytes, at a line boundary when one is near. */
function truncateBytes(s: string, max: number): string {
  if (Buffer.byteLength(s) <= max) return s;
  let cut = Buffer.from(s).subarray(0, Math.max(0, max)).toString("utf8");
  if (cut.endsWith("\uFFFD")) cut = cut.slice(0, -1);
  const nl = cut.lastIndexOf("\n");
  return nl > cut.length * 0.8 ? cut.slice(0, nl + 1) : cut;
}
