// The units the inverted index holds, in their own file so that what only counts them
// (`totals.ts`) or ranks them (`ranking.ts`) need not import the index itself.

// Section units have no object of their own: the index keeps them in columns (their page, field
// lengths and term sequence by section id, `InvertedIndex`). An object, a lengths array and a
// typed array per section cost about 200 bytes besides the terms: at 50,000 pages (820,000
// sections) a third of the index's heap, and most of what garbage collection walked.

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
  /** Distinct term ids only the page's own fields hold (its sections' are `shared.terms`): with
   *  those, what undoes its document frequencies on removal. */
  readonly ownTerms: Int32Array;
  /** Its sections, shared with the pages of the same text (`InvertedIndex.addPage`). */
  readonly shared: SharedSections;
}

/** Section units of one text, shared by the pages with that text (`InvertedIndex.addPage`). */
export interface SharedSections {
  readonly ids: readonly number[];
  /** Summed section field lengths: heading, body, code. */
  readonly lengths: readonly number[];
  /** Distinct term ids of the sections. */
  readonly terms: Int32Array;
  /** Pages using them: the sections leave the index with the last (and a page added later with
   *  the same sections array makes them anew). */
  users: number;
}

/**
 * A unit's term ids: its three fields in order, separated by -1 (`title -1 meta -1 context`
 * for a page, `heading -1 body -1 code` for a section). One array per unit, kept for proximity.
 */
export type TermSequence = Int32Array;
