import { type Command, type ResolvedCommandContext, bytesOutput, latin1FromBytes, unsafeBytesFromLatin1 } from "just-bash";
import { LIMITS } from "../../../limits.js";
import type { SiteView } from "../../../vfs/view.js";
import { MERGE_STDERR_ENV } from "../merge-stderr.js";
import { OptionError } from "./options.js";
import { guardRegex } from "../regex/guard.js";
import { searchBudget } from "../regex/search-budget.js";
import { chargedView } from "../charged-view.js";
import { chargeableOf, stepsForBytes } from "../work-budget.js";
import { latin1FromText, textFromBytes } from "./byte-text.js";

/** Output of one command, with a byte budget so a runaway listing stops early. */
export class Output {
  private readonly chunks: string[] = [];
  private readonly errChunks: string[] = [];
  private size = 0;
  private errSize = 0;
  /** Set once stdout passed the internal budget; commands stop producing. */
  full = false;

  /** `mergeErrors`: stderr goes where stdout goes (`2>&1`), so errors are written in order among the output. */
  /** `bytes`: stdout holds one character per byte, so merged error lines are written as their UTF-8 bytes. */
  constructor(
    private readonly budget: number,
    readonly mergeErrors = false,
    readonly bytes = false,
  ) {}

  /** Append to stdout; returns false once the budget is spent. */
  write(s: string): boolean {
    if (this.full) return false;
    this.chunks.push(s);
    // UTF-16 length approximates bytes closely enough for a safety budget.
    this.size += s.length;
    if (this.size > this.budget) this.full = true;
    return !this.full;
  }

  error(s: string): void {
    if (this.mergeErrors) {
      this.write(this.bytes ? latin1FromText(s) : s);
      return;
    }
    // Bounded as stdout is: `sed 's/^/x/w /dev/stderr'` in a loop writes without end there.
    if (this.errSize > this.budget) return;
    this.errSize += s.length;
    this.errChunks.push(s);
  }

  get stdout(): string {
    return this.chunks.join("");
  }

  get stderr(): string {
    return this.errChunks.join("");
  }

  /** True once anything was written to stdout. */
  get wroteAny(): boolean {
    return this.chunks.length > 0;
  }
}

/** What a docs command runs with: its view, output, stdin, cwd and the shell's budget. */
export class CommandIo {
  readonly out: Output;
  /** The reader's view; reading a file's contents through it is charged to the call's work budget. */
  readonly view: SiteView;

  constructor(
    readonly name: string,
    view: SiteView,
    readonly ctx: ResolvedCommandContext,
    writesBytes = false,
  ) {
    this.out = new Output(Math.min(ctx.limits.maxOutputSize, LIMITS.shell.maxInternalOutputBytes), ctx.env.get(MERGE_STDERR_ENV) === "1", writesBytes);
    this.stepName = `${name}:step`;
    const budget = chargeableOf(ctx.coverage);
    this.view = budget === undefined ? view : chargedView(view, budget, name);
  }

  /**
   * Charge the call's work budget for `bytes` bytes this command took in or gave out
   * (`stepsForBytes`): what flows through a pipe is work as a file's contents are.
   */
  chargeBytes(what: "stdin" | "stdout", bytes: number): void {
    chargeableOf(this.ctx.coverage)?.charge(`${this.name}:${what}`, stepsForBytes(bytes));
  }

  get cwd(): string {
    return this.ctx.cwd;
  }

  /** Texts of the `<(cmd)` arguments (`/dev/fd/63`...), read before the command runs. */
  readonly piped = new Map<string, string>();

  private stdinText: string | undefined;

  /** Piped input as text (`textFromBytes`: a byte that is not UTF-8 is kept as its surrogate; native where the input is UTF-8). */
  stdin(): string {
    this.stdinText ??= textFromBytes(Buffer.from(latin1FromBytes(this.ctx.stdin), "latin1"));
    return this.stdinText;
  }

  /** Piped input as the bytes written to the pipe (`od`, `xxd`: a byte that is not UTF-8 stays itself). */
  stdinBytes(): Buffer {
    return Buffer.from(latin1FromBytes(this.ctx.stdin), "latin1");
  }

  /** True when something was piped in (an empty pipe is indistinguishable from none). */
  get hasStdin(): boolean {
    return this.stdin() !== "";
  }

  /** This command's name for one step of its work (`sort:step`). */
  private readonly stepName: string;

  /**
   * One step of work (a comparison of `sort`), of `cost` steps of jq's size (`STEP_COST`): counted against the call's work budget, which
   * every so often also checks the time limit and the caller's cancellation (`work-budget.ts`).
   * For loops that never await, where neither a timer nor a cancellation could stop them.
   */
  step(cost = 1): void {
    if (cost === 1) this.ctx.coverage?.hit(this.stepName);
    else chargeableOf(this.ctx.coverage)?.charge(this.stepName, cost);
  }

  /** Stop here if the call's time is up (just-bash reports it as exit 124). */
  checkTime(): void {
    this.ctx.executionScope?.throwIfAborted(this.name);
  }

  /** Milliseconds left of the call's time budget. */
  remainingMs(): number {
    return this.ctx.executionScope?.remainingTimeMs() ?? LIMITS.shell.maxExecutionMs;
  }

  /**
   * The regex grep and rg search lines with (`guardRegex`: a pattern that can backtrack badly
   * runs on the linear-time engine, and so does one with an unbounded repeat on a long line), or
   * undefined when it is refused; the command has then reported why.
   */
  safeRegex(regex: RegExp): RegExp | undefined {
    // grep's and rg's matches never run across a line end (regex/classes.ts).
    const guarded = guardRegex(regex, "lines");
    if (guarded instanceof RegExp) return guarded;
    this.fail(guarded.refused);
    return undefined;
  }

  /** `name: message` on stderr. */
  fail(message: string): void {
    this.out.error(`${this.name}: ${message}\n`);
  }
}

export interface DocsCommandSpec {
  readonly name: string;
  /** `--help` text. */
  readonly help: string;
  /** Runs the command; returns the exit code. Option mistakes may be thrown as `OptionError`. */
  readonly run: (args: string[], io: CommandIo) => number | Promise<number>;
  /** GNU's `Usage:` line printed after an option mistake (grep has one; ls does not). */
  readonly usage?: string;
  /** Exit code for an option mistake (2 for grep, ls and sort; 1 for cat, head, wc). */
  readonly usageExitCode?: number;
  /** How an option mistake is reported, when not GNU getopt's way (ripgrep's clap). */
  readonly usageError?: (error: OptionError, io: CommandIo, args: readonly string[]) => number;
  /**
   * The command writes bytes, one character per byte (code 0-255), rather than text: GNU's
   * byte-wise tools (`fold`, `tac`) may cut a UTF-8 character in two, and so must we.
   */
  readonly writesBytes?: boolean;
}

/** Turn a spec into a just-bash command bound to one reader's view. */
export function docsCommand(view: SiteView, spec: DocsCommandSpec): Command {
  return {
    name: spec.name,
    async execute(args, ctx) {
      const io = new CommandIo(spec.name, view, ctx, spec.writesBytes === true);
      io.chargeBytes("stdin", latin1FromBytes(ctx.stdin).length);
      for (const a of args) {
        const m = /\/dev\/fd\/\d+$/.exec(a);
        if (m === null || io.piped.has(m[0])) continue;
        try {
          io.piped.set(m[0], await ctx.fs.readFile(m[0]));
        } catch {
          // not a live process substitution: the command reports the missing file itself
        }
      }
      let exitCode: number;
      if (args.includes("--help") && !args.slice(0, args.indexOf("--help")).includes("--")) {
        io.out.write(spec.help);
        exitCode = 0;
      } else {
        try {
          // A search on the linear-time engine is charged to the call's budget, as this command's.
          const budget = chargeableOf(ctx.coverage);
          exitCode = budget === undefined ? await spec.run(args, io) : await searchBudget.run({ budget, feature: `${spec.name}:regex`, carry: 0 }, () => spec.run(args, io));
        } catch (error) {
          if (!(error instanceof OptionError)) throw error;
          exitCode = spec.usageError
            ? spec.usageError(error, io, args)
            : gnuUsageError(error, io, spec.usageExitCode ?? 2, spec.usage);
        }
      }
      if (io.out.full) {
        io.fail(`output stopped after ${LIMITS.shell.maxInternalOutputBytes} bytes (limit); narrow the command`);
        if (exitCode === 0) exitCode = 2;
      }
      // Hand just-bash bytes, encoded natively (`latin1FromText`; an escaped byte is its byte again):
      // its own text-to-bytes step for pipes concatenated one character per byte in JS and dominated
      // `rg ... | wc -l` on large outputs.
      const latin1 = spec.writesBytes === true ? io.out.stdout : latin1FromText(io.out.stdout);
      io.chargeBytes("stdout", latin1.length);
      const bytes = unsafeBytesFromLatin1(latin1);
      return { ...bytesOutput(bytes), stderr: io.out.stderr, exitCode };
    },
  };
}

/** GNU's report of an option mistake: the getopt message and a pointer to `--help`. */
export function gnuUsageError(error: OptionError, io: CommandIo, exitCode: number, usage?: string): number {
  io.fail(error.formatGnu());
  if (usage !== undefined) io.out.error(`Usage: ${usage}\n`);
  io.out.error(`Try '${io.name} --help' for more information.\n`);
  return exitCode;
}
