/**
 * The query terms a search scores when a query has more than it may (`LIMITS.search.maxQueryTerms`):
 * the most informative, in the query's order (issue 25). A question has a handful of terms and
 * keeps them all; a pasted log or a string of 500 letters has hundreds, and each term costs a pass
 * over its postings, its prefix forms and, for a word the site lacks, a scan of the dictionary for
 * typos. Informative is rare: terms the reader's pages hold, fewest pages first (the common ones
 * add little to a long query and cost the most postings), then terms the pages do not hold (typos,
 * words of another product), first written first. Ties keep the query's order, so the choice
 * depends on the query and the index alone.
 */
export function keptTerms(terms: readonly string[], max: number, pagesWith: (term: string) => number): string[] {
  if (terms.length <= max) return [...terms];
  const ranked = terms.map((term, at) => ({ term, at, df: pagesWith(term) }));
  ranked.sort((a, b) => (a.df > 0 ? 0 : 1) - (b.df > 0 ? 0 : 1) || a.df - b.df || a.at - b.at);
  const kept = new Set(ranked.slice(0, max).map((r) => r.at));
  return terms.filter((_, at) => kept.has(at));
}
