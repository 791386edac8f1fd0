/**
 * Callers (an address, an IPv6 /64: `callerAddress`) a request of which was signed in lately (a
 * bearer token verified on `/authed/mcp`): they keep the last places of the process's connection
 * bound (`ConnectionCap.signedInReserve`), which is decided when a connection opens, before any
 * request on it is read. A caller stays signed in for `forMs` after its last verified request; the
 * `limit` most recent are remembered (a few dozen bytes each), the oldest let go first.
 */
export class SignedInCallers {
  /** Caller -> when its standing ends; in order of the last verified request, oldest first. */
  private readonly until = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly forMs: number,
    private readonly now: () => number,
  ) {}

  /** A request of `caller` was signed in now. */
  mark(caller: string): void {
    this.until.delete(caller);
    this.until.set(caller, this.now() + this.forMs);
    if (this.until.size > this.limit) this.until.delete(this.until.keys().next().value as string);
  }

  /** Whether `caller` had a request signed in within `forMs`. */
  has(caller: string): boolean {
    const end = this.until.get(caller);
    if (end === undefined) return false;
    if (end > this.now()) return true;
    this.until.delete(caller);
    return false;
  }
}
