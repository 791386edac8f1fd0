import { describe, expect, it } from "vitest";
import { keptTerms } from "../../../src/engine/search/kept-terms.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { LIMITS } from "../../../src/limits.js";
import { inlineSite } from "./inline-site.js";

/**
 * A search's work is bounded by its query, never by time (issue 25): at most
 * `LIMITS.search.maxQueryTerms` terms, the most informative kept; at most `maxTypoScans` terms
 * looked up by edit distance and `maxQueryExpansions` prefix and typo forms over the whole query.
 * A 1,000-character query of hundreds of words cost up to 0.23 s of CPU per search on a site of
 * 25,000 pages; each bound is checked here by what the search did, counted, not by how long it took.
 */

/** Made-up words the stemmer leaves alone: `zqbax`, `zqbbx`, ... */
const word = (i: number): string => `zq${String.fromCharCode(98 + Math.floor(i / 20))}${String.fromCharCode(97 + (i % 20))}x`;

/** 40 pages: page j holds words 0..j, so word i is on 40 - i pages (the later, the rarer). */
function stairsSite(): ReturnType<typeof inlineSite> {
  const files: Record<string, string> = {};
  for (let j = 0; j < 40; j++) files[`/p${String(j).padStart(2, "0")}.mdx`] = `---\ntitle: Page ${j}\n---\n\n${Array.from({ length: j + 1 }, (_, i) => word(i)).join(" ")}\n`;
  return inlineSite(files);
}

const shown = (hits: readonly { page: { path: string }; score: number }[]) => hits.map((h) => `${h.page.path} ${h.score.toFixed(3)}`);

describe("keptTerms", () => {
  it("keeps every term of a query within the bound, in order", () => {
    expect(keptTerms(["c", "a", "b"], 3, () => 1)).toEqual(["c", "a", "b"]);
  });

  it("past the bound keeps the rarest held terms, then unheld ones by position, in the query's order", () => {
    const df: Record<string, number> = { a: 9, b: 1, c: 5, d: 0, e: 1, f: 0 };
    expect(keptTerms(["a", "b", "c", "d", "e", "f"], 4, (t) => df[t] ?? 0)).toEqual(["a", "b", "c", "e"]);
    expect(keptTerms(["a", "b", "c", "d", "e", "f"], 5, (t) => df[t] ?? 0)).toEqual(["a", "b", "c", "d", "e"]);
    expect(keptTerms(["a", "b", "c", "d", "e", "f"], 2, (t) => df[t] ?? 0)).toEqual(["b", "e"]);
  });
});

describe("a search's bounded work", () => {
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(stairsSite());
  const canRead = () => true;

  it("scores a query of 40 distinct words as the query cut to its 32 rarest (the code before kept the first 32)", () => {
    expect(LIMITS.search.maxQueryTerms).toBe(32);
    const all = Array.from({ length: 40 }, (_, i) => word(i));
    const plan = index.queryPlan(all.join(" "));
    expect(plan.terms).toEqual(all.slice(8));
    const full = shown(index.search({ query: all.join(" "), canRead, pageSize: 50 }));
    expect(full).toEqual(shown(index.search({ query: all.slice(8).join(" "), canRead, pageSize: 50 })));
    expect(full).not.toEqual(shown(index.search({ query: all.slice(0, 32).join(" "), canRead, pageSize: 50 })));
    // The same words in another order keep the same terms.
    expect(index.queryPlan([...all].reverse().join(" ")).terms).toEqual(all.slice(8).reverse());
  });

  it("keeps the same terms of a 1,000-character query of 500 single letters, whatever earlier searches resolved", () => {
    const letters = Array.from({ length: 500 }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join(" ");
    expect(letters.length).toBe(999);
    const fresh = new SearchIndex({ cachedResults: 0 });
    fresh.sync(stairsSite());
    expect(fresh.queryPlan(letters)).toEqual(index.queryPlan(letters));
    expect(index.queryPlan(letters).terms.length).toBeLessThanOrEqual(LIMITS.search.maxQueryTerms);
  });

  it("looks up at most 8 typos per query, rarest first, and counts a typo resolved by an earlier search the same", () => {
    // 30 words one letter off site words (zqbay for zqbax...): each would be looked up by edit distance.
    const typos = Array.from({ length: 30 }, (_, i) => `${word(i).slice(0, 4)}y`);
    const query = typos.join(" ");
    const first = index.queryPlan(query);
    expect([first.work.typoScans, first.query.filter((q) => q.matches.length > 0).map((q) => q.term)]).toEqual([8, typos.slice(0, 8)]);
    expect(index.queryPlan(query)).toEqual(first);
    // A question's typo is still found.
    expect(shown(index.search({ query: `${word(39).slice(0, 4)}y`, canRead })).slice(0, 1)).toEqual(["/p39 0.203"]);
  });

  it("adds at most 160 prefix forms over the whole query, and each term at most its own 40", () => {
    // 8 stems with 50 longer forms each, on their own pages: `zqstem0a...`.
    const files: Record<string, string> = {};
    const forms = (s: number) => Array.from({ length: 50 }, (_, f) => `ywstem${String.fromCharCode(97 + s)}${String.fromCharCode(97 + Math.floor(f / 20))}${String.fromCharCode(97 + (f % 20))}x`);
    for (let s = 0; s < 8; s++) for (const [f, form] of forms(s).entries()) files[`/s${s}/f${f}.mdx`] = `---\ntitle: Form\n---\n\n${form} filler\n`;
    const prefixes = new SearchIndex({ cachedResults: 0 });
    prefixes.sync(inlineSite(files));
    const stems = Array.from({ length: 8 }, (_, s) => `ywstem${String.fromCharCode(97 + s)}`);
    const plan = prefixes.queryPlan(stems.join(" "));
    expect([plan.work.expansions, plan.query.map((q) => q.matches.length)]).toEqual([160, [40, 40, 40, 40, 0, 0, 0, 0]]);
    expect(prefixes.queryPlan(stems[0] as string).query.map((q) => q.matches.length)).toEqual([40]);
  });

  it("joins at most 8 distinct pairs of neighbouring words, each added once to each of its words however often the pair repeats", () => {
    // Every letter, and every pair of neighbouring letters written as one word (bc, cd...), on the site.
    const letters = [..."bcdfghjklmnpqrstvwxyz"];
    const pairs = letters.slice(1).map((l, i) => `${letters[i]}${l}`);
    const site = inlineSite({ "/letters.mdx": `---\ntitle: Letters\n---\n\n${letters.join(" ")}\n`, "/pairs.mdx": `---\ntitle: Pairs\n---\n\n${pairs.join(" ")}\n` });
    const joinedIndex = new SearchIndex({ cachedResults: 0 });
    joinedIndex.sync(site);
    // The letters in order, three times over: 20 distinct pairs, each written three times.
    const plan = joinedIndex.queryPlan(Array.from({ length: 3 }, () => letters.join(" ")).join(" "));
    const joined = plan.query.map((q) => q.matches.filter((m) => m.term !== q.term).map((m) => m.term));
    expect(LIMITS.search.maxJoinedWords).toBe(8);
    expect(joined.slice(0, 10)).toEqual([["bc"], ["bc", "cd"], ["cd", "df"], ["df", "fg"], ["fg", "gh"], ["gh", "hj"], ["hj", "jk"], ["jk", "kl"], ["kl"], []]);
    expect(joined.slice(10).flat()).toEqual([]);
    // A question's joined word is still found: "data base" reads "database" too.
    expect(joinedIndex.queryPlan("b c").query.map((q) => q.matches.map((m) => m.term))).toEqual([["b", "bc"], ["c", "bc"]]);
  });
});
