import type { Socket } from "node:net";

/**
 * Keep-alive connections between two requests (an answer written whole, no request read since),
 * by caller (an address, an IPv6 /64), oldest idle first. Such a connection holds a place of the
 * process's connections (`ConnectionCap`) while doing nothing, for as long as its client sends a
 * request within the keep-alive timeout: 10 addresses holding 64 each and 64 more holding one,
 * each sending a GET every 45 s, held every place, reserves too, and a newcomer was answered `503
 * server_busy` 99 times in 99 (adversary round 52 F2, as round 51 F6 with listen streams). A
 * server may close an idle keep-alive connection at any time (RFC 9112 section 9.8; clients
 * send again on a new one), so a newcomer finding no place takes the place of the oldest idle
 * connection of the caller holding the most (`heaviest`). Connections that never had a request
 * are not here: their first request may be on its way, and `firstRequestMs` bounds them.
 */
export class IdleConnections {
  private readonly byCaller = new Map<string, Set<Socket>>();

  /** `socket`'s answer is written whole: it is idle until its next request. */
  idle(caller: string, socket: Socket): void {
    if (socket.destroyed) return;
    let set = this.byCaller.get(caller);
    if (set === undefined) {
      set = new Set();
      this.byCaller.set(caller, set);
    }
    set.add(socket);
  }

  /** A request came on `socket`, or it closed: it is not idle. */
  busy(caller: string, socket: Socket): void {
    const set = this.byCaller.get(caller);
    if (set === undefined || !set.delete(socket)) return;
    if (set.size === 0) this.byCaller.delete(caller);
  }

  /**
   * The oldest idle connection of the caller other than `except` that holds the most connections
   * (`heldBy`), if it holds at least `atLeast` (so that two callers do not just trade places);
   * taken out of the idle ones.
   */
  take(except: string, heldBy: (caller: string) => number, atLeast: number): Socket | undefined {
    let top: string | undefined;
    let most = atLeast - 1;
    for (const caller of this.byCaller.keys()) {
      if (caller === except) continue;
      const holds = heldBy(caller);
      if (holds > most) [top, most] = [caller, holds];
    }
    if (top === undefined) return undefined;
    const set = this.byCaller.get(top) as Set<Socket>;
    const socket = set.values().next().value as Socket;
    this.busy(top, socket);
    return socket;
  }
}
