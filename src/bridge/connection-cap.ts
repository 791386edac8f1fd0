/**
 * The process's bound on open connections, every caller's together (issue 25): past it, one
 * party's connections from many addresses would take every file descriptor the process has, and
 * every other client would go unanswered. The last places are kept: the very last
 * `signedInReserve` for callers seen signed in lately (`SignedInCallers`), and before them
 * `newcomerReserve` for callers holding no connection now, so that while a flood holds the
 * rest a reader with nothing open, and one who signed in, still gets in. Behind `--trust-proxy`
 * (every connection the proxy's) what is counted is requests being answered, by forwarded caller.
 */
export class ConnectionCap {
  private open = 0;

  constructor(
    readonly limit: number,
    readonly newcomerReserve: number,
    readonly signedInReserve: number,
  ) {}

  /** Whether a caller holding `holds` connections (signed in lately or not) may open one more now. */
  admits(holds: number, signedIn: boolean): boolean {
    if (signedIn) return this.open < this.limit;
    if (holds === 0) return this.open < this.limit - this.signedInReserve;
    return this.open < this.limit - this.signedInReserve - this.newcomerReserve;
  }

  /** Count one more open. */
  take(): void {
    this.open++;
  }

  /** Give back one that `take` counted. */
  release(): void {
    this.open = Math.max(0, this.open - 1);
  }

  /** How many are open now. */
  get count(): number {
    return this.open;
  }
}
