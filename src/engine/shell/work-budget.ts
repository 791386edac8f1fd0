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

/** How just-bash names a builtin it is about to run, to the coverage writer. */
const BUILTIN = "bash:builtin:";

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
 * own thread (`svc-mcp fs`, `serve --no-shell-worker`, the preview) neither the call's timer nor
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
    const steps = (this.steps += feature.startsWith("awk:") ? AWK_STEP : 1);
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

  /** Steps taken so far. */
  get spent(): number {
    return this.steps;
  }
}

/** What a call over its work budget answers last (exit status 126, as the shell's other limits). */
export function workLimitMessage(command: string, maxSteps: number): string {
  return `bash: ${command}: work limit reached (${maxSteps} steps per call; a limit of the docs shell: do less in one call)\n`;
}
