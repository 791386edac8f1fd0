/** A read of the settings begun: the cache's generation then, and when it began. */
export interface SettingsRead {
  readonly generation: number;
  readonly at: number;
}

/**
 * The site settings kept between requests, for as long as nothing may have changed them: only
 * while the process listens for changes (`SettingsListener`: the database tells it of every
 * commit to the settings table), and never longer than `maxAgeMs` after the read began (a
 * listening connection cut without the process knowing still misses changes for at most that).
 * A read kept is one that began while listening, with no change announced since it began: a
 * change that arrives while a read is in the database may have committed after the read saw
 * the table, so that read answers the requests that were waiting for it and is not kept.
 * Past half its life a copy is `due`: the store reads again in the background while the copy
 * still answers, so under a steady stream of requests none waits for the database.
 */
export class SettingsCache<T> {
  private generation = 0;
  private listening = false;
  private kept: { readonly value: Promise<T>; readonly at: number } | undefined;

  constructor(
    private readonly maxAgeMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The settings kept, or undefined when they must be read (then `begin` before the read). */
  get(): Promise<T> | undefined {
    const kept = this.kept;
    if (kept === undefined) return undefined;
    if (this.clock() - kept.at < this.maxAgeMs) return kept.value;
    this.kept = undefined;
    return undefined;
  }

  /** Whether the copy kept has lived half of `maxAgeMs`: time to read again, while it still answers. */
  due(): boolean {
    const kept = this.kept;
    return kept !== undefined && this.clock() - kept.at >= this.maxAgeMs / 2;
  }

  begin(): SettingsRead {
    return { generation: this.generation, at: this.clock() };
  }

  /** Keep what `read` found, if nothing was announced since it began and the process listened throughout. */
  keep(read: SettingsRead, value: T): void {
    if (this.listening && read.generation === this.generation) this.kept = { value: Promise.resolve(value), at: read.at };
  }

  /** A change was announced: whatever was read before it is not kept. */
  invalidate(): void {
    this.generation++;
    this.kept = undefined;
  }

  /** Listening began (reads from now on may be kept) or ended (nothing is kept until it begins again). */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate();
  }
}
