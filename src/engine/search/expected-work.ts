/**
 * The work a search is expected to make, in `SearchIndex.work`'s units (page and section slots
 * ranked), counted before it runs from what the index already holds: `CallerTurns` orders the
 * ready searches by it as well as by what their callers made lately, so that a cheap search is
 * not queued behind heavy ones when nothing is known of the callers yet (security row 167).
 *
 * Ranking takes a slot for each page of the search's scope holding a query term (its postings,
 * `accumulatePages`), and for the sections of the pages it scores: so the estimate is the pages
 * holding each term (`pagesWith`, document frequencies) summed, times the share of the pages the
 * search's version and language filters keep (`inScope` of `pages`). Counted, never timed: the
 * same order on any machine. It misses what the index's prefix and typo forms add and what
 * pruning saves; the order needs sizes, not exact counts. On the 24,920-page versioned site
 * (`bench/large-site.ts`), 160 searches of the query stream's first 40 questions, unfiltered or
 * filtered to a version and language, `pageSize` 3 or 50: unfiltered ones expected 1,750-63,366,
 * filtered ones 13-453; the work made 0.5-3x the estimate for 8 in 10 (median 1.0x), at worst
 * 58x (a filtered question whose prefix forms matched). Made in 4-10 µs a search, loaded (a
 * filtered search of the same site takes 0.5-0.9 ms, an unfiltered one ~100 ms):
 * `bench/expected-work.ts`.
 *
 * A term no page holds (a typo, a word start) counts no postings of its own, yet its typo lookup
 * adds up to 8 corrections, the most common first, and its prefix lookup up to 40 longer forms
 * (`maxTypoScans` such terms at most, `maxQueryExpansions` forms in all: docs/search.md "Speed"):
 * a query of eight misspellings was expected 0 and made 20,000-31,000 units on that site, and
 * went before a filtered search expected 111 (adversary round 54 F1). Each such term
 * (`unmatched.terms`, at most `maxTypoScans`) is expected `unmatched.each`: the work the searches
 * ranked lately made per query term at the whole site's scope (`SearchIndex.madePerTerm`, kept as
 * a count per search, so the estimate stays microseconds), under the same share of pages. What
 * its forms will be is known only by the lookup itself (a pass over every dictionary term of
 * about its length), which must not run before the search's turn; an average term is what a
 * reader's typo stands for, and a flood of them lifts the average as it runs.
 */
export function expectedWork(pagesWith: readonly number[], inScope: number, pages: number, unmatched: { readonly terms: number; readonly each: number } = { terms: 0, each: 0 }): number {
  if (pages <= 0 || inScope <= 0) return 0;
  let postings = unmatched.terms * unmatched.each;
  for (const df of pagesWith) postings += df;
  return Math.ceil((postings * Math.min(inScope, pages)) / pages);
}
