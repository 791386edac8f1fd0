import type { Socket } from "node:net";
import type { ShedRank } from "./shed-rank.js";

/** The connection a newcomer would take of these: whose, how it ranks (`ShedRank`), and since when it was quiet. */
export interface IdleCandidate {
  readonly caller: string;
  readonly rank: number;
  readonly since: number;
}

/**
 * Connections holding a place while doing nothing, by caller (an address, an IPv6 /64), the one
 * quiet the longest first; the HTTP server keeps two sets of them.
 *
 * Keep-alive connections between two requests (an answer written whole, no request read since):
 * such a connection holds a place of the process's connections (`ConnectionCap`) for as long as
 * its client sends a request within the keep-alive timeout: 10 addresses holding 64 each and 64
 * more holding one, each sending a GET every 45 s, held every place, reserves too, and a
 * newcomer was answered `503 server_busy` 99 times in 99 (adversary round 52 F2, as round 51 F6
 * with listen streams). A server may close an idle keep-alive connection at any time (RFC 9112
 * section 9.8; clients send again on a new one), so a newcomer finding no place takes the place
 * of one of these (`shedRank` says whose).
 *
 * Connections that have not sent their first request: their request may be on its way, but 704
 * addresses of one network each holding one such connection, opened again as `firstRequestMs`
 * closed it, held every place with no request at all, so no pace or hourly limit was charged
 * (adversary round 53 F1). They are taken only for a newcomer of another network, when the
 * server is full and their network holds at least two more than the newcomer's: at worst a client
 * of a network holding more than its share sends again on a new connection.
 */
export class IdleConnections {
  private readonly byCaller = new Map<string, Map<Socket, number>>();

  /** `socket` is quiet from `since` (an order, not a time): idle until its next request. */
  idle(caller: string, socket: Socket, since: number): void {
    if (socket.destroyed) return;
    let set = this.byCaller.get(caller);
    if (set === undefined) {
      set = new Map();
      this.byCaller.set(caller, set);
    }
    set.set(socket, since);
  }

  /** A request came on `socket`, or it closed: it is not idle. */
  busy(caller: string, socket: Socket): void {
    const set = this.byCaller.get(caller);
    if (set === undefined || !set.delete(socket)) return;
    if (set.size === 0) this.byCaller.delete(caller);
  }

  /** The caller `rank` ranks first (ties to the one whose connection was quiet the longest), if any. */
  candidate(rank: ShedRank): IdleCandidate | undefined {
    let best: IdleCandidate | undefined;
    for (const [caller, set] of this.byCaller) {
      const r = rank(caller);
      if (r === undefined) continue;
      const since = set.values().next().value as number;
      if (best === undefined || r > best.rank || (r === best.rank && since < best.since)) best = { caller, rank: r, since };
    }
    return best;
  }

  /** The longest quiet connection of `caller` (a `candidate`), taken out of these. */
  take(caller: string): Socket | undefined {
    const set = this.byCaller.get(caller);
    if (set === undefined) return undefined;
    const socket = set.keys().next().value as Socket;
    this.busy(caller, socket);
    return socket;
  }
}
