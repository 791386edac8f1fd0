/** How the shell pool treats a caller's next command, from what the caller's commands did before. */
export type Standing =
  /** `trustAnswers` commands of theirs ended with their answers, and none has held a worker for long since: may take any free worker. */
  | "trusted"
  /** Fewer answers than that (never seen, forgotten, or only a few): may not take the last workers kept for trusted callers. */
  | "new"
  /** A command of theirs held a worker for long, lately: may not take the workers kept for callers with nothing running. */
  | "heavy";

export interface StandingOptions {
  /** Callers remembered in each standing (the least recently marked go first). */
  readonly capacity: number;
  /** Answered commands (none held long since) that make a caller trusted (`LIMITS.shellWorker.trustAnswers`). */
  readonly trustAnswers: number;
  /** How long a caller stays heavy after its last long hold. */
  readonly heavyForMs: number;
  /** Milliseconds; tests move it by hand. */
  readonly now: () => number;
  /** The network a caller belongs to (`callerNetwork`), whose callers a long hold marks too. */
  readonly networkOf?: (caller: string) => string | undefined;
}

/**
 * What the shell pool remembers of its callers. A caller is heavy once a command of theirs ran
 * to its time limit, or they gave up a command while it ran (the bench's abandoned runaways);
 * trusted once `trustAnswers` commands of theirs ended with their answers (and no long hold
 * since); new otherwise. The pool gives each standing its own share of the workers
 * (`FairQueue`): callers whose commands answer keep workers that new and heavy callers cannot
 * all take (issue 25: fresh addresses, as many as the pool has workers, each sending its first
 * runaway, held every worker).
 *
 * Trust is counted in answers, not granted by one (adversary round 54 F3): with one, 300 fresh
 * addresses each sending `ls /` became 300 trusted callers, each free to take any worker, and
 * six at a time each sent one runaway from an address not used before; the pool was held for
 * (addresses / pool size) time limits, and a trusted reader's `cat` waited 10-30 s. A caller
 * with fewer answers is new: together such callers leave the trusted callers' worker free,
 * whatever each did before, so a reader whose record is longer keeps it. An identity so
 * prepared costs `trustAnswers` answered commands, not one.
 *
 * Standing is decided by what happened (an answer, a limit reached, a call given up), never by
 * how long something took, so a busy machine decides the same. Heaviness wears off
 * `heavyForMs` after the caller's last long hold: a policy about time passing (an address
 * behind which someone once ran a runaway is not marked for good), read from `now`; after it the
 * caller is new until `trustAnswers` commands of theirs answer again.
 *
 * A long hold also marks the caller's network (`networkOf`: an IPv4 /24, an IPv6 /48): a caller
 * of it not trusted is heavy until that wears off, and so is one counted on the way to trust
 * before the mark (round 54 F3: trust was read before the mark, so addresses warmed before the
 * first runaway stayed trusted). Else one party with a /48 (65,536 /64s, each a caller) or many
 * addresses of one /24 sends each runaway from an address it has not used, each one new: all
 * the workers held for a time limit, wave after wave. A neighbour with `trustAnswers` answers
 * keeps its trust; a new one loses only the reserved workers, not the rest. Loopback has no
 * network (`callerNetwork`); there the count alone bounds such callers.
 */
export class CallerStanding {
  /** Heavy callers: when each was last marked (oldest first). */
  private readonly heavySince = new Map<string, number>();
  /** Callers with commands answered since their last long hold: how many (least recently answered first), up to `trustAnswers`. */
  private readonly answers = new Map<string, number>();
  /** Networks with a heavy caller: when one was last marked (oldest first). */
  private readonly heavyNetworks = new Map<string, number>();

  constructor(private readonly options: StandingOptions) {}

  of(caller: string): Standing {
    if (this.marked(this.heavySince, caller)) return "heavy";
    if ((this.answers.get(caller) ?? 0) >= this.options.trustAnswers) return "trusted";
    const network = this.options.networkOf?.(caller);
    return network !== undefined && this.marked(this.heavyNetworks, network) ? "heavy" : "new";
  }

  /** Whether `key` was marked within `heavyForMs` (a mark older than that is forgotten). */
  private marked(marks: Map<string, number>, key: string): boolean {
    const since = marks.get(key);
    if (since === undefined) return false;
    if (this.options.now() - since < this.options.heavyForMs) return true;
    marks.delete(key);
    return false;
  }

  /** A command of `caller` held a worker for long (it reached its limit, or was given up while it ran). */
  heldLong(caller: string): void {
    this.answers.delete(caller);
    this.heavySince.delete(caller);
    this.heavySince.set(caller, this.options.now());
    trim(this.heavySince, this.options.capacity);
    const network = this.options.networkOf?.(caller);
    if (network !== undefined) {
      this.heavyNetworks.delete(network);
      this.heavyNetworks.set(network, this.options.now());
      trim(this.heavyNetworks, this.options.capacity);
    }
  }

  /**
   * A command of `caller` ended with its answer: counted toward trust. A heavy caller stays
   * heavy until that wears off, and its answers meanwhile count for nothing. True when it was
   * counted (the caller was not yet trusted), so other pools count it too.
   */
  answered(caller: string): boolean {
    if (this.of(caller) === "heavy") return false;
    const count = this.answers.get(caller) ?? 0;
    this.answers.delete(caller);
    this.answers.set(caller, Math.min(count + 1, this.options.trustAnswers));
    trim(this.answers, this.options.capacity);
    return count < this.options.trustAnswers;
  }
}

/** Forget the least recently marked past `capacity`. */
function trim(marked: Map<string, number>, capacity: number): void {
  while (marked.size > capacity) marked.delete(marked.keys().next().value as string);
}
