import { resolve } from "node:path";
import { LIMITS } from "../limits.js";
import { readVariantTimesFile, updateVariantTimesFile } from "../store/variant-times-file.js";
import type { FileVariants } from "../vfs/file-variants.js";
import { type Hashed, RememberedTimes, RememberedTimesError, type TimesMemory, type WholeHashed } from "../vfs/remembered-times.js";
import type { SiteFile } from "../vfs/site-file.js";
import type { Recall } from "../vfs/variant-times.js";
import { nextTurn } from "../turns.js";

/**
 * The variant times of a served docs root kept in a state file across starts (`RememberedTimes`,
 * security.md row 160): read once, before the load dates anything; written a moment after each
 * snapshot (`LIMITS.variantTimes.writeDelayMs`, coalesced) and at `close`, only when what it
 * holds changed. It holds the pages and specs without restricted parts too (their hash and
 * time: one may gain its first restricted part while stopped, adversary round 53 F2). Each
 * `--workers` process reads it at its start, and writes what it dated merged with what the file
 * holds then (`RememberedTimes.merge`), under a lock (`updateVariantTimesFile`): before, each
 * wrote only what it had dated and the last write won, so a class only another process served
 * was lost, or dated by a process that met it first after a staff edit by that edit's time
 * (adversary round 53 F3). Merging rather than one process writing for all: each process knows
 * the classes its own readers were served, and no other can tell them without a channel between
 * them for every snapshot; the lock is held for one read and write, so a stop is not held.
 *
 * A memory aid, never a condition: a file that is missing, unreadable, damaged or of another
 * version or docs root is left aside with one line on the log (stderr: stdout may be the
 * protocol), and the start dates every class as before; a write that fails is said once.
 */
/** How a server keeps its variant times (`VariantMemory.open`). */
export interface KeepOptions {
  /** Write nothing until `serving` is called. */
  readonly untilServing?: boolean;
  /** Keep the pages and specs without restricted parts too (their hash and time, adversary round
   *  53 F2); true unless false. `serve` over stdio keeps only files with restricted parts: its
   *  reader runs beside the docs repository, and a start that keeps no feedback writes nothing to
   *  the state home for a site without any. */
  readonly wholes?: boolean;
}

export class VariantMemory implements TimesMemory {
  /** The variants of the newest snapshot, once one is made: what is remembered from then on. */
  private latest: ReadonlyMap<string, FileVariants> | undefined;
  /** The newest snapshot's pages and specs without restricted parts, and its paths. */
  private wholes: readonly SiteFile[] = [];
  private present: ReadonlyMap<string, unknown> = new Map();
  private readonly hashed: Hashed = new WeakMap();
  private readonly wholeHashed: WholeHashed = new WeakMap();
  /** What the file held as this process last read or wrote it (`written`'s memory). */
  private kept: RememberedTimes;
  private timer: NodeJS.Timeout | undefined;
  /** When the first snapshot not yet written came (ms). */
  private waiting: number | undefined;
  private closed = false;
  private readonly told = new Set<string>();
  /** Writes wait for `serving` (a server that fails to start, its state folder read-only or its
   *  SQLite module missing, leaves nothing behind); true unless opened `untilServing`. */
  private serves: boolean;

  private constructor(
    private readonly file: string,
    private readonly root: string,
    /** What the file held at the start. */
    private readonly start: RememberedTimes,
    /** The file's text as last read or written (undefined: none, or one not taken). */
    private written: string | undefined,
    private readonly log: (message: string) => void,
    private readonly how: KeepOptions,
  ) {
    this.kept = start;
    this.serves = how.untilServing !== true;
  }

  /** The memory kept in `file` for the docs root `root` (see the class for what is not taken). */
  static open(file: string, root: string, log: (message: string) => void, how: KeepOptions = {}): VariantMemory {
    const at = resolve(root);
    let text: string | undefined;
    try {
      text = readVariantTimesFile(file);
      if (text !== undefined) return new VariantMemory(file, at, RememberedTimes.parse(text, at), text, log, how);
    } catch (error) {
      log(`warning: the variant times kept in ${file} are not taken (${(error as Error).message}): each reader class of a file with restricted parts is dated by the file's time until its bytes change`);
    }
    return new VariantMemory(file, at, RememberedTimes.EMPTY, undefined, log, how);
  }

  recall(path: string): Recall | undefined {
    if (this.latest === undefined) return this.start.recall(path);
    // A docs root replaced while serving: what the old tree's classes were served, and since when.
    const variants = this.latest.get(path);
    if (variants !== undefined) return RememberedTimes.of(new Map([[path, variants]]), this.hashed).recall(path);
    // One without restricted parts in the old tree: every reader was served it whole.
    const whole = this.wholes.find((file) => file.path === path);
    return whole === undefined ? undefined : RememberedTimes.of(new Map(), this.hashed, [whole], this.wholeHashed).recall(path);
  }

  paths(): Iterable<string> {
    return this.latest?.keys() ?? this.start.paths();
  }

  noted(variants: ReadonlyMap<string, FileVariants>, wholes: readonly SiteFile[], present: ReadonlyMap<string, unknown>): void {
    this.latest = variants;
    this.wholes = this.how.wholes === false ? [] : wholes;
    this.present = present;
    if (this.closed) return;
    const now = Date.now();
    this.waiting ??= now;
    clearTimeout(this.timer);
    const delay = Math.max(0, Math.min(LIMITS.variantTimes.writeDelayMs, this.waiting + LIMITS.variantTimes.writeDelayMaxMs - now));
    this.timer = setTimeout(() => void this.hashWholes().then(() => this.write()), delay);
    // A server stopping writes at `close`; a one-shot load is not held open for it.
    this.timer.unref();
  }

  /** The server answers now: what it dates is written from here on (`KeepOptions.untilServing`). */
  serving(): void {
    if (this.serves) return;
    this.serves = true;
    if (this.latest !== undefined) this.noted(this.latest, this.wholes, this.present);
  }

  /** Write what the newest snapshot dated, now, and no more after. */
  close(): void {
    this.closed = true;
    this.write(true);
  }

  /**
   * Hash the newest snapshot's whole files not hashed yet, giving the thread back every
   * `LIMITS.variantTimes.hashSliceMs`: a first write of a 24,920-page site hashes ~220 MiB
   * (0.4-0.6 s on the shared 2-core machine), which in one stretch held every caller that long.
   */
  private async hashWholes(): Promise<void> {
    let since = performance.now();
    for (const file of this.wholes) {
      if (this.closed) return;
      RememberedTimes.whole(file, this.wholeHashed);
      if (performance.now() - since < LIMITS.variantTimes.hashSliceMs) continue;
      await nextTurn();
      since = performance.now();
    }
  }

  private write(final = false): void {
    // A write after `close` (a hashing begun before it ended after): the stop's write was the last.
    if ((this.closed && !final) || !this.serves) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting = undefined;
    if (this.latest === undefined) return;
    const memory = RememberedTimes.of(this.latest, this.hashed, this.wholes, this.wholeHashed);
    // Nothing to keep and nothing kept: a site without pages or specs leaves no file.
    if (memory.size === 0 && this.written === undefined) return;
    try {
      updateVariantTimesFile(this.file, (text) => {
        // What this process wrote last (taken as it was merged), else another's, or the last run's.
        let other = text !== undefined && text === this.written ? this.kept : RememberedTimes.EMPTY;
        if (text !== undefined && text !== this.written) {
          try {
            other = RememberedTimes.parse(text, this.root);
          } catch (error) {
            if (!(error instanceof RememberedTimesError)) throw error;
          }
        }
        const kept = RememberedTimes.merge(memory, other, this.present);
        const merged = kept.serialize(this.root);
        this.kept = kept;
        this.written = merged;
        return merged === text ? undefined : merged;
      });
    } catch (error) {
      const message = (error as Error).message;
      if (this.told.has(message)) return;
      this.told.add(message);
      this.log(`warning: the variant times cannot be kept in ${this.file} (${message}): a restart dates each reader class of a file with restricted parts by what it finds kept, else by the file's time`);
    }
  }
}
