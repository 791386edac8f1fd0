/**
 * What each caller (an address, an IPv6 /64: `callerAddress`) holds of the server's sockets at
 * once, counted up to a bound: the connections it opened, or, behind a trusted proxy (where every
 * connection is the proxy's), its requests being answered, each of which holds one of the
 * proxy's connections to us. A caller at its bound is refused further ones, so one address cannot
 * hold every file descriptor the process has.
 */
export class CallerConnections {
  private readonly held = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Count one more for `caller`; false (nothing counted) when it holds `limit` already. */
  take(caller: string): boolean {
    const mine = this.held.get(caller) ?? 0;
    if (mine >= this.limit) return false;
    this.held.set(caller, mine + 1);
    return true;
  }

  /** Give back one that `take` counted. */
  release(caller: string): void {
    const mine = (this.held.get(caller) ?? 1) - 1;
    if (mine <= 0) this.held.delete(caller);
    else this.held.set(caller, mine);
  }

  /** What `caller` holds now. */
  heldBy(caller: string): number {
    return this.held.get(caller) ?? 0;
  }
}
