import type { QueryTerm } from "./ranking.js";
import type { IndexStatistics } from "./statistics.js";

/** Terms kept per statistics: past this, the oldest half is let go (a few hundred KB at most). */
const MAX_TERMS = 8_192;

/**
 * Query terms as `resolveTerms` resolved them, kept across searches: agents' questions are
 * distinct but their words are not, and resolving a word the site does not hold (a typo, or a
 * word of another product) visits every dictionary term of about its length for the edit
 * distance, and a rare one its prefix expansions: 7% of a search's CPU under distinct questions
 * on spree. A term's resolution depends only on the term, the words the question joins it with
 * (`joined`, part of the key), and the statistics' counts, which change only with the index
 * (`InvertedIndex.version`): each statistics object (one per reader class) has its own terms,
 * dropped at the first search after a change. The kept objects are shared by every search that
 * asks the term: ranking only reads them.
 */
export class ResolvedTerms {
  private readonly byStats = new WeakMap<IndexStatistics, { version: number; terms: Map<string, QueryTerm> }>();

  /** The terms resolved under `stats` at index version `version` (emptied when it moved on). */
  terms(stats: IndexStatistics, version: number): Map<string, QueryTerm> {
    let kept = this.byStats.get(stats);
    if (kept === undefined || kept.version !== version) {
      kept = { version, terms: new Map() };
      this.byStats.set(stats, kept);
    }
    if (kept.terms.size >= MAX_TERMS) {
      let drop = kept.terms.size >> 1;
      for (const key of kept.terms.keys()) {
        if (drop-- <= 0) break;
        kept.terms.delete(key);
      }
    }
    return kept.terms;
  }
}
