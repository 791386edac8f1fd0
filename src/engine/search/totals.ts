import type { PageUnit } from "./index-units.js";

/**
 * How many pages and sections a set of units holds, and their summed field lengths: what the
 * BM25 length averages come from. The index keeps one for what every reader may read, a reader
 * class one for the difference (see `ReaderStatistics`), so the sums may go below zero there.
 */
export class Totals {
  pages = 0;
  sections = 0;
  /** Summed field lengths of pages (title, meta, context), of sections (heading, body, code),
   *  and of sections per page (the page read as one document). */
  readonly pageLength = [0, 0, 0];
  readonly sectionLength = [0, 0, 0];
  readonly pageSectionLength = [0, 0, 0];

  /** Count a page and its sections in (sign 1) or out (sign -1). Its sections' lengths are
   *  their sum (`SharedSections.lengths`): integers, so the totals are those of adding them one by one. */
  add(page: PageUnit, sign: 1 | -1): void {
    this.pages += sign;
    this.sections += sign * page.sections.length;
    for (let f = 0; f < 3; f++) {
      this.pageLength[f]! += sign * (page.lengths[f] as number);
      this.pageSectionLength[f]! += sign * (page.sectionLengths[f] as number);
      this.sectionLength[f]! += sign * (page.shared.lengths[f] as number);
    }
  }

  /** Take another's counts (a restored index's, `InvertedIndex.restore`). */
  restore(from: Totals): void {
    this.pages = from.pages;
    this.sections = from.sections;
    for (let f = 0; f < 3; f++) {
      this.pageLength[f] = from.pageLength[f] as number;
      this.sectionLength[f] = from.sectionLength[f] as number;
      this.pageSectionLength[f] = from.pageSectionLength[f] as number;
    }
  }
}

/** Mean field lengths over the sum of some totals. */
export interface Averages {
  readonly page: readonly number[];
  readonly section: readonly number[];
  readonly pageSection: readonly number[];
}

/**
 * Mean field lengths of the units `parts` add up to. Sums stay integers until the one division,
 * so a reader's averages are bit for bit those of a site holding only what it may read.
 */
export function averages(parts: readonly Totals[]): Averages {
  const sum = (pick: (t: Totals) => number): number => parts.reduce((s, t) => s + pick(t), 0);
  const pages = sum((t) => t.pages);
  const sections = sum((t) => t.sections);
  const mean = (count: number, pick: (t: Totals) => readonly number[]): number[] =>
    [0, 1, 2].map((f) => (count <= 0 ? 0 : sum((t) => pick(t)[f] as number) / count));
  return {
    page: mean(pages, (t) => t.pageLength),
    section: mean(sections, (t) => t.sectionLength),
    pageSection: mean(pages, (t) => t.pageSectionLength),
  };
}
