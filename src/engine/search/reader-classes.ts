import { LIMITS } from "../../limits.js";
import type { AccessTable } from "./access-table.js";
import type { InvertedIndex } from "./inverted-index.js";
import { ReaderStatistics } from "./statistics.js";

/**
 * Statistics per reader class (readers that may read the same rules, see `AccessTable`), made
 * at a class's first search and kept current page by page from then on; the classes used
 * least recently are dropped past `LIMITS.search.maxReaderClasses`. A new rule in the index
 * drops them all: their flags do not cover it.
 */
export class ReaderClasses {
  private readonly classes = new Map<string, ReaderStatistics>();
  private rules = 0;

  constructor(
    private readonly index: InvertedIndex,
    private readonly table: AccessTable,
    /** Whether a reader with these flags sees a page unit (its page, and that variant of it). */
    private readonly visible: (page: number, readable: Uint8Array) => boolean,
  ) {}

  /** The statistics of the class with these flags (from `AccessTable.classOf`). */
  statistics(readerClass: { readonly readable: Uint8Array; readonly key: string }): ReaderStatistics {
    this.forgetStale();
    let stats = this.classes.get(readerClass.key);
    if (stats !== undefined) {
      this.classes.delete(readerClass.key);
    } else {
      const { readable } = readerClass;
      stats = new ReaderStatistics(this.index, (page) => this.visible(page, readable));
      if (this.classes.size >= LIMITS.search.maxReaderClasses) this.classes.delete(this.classes.keys().next().value as string);
    }
    this.classes.set(readerClass.key, stats);
    return stats;
  }

  /** A page unit entered the index (sign 1, after it is added) or is leaving it (-1, before). */
  track(page: number, sign: 1 | -1): void {
    this.forgetStale();
    for (const stats of this.classes.values()) stats.track(page, sign);
  }

  private forgetStale(): void {
    if (this.table.size === this.rules) return;
    this.classes.clear();
    this.rules = this.table.size;
  }
}
