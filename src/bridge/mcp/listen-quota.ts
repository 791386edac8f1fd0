/** What a listen request was refused for: the bound it met, in words and numbers. */
export interface ListenRefusal {
  readonly status: 429 | 503;
  readonly reason: "listen_streams_per_caller" | "listen_streams";
  readonly limit: number;
  readonly message: string;
}

/**
 * What hands out listen streams' places: `ListenQuota` in a lone process, `RemoteListenQuota` in a
 * worker of `serve --http --workers N` (the primary counts for all workers).
 */
export interface ListenPlaceKeeper {
  /** Reserve a stream for `caller` on `endpoint`, or say which bound refuses it. */
  reserve(endpoint: string, caller: string): ListenRefusal | undefined | Promise<ListenRefusal | undefined>;
  /** Give back a place `reserve` gave (once per place). */
  release(endpoint: string, caller: string): void;
  /** Streams open (or being opened) on `endpoint` in this process. */
  size(endpoint: string): number;
}

/**
 * Open `subscriptions/listen` streams, counted per endpoint and per caller on it (an address,
 * an IPv6 /64, a token's principal), so one party cannot hold every stream the endpoint allows.
 * A slot is reserved before the request is served and released when its stream ends (or at
 * once when none opened), so concurrent requests cannot overshoot.
 */
export class ListenQuota implements ListenPlaceKeeper {
  private readonly perEndpoint = new Map<string, number>();
  private readonly perCaller = new Map<string, number>();

  constructor(private readonly bounds: { readonly maxStreams: number; readonly maxStreamsPerCaller: number }) {}

  /** Reserve a stream for `caller` on `endpoint`, or say which bound refuses it. */
  reserve(endpoint: string, caller: string): ListenRefusal | undefined {
    const key = `${endpoint} ${caller}`;
    const mine = this.perCaller.get(key) ?? 0;
    if (mine >= this.bounds.maxStreamsPerCaller) {
      const limit = this.bounds.maxStreamsPerCaller;
      return {
        status: 429,
        reason: "listen_streams_per_caller",
        limit,
        message: `Too many open subscriptions/listen streams: at most ${limit} at once per caller (address or token), and this one holds ${mine}; close one before opening another`,
      };
    }
    const all = this.perEndpoint.get(endpoint) ?? 0;
    if (all >= this.bounds.maxStreams) {
      const limit = this.bounds.maxStreams;
      return {
        status: 503,
        reason: "listen_streams",
        limit,
        message: `This server holds its most open subscriptions/listen streams (${limit} on this endpoint); retry later`,
      };
    }
    this.perCaller.set(key, mine + 1);
    this.perEndpoint.set(endpoint, all + 1);
    return undefined;
  }

  release(endpoint: string, caller: string): void {
    const key = `${endpoint} ${caller}`;
    const mine = (this.perCaller.get(key) ?? 1) - 1;
    if (mine <= 0) this.perCaller.delete(key);
    else this.perCaller.set(key, mine);
    this.perEndpoint.set(endpoint, Math.max(0, (this.perEndpoint.get(endpoint) ?? 1) - 1));
  }

  /** Streams open (or being opened) on `endpoint`. */
  size(endpoint: string): number {
    return this.perEndpoint.get(endpoint) ?? 0;
  }
}
