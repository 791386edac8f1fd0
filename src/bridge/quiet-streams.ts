import type { ServerResponse } from "node:http";
import { placesNetwork } from "./places-network.js";
import { type PlaceCounts, type ShedRank, shedRank } from "./shed-rank.js";

/** A stream's place in `QuietStreams`: attached once the stream opened, removed when it ends. */
export interface QuietSlot {
  /** The stream opened: `end` closes it from our side (gracefully), `res` is its answer on the socket (absent in-process). */
  attach(res: ServerResponse | undefined, end: () => void): void;
  /** The stream ended (or never opened): its place is free. */
  remove(): void;
}

interface Entry extends QuietSlot {
  readonly caller: string;
  /** Order of admission: the oldest goes first. */
  readonly seq: number;
  res: ServerResponse | undefined;
  end: (() => void) | undefined;
  /** Shed before it opened: ended as soon as it attaches. */
  shed: boolean;
}

/**
 * The long-lived notification streams of this process (2026-07-28 `subscriptions/listen`), by
 * caller (an address, an IPv6 /64: `callerAddress`, as the connection bounds count), oldest
 * first. Each holds a connection place for as long as its client likes, quiet (a keep-alive
 * comment every 15 s), so without this a flood of them from many addresses held every place
 * of `ConnectionCap`, the reserves too, and every newcomer was refused for good (adversary round
 * 51 F6). Two rules, each sharing out by network first, then by caller (`shedRank`):
 * - at most `limit` streams at once (half the connections): one more takes the place of the
 *   oldest stream of the heaviest caller of another network holding at least two more streams
 *   than the newcomer's network, or else of a caller of its own network holding at least two
 *   more than the newcomer's caller, and is refused otherwise. Never its own caller's oldest: a
 *   team of two or three behind one address, one stream shed by a flood of single streams from
 *   383 addresses, listened again (as the graceful close tells), shed its own other stream, which
 *   listened again in turn: 16-29 listens a second for good, each member holding a stream 40-54%
 *   of the time, and the churn spent the address's request pace, so all its calls were refused
 *   (adversary round 52 F1). By network too: 384 addresses of one network holding one stream each
 *   would otherwise hold every stream place for good (as connections did: adversary round 53 F1);
 * - a connection the HTTP server would refuse for want of places takes the place of the oldest
 *   stream of the caller its connections' rank puts first (`candidate`, `shedOldest`).
 * So a caller holding one stream (an editor) is never the one shed while another of its network
 * holds more, nor for a network holding as many, and a flood, whatever its addresses, gives way
 * to newcomers one stream at a time.
 */
export class QuietStreams {
  private readonly byCaller = new Map<string, Set<Entry>>();
  private readonly byNetwork = new Map<string, number>();
  /** Streams held per caller and per network, as `shedRank` reads them. */
  private readonly counts: PlaceCounts = {
    heldBy: (caller) => this.byCaller.get(caller)?.size ?? 0,
    heldByNetwork: (network) => this.byNetwork.get(network) ?? 0,
  };
  private count = 0;
  private seq = 0;
  /** Gives a shed stream's connection place back at once and closes its connection (set by the HTTP server). */
  private givePlaceBack: (res: ServerResponse) => void = () => {};

  constructor(private limit: number) {}

  /** The bound and the connection hook of the HTTP server that serves these streams (`listen`). */
  serveWith(limit: number, givePlaceBack: (res: ServerResponse) => void): void {
    this.limit = limit;
    this.givePlaceBack = givePlaceBack;
  }

  get bound(): number {
    return this.limit;
  }

  /** A place for one more stream of `caller`, another's shed if need be; undefined when refused. */
  admit(caller: string): QuietSlot | undefined {
    if (this.count >= this.limit) {
      const top = this.candidate(shedRank(caller, this.counts));
      if (top === undefined) return undefined;
      this.shedOldest(top.caller);
    }
    return this.add(caller);
  }

  /**
   * The caller holding a stream that `rank` ranks first, ties to the one whose oldest stream is
   * oldest, if any: a connection finding no place may take its oldest stream's (`shedOldest`).
   */
  candidate(rank: ShedRank): { readonly caller: string; readonly rank: number } | undefined {
    let best: { caller: string; rank: number; seq: number } | undefined;
    for (const [caller, set] of this.byCaller) {
      const r = rank(caller);
      if (r === undefined) continue;
      const seq = oldest(set).seq;
      if (best === undefined || r > best.rank || (r === best.rank && seq < best.seq)) best = { caller, rank: r, seq };
    }
    return best;
  }

  /** Shed `caller`'s oldest stream: its place is given back (for a newcomer) as it closes. */
  shedOldest(caller: string): void {
    const set = this.byCaller.get(caller);
    if (set !== undefined) this.shed(oldest(set));
  }

  /** Streams held per caller (tests, and anyone reading why a caller's streams closed). */
  held(): Record<string, number> {
    return Object.fromEntries([...this.byCaller].map(([caller, set]) => [caller, set.size]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  }

  get size(): number {
    return this.count;
  }

  private add(caller: string): Entry {
    const entry: Entry = {
      caller,
      seq: this.seq++,
      res: undefined,
      end: undefined,
      shed: false,
      attach: (res, end) => {
        entry.res = res;
        entry.end = end;
        if (entry.shed) this.close(entry);
      },
      remove: () => this.forget(entry),
    };
    let set = this.byCaller.get(caller);
    if (set === undefined) this.byCaller.set(caller, (set = new Set()));
    set.add(entry);
    this.count++;
    const network = placesNetwork(caller);
    this.byNetwork.set(network, (this.byNetwork.get(network) ?? 0) + 1);
    return entry;
  }

  private forget(entry: Entry): void {
    const set = this.byCaller.get(entry.caller);
    if (set === undefined || !set.delete(entry)) return;
    this.count--;
    if (set.size === 0) this.byCaller.delete(entry.caller);
    const network = placesNetwork(entry.caller);
    const ours = (this.byNetwork.get(network) ?? 1) - 1;
    if (ours <= 0) this.byNetwork.delete(network);
    else this.byNetwork.set(network, ours);
  }

  private shed(entry: Entry): void {
    this.forget(entry);
    entry.shed = true;
    if (entry.end !== undefined) this.close(entry);
  }

  private close(entry: Entry): void {
    entry.end?.();
    if (entry.res !== undefined) this.givePlaceBack(entry.res);
  }
}

/** The first admitted of a caller's (non-empty) streams: a Set keeps insertion order. */
function oldest(set: Set<Entry>): Entry {
  return set.values().next().value as Entry;
}
