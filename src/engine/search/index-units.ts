// The units the inverted index holds, in their own file so that what only counts them
// (`totals.ts`) or ranks them (`ranking.ts`) need not import the index itself.

export interface SectionUnit {
  readonly page: number;
  /** Field lengths in terms: heading, body, code. */
  readonly lengths: readonly number[];
  /** The section's term ids in reading order, for proximity: four bytes per word, and no
   *  re-reading of text at query time. */
  readonly sequence: TermSequence;
}

export interface PageUnit {
  /** Field lengths in terms: title, meta, context. */
  readonly lengths: readonly number[];
  /** Whether the unit counts in the index's own statistics (`df`, `totals`): those are the
   *  statistics of a reader who may read everything, and a page indexed in several variants
   *  for readers who may read less (see `variants.ts`) counts only in its full one. */
  readonly counted: boolean;
  /** Term ids of the title, in order. */
  readonly title: TermSequence;
  /** Summed section field lengths: heading, body, code (the page read as one document). */
  readonly sectionLengths: readonly number[];
  readonly sections: readonly number[];
  /** Distinct term ids of the page, to undo its document frequencies on removal: its sections'
   *  (`SharedSections.terms`) first, then those only its own fields hold. */
  readonly terms: readonly number[] | Int32Array;
  /** Its sections, shared with the pages of the same text (`InvertedIndex.addPage`). */
  readonly shared: SharedSections;
}

/** Section units of one text, shared by the pages with that text (`InvertedIndex.addPage`). */
export interface SharedSections {
  /** The `sections` array they were made from (`InvertedIndex.sharedBy`). */
  readonly key: readonly TermSequence[];
  readonly ids: readonly number[];
  readonly units: readonly SectionUnit[];
  /** Summed section field lengths: heading, body, code. */
  readonly lengths: readonly number[];
  /** Distinct term ids of the sections. */
  readonly terms: Int32Array;
  /** The sections' frequencies summed per term (`packWideTf`): a page's `pageSections` postings. */
  readonly sumTerms: Int32Array;
  readonly sums: Float64Array;
  /** Pages using them: the sections leave the index with the last. */
  users: number;
}

/**
 * A unit's term ids: its three fields in order, separated by -1 (`title -1 meta -1 context`
 * for a page, `heading -1 body -1 code` for a section). One array per unit, kept for proximity.
 */
export type TermSequence = Int32Array;
