import { placesNetwork } from "./places-network.js";
import type { PlaceCounts } from "./shed-rank.js";

/**
 * What each caller (an address, an IPv6 /64: `callerAddress`) holds of the server's sockets at
 * once, counted up to a bound: the connections it opened, or, behind a trusted proxy (where every
 * connection is the proxy's), its requests being answered, each of which holds one of the
 * proxy's connections to us. A caller at its bound is refused further ones, so one address cannot
 * hold every file descriptor the process has. What each network (`placesNetwork`) holds is
 * counted too, for whose place a newcomer takes when there is none (`shedRank`).
 */
export class CallerConnections implements PlaceCounts {
  private readonly held = new Map<string, number>();
  private readonly byNetwork = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Count one more for `caller`; false (nothing counted) when it holds `limit` already. */
  take(caller: string): boolean {
    const mine = this.held.get(caller) ?? 0;
    if (mine >= this.limit) return false;
    this.held.set(caller, mine + 1);
    const network = placesNetwork(caller);
    this.byNetwork.set(network, (this.byNetwork.get(network) ?? 0) + 1);
    return true;
  }

  /** Give back one that `take` counted. */
  release(caller: string): void {
    const had = this.held.get(caller);
    if (had === undefined) return;
    if (had <= 1) this.held.delete(caller);
    else this.held.set(caller, had - 1);
    const network = placesNetwork(caller);
    const ours = (this.byNetwork.get(network) ?? 1) - 1;
    if (ours <= 0) this.byNetwork.delete(network);
    else this.byNetwork.set(network, ours);
  }

  /** What `caller` holds now. */
  heldBy(caller: string): number {
    return this.held.get(caller) ?? 0;
  }

  /** What the callers of `network` (`placesNetwork`) hold now, together. */
  heldByNetwork(network: string): number {
    return this.byNetwork.get(network) ?? 0;
  }
}
