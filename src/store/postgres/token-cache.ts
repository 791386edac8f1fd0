/** A read of tokens begun: the cache's generation then, and when it began. */
export interface TokenRead {
  readonly generation: number;
  readonly at: number;
}

/**
 * Access tokens' rows kept between requests, by the hash of the token, for as long as nothing
 * may have revoked them: only while the process listens for changes of the tables a bearer
 * check reads (`SettingsListener`: the database tells it of every commit that deletes or changes
 * a token, grant, credential or user), and never longer than `maxAgeMs` after the read began (a
 * listening connection cut without the process knowing still misses a revocation for at most
 * that). Any change drops every row kept: revocations are rare, calls are many, and a row does
 * not say which change could touch it (a user's groups, a credential's cascade). A read kept is
 * one that began while listening with no change announced since it began, as `SettingsCache`.
 * Only tokens found are kept (an unknown token is asked again: a made-up one must not take
 * room). Past half its life a row is `due`: the store reads it again in the background while the
 * row still answers, so under a steady stream of one token's calls none waits for the database.
 */
export class TokenCache<T> {
  private generation = 0;
  private listening = false;
  /** In the order kept: the first is the oldest, dropped first when `maxEntries` are held. */
  private readonly kept = new Map<string, { readonly value: T; readonly at: number }>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The row kept for `key`, or undefined when it must be read (then `begin` before the read). */
  get(key: string): T | undefined {
    const kept = this.kept.get(key);
    if (kept === undefined) return undefined;
    if (this.clock() - kept.at < this.maxAgeMs) return kept.value;
    this.kept.delete(key);
    return undefined;
  }

  /** Whether `key`'s row has lived half of `maxAgeMs`: time to read it again, while it still answers. */
  due(key: string): boolean {
    const kept = this.kept.get(key);
    return kept !== undefined && this.clock() - kept.at >= this.maxAgeMs / 2;
  }

  begin(): TokenRead {
    return { generation: this.generation, at: this.clock() };
  }

  /** Keep what `read` found for `key`, if nothing was announced since it began and the process listened throughout. */
  keep(read: TokenRead, key: string, value: T): void {
    if (!this.listening || read.generation !== this.generation) return;
    this.kept.delete(key);
    if (this.kept.size >= this.maxEntries) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, { value, at: read.at });
  }

  /** A change was announced: nothing read before it is kept. */
  invalidate(): void {
    this.generation++;
    this.kept.clear();
  }

  /** Listening began (reads from now on may be kept) or ended (nothing is kept until it begins again). */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate();
  }

  /** Rows kept (tests). */
  get size(): number {
    return this.kept.size;
  }
}
