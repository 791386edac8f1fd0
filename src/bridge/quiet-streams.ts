import type { ServerResponse } from "node:http";

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
 * 51 F6). Two rules:
 * - at most `limit` streams at once (half the connections): one more takes the place of the
 *   oldest stream of another caller holding at least two more than the newcomer's caller, and is
 *   refused otherwise. Never its own caller's oldest: a team of two or three behind one address,
 *   one stream shed by a flood of single streams from 383 addresses, listened again (as the
 *   graceful close tells), shed its own other stream, which listened again in turn: 16-29 listens
 *   a second for good, each member holding a stream 40-54% of the time, and the churn spent the
 *   address's request pace, so all its calls were refused (adversary round 52 F1);
 * - a connection the HTTP server would refuse for want of places takes the place of the oldest
 *   stream of the caller holding the most streams, when that caller holds at least two more than
 *   the newcomer holds connections (`shedFor`).
 * So a caller holding one stream (an editor) is never the one shed while another holds more,
 * and a flood, whatever its addresses, gives way to newcomers one stream at a time.
 */
export class QuietStreams {
  private readonly byCaller = new Map<string, Set<Entry>>();
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
      const mine = this.byCaller.get(caller)?.size ?? 0;
      const top = this.heaviest(caller);
      if (top === undefined || top.size <= mine + 1) return undefined;
      this.shed(oldest(top));
    }
    return this.add(caller);
  }

  /**
   * A connection of `caller`, holding `holds` connections, finds no place: the oldest stream of
   * the caller holding the most is shed for it when that caller holds at least `holds + 2` (so
   * the two do not just trade places). True when one was: its place is the newcomer's now.
   */
  shedFor(caller: string, holds: number): boolean {
    const top = this.heaviest(caller);
    if (top === undefined || top.size < holds + 2) return false;
    this.shed(oldest(top));
    return true;
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
    return entry;
  }

  /** The streams of the caller, other than `except`, holding the most; ties to the one whose oldest is oldest. */
  private heaviest(except: string): Set<Entry> | undefined {
    let top: Set<Entry> | undefined;
    for (const [caller, set] of this.byCaller) {
      if (caller === except) continue;
      if (top === undefined || set.size > top.size || (set.size === top.size && oldest(set).seq < oldest(top).seq)) top = set;
    }
    return top;
  }

  private forget(entry: Entry): void {
    const set = this.byCaller.get(entry.caller);
    if (set === undefined || !set.delete(entry)) return;
    this.count--;
    if (set.size === 0) this.byCaller.delete(entry.caller);
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
