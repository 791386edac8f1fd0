import { placesNetwork } from "./places-network.js";

/** What callers hold, and their networks (`placesNetwork`): connections, or listen streams. */
export interface PlaceCounts {
  heldBy(caller: string): number;
  heldByNetwork(network: string): number;
}

/** How much rather a caller's place is taken for a newcomer, higher first; undefined: never this caller's. */
export type ShedRank = (caller: string) => number | undefined;

/** Above any one caller's count, so that a network's count ranks first. */
const NETWORK_WEIGHT = 2 ** 20;

/**
 * Whose place a newcomer `newcomer` finding none may take. Places are shared out by network
 * first, then by caller within a network:
 * - a caller of another network, when that network holds at least two more than the newcomer's
 *   (so that after the trade the newcomer's network still holds no more than it): 704 addresses
 *   of one network holding one connection each held every place, and none held two more than a
 *   newcomer (adversary round 53 F1);
 * - a caller of the newcomer's own network holding at least two more than the newcomer (the rule
 *   before networks were counted, so that two callers do not just trade places); never the
 *   newcomer's own, and none of its network when `ownNetworkToo` is false.
 * Of those, the heaviest caller of the heaviest network ranks first. A lone reader is never
 * shed for a network holding as much as its own or more: a flood's own reconnects took a reader's
 * second connection before.
 */
export function shedRank(newcomer: string, counts: PlaceCounts, ownNetworkToo = true): ShedRank {
  const network = placesNetwork(newcomer);
  const mine = counts.heldBy(newcomer);
  const ours = counts.heldByNetwork(network);
  return (caller) => {
    if (caller === newcomer) return undefined;
    const theirNetwork = placesNetwork(caller);
    const theirs = counts.heldByNetwork(theirNetwork);
    const holds = counts.heldBy(caller);
    if (theirNetwork === network ? !ownNetworkToo || holds < mine + 2 : theirs < ours + 2) return undefined;
    return theirs * NETWORK_WEIGHT + holds;
  };
}
