import { resolve } from "node:path";
import { LIMITS } from "../limits.js";
import { readVariantTimesFile, writeVariantTimesFile } from "../store/variant-times-file.js";
import type { FileVariants } from "../vfs/file-variants.js";
import { type Hashed, RememberedTimes, type TimesMemory } from "../vfs/remembered-times.js";
import type { Recall } from "../vfs/variant-times.js";

/**
 * The variant times of a served docs root kept in a state file across starts (`RememberedTimes`,
 * security.md row 160): read once, before the load dates anything; written a moment after each
 * snapshot (`LIMITS.variantTimes.writeDelayMs`, coalesced) and at `close`, only when what it
 * holds changed, and not at all while no file has restricted parts and none was kept. Each
 * `--workers` process reads it at its start and writes what it served: they see the same edits,
 * and a write is a rename, so a reader never meets half a file.
 *
 * A memory aid, never a condition: a file that is missing, unreadable, damaged or of another
 * version or docs root is left aside with one line on the log (stderr: stdout may be the
 * protocol), and the start dates every class as before; a write that fails is said once.
 */
export class VariantMemory implements TimesMemory {
  /** The variants of the newest snapshot, once one is made: what is remembered from then on. */
  private latest: ReadonlyMap<string, FileVariants> | undefined;
  private readonly hashed: Hashed = new WeakMap();
  private timer: NodeJS.Timeout | undefined;
  /** When the first snapshot not yet written came (ms). */
  private waiting: number | undefined;
  private closed = false;
  private readonly told = new Set<string>();

  private constructor(
    private readonly file: string,
    private readonly root: string,
    /** What the file held at the start. */
    private readonly start: RememberedTimes,
    /** The file's text as last read or written (undefined: none, or one not taken). */
    private written: string | undefined,
    private readonly log: (message: string) => void,
  ) {}

  /** The memory kept in `file` for the docs root `root` (see the class for what is not taken). */
  static open(file: string, root: string, log: (message: string) => void): VariantMemory {
    const at = resolve(root);
    let text: string | undefined;
    try {
      text = readVariantTimesFile(file);
      if (text !== undefined) return new VariantMemory(file, at, RememberedTimes.parse(text, at), text, log);
    } catch (error) {
      log(`warning: the variant times kept in ${file} are not taken (${(error as Error).message}): each reader class of a file with restricted parts is dated by the file's time until its bytes change`);
    }
    return new VariantMemory(file, at, RememberedTimes.EMPTY, undefined, log);
  }

  recall(path: string): Recall | undefined {
    if (this.latest === undefined) return this.start.recall(path);
    // A docs root replaced while serving: what the old tree's classes were served, and since when.
    const variants = this.latest.get(path);
    return variants === undefined ? undefined : RememberedTimes.of(new Map([[path, variants]]), this.hashed).recall(path);
  }

  paths(): Iterable<string> {
    return this.latest?.keys() ?? this.start.paths();
  }

  noted(variants: ReadonlyMap<string, FileVariants>): void {
    this.latest = variants;
    if (this.closed) return;
    const now = Date.now();
    this.waiting ??= now;
    clearTimeout(this.timer);
    const delay = Math.max(0, Math.min(LIMITS.variantTimes.writeDelayMs, this.waiting + LIMITS.variantTimes.writeDelayMaxMs - now));
    this.timer = setTimeout(() => this.write(), delay);
    // A server stopping writes at `close`; a one-shot load is not held open for it.
    this.timer.unref();
  }

  /** Write what the newest snapshot dated, now, and no more after. */
  close(): void {
    this.closed = true;
    this.write();
  }

  private write(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting = undefined;
    if (this.latest === undefined) return;
    const memory = RememberedTimes.of(this.latest, this.hashed);
    // Nothing to keep and nothing kept: a site without restricted parts leaves no file.
    if (memory.size === 0 && this.written === undefined) return;
    const text = memory.serialize(this.root);
    if (text === this.written) return;
    try {
      writeVariantTimesFile(this.file, text);
      this.written = text;
    } catch (error) {
      const message = (error as Error).message;
      if (this.told.has(message)) return;
      this.told.add(message);
      this.log(`warning: the variant times cannot be kept in ${this.file} (${message}): a restart dates each reader class of a file with restricted parts by what it finds kept, else by the file's time`);
    }
  }
}
