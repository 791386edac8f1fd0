import { describe, expect, it } from "vitest";
import { InvertedIndex, type InvertedIndexState } from "../../../src/engine/search/inverted-index.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";

/**
 * The terms' sorted order as the persistent cache stores it (`InvertedIndexState.sortedIds`,
 * issue 22): a start from the cache takes it instead of sorting every term again. Taken only when
 * it is every term once in order; otherwise (absent, damaged) the terms are sorted as before, and
 * prefix lookups answer the same either way.
 */
describe("sorted terms in the index's state", () => {
  const seq = (...ids: number[]): Int32Array => Int32Array.from(ids);
  const TERMS = ["webhook", "api", "webhooks", "config", "web", "apis", "webhooked", "zeta", "unused"];

  function built(): { vocabulary: Vocabulary; index: InvertedIndex } {
    const vocabulary = new Vocabulary();
    for (const t of TERMS) vocabulary.id(t);
    const index = new InvertedIndex(vocabulary);
    // Term 8 ("unused") is in no unit: it has no entry, and is in no order.
    index.addPage(seq(0, 1), [seq(0, 2, 4), seq(3)]);
    index.addPage(seq(5), [seq(6, 7, -1, 0)]);
    index.prepare();
    return { vocabulary, index };
  }

  function restoredWith(vocabulary: Vocabulary, state: InvertedIndexState): { vocabulary: Vocabulary; index: InvertedIndex } {
    const v = new Vocabulary();
    v.restore(vocabulary.state());
    const index = new InvertedIndex(v);
    index.restore(state);
    return { vocabulary: v, index };
  }
  const restored = (vocabulary: Vocabulary, state: InvertedIndexState): InvertedIndex => restoredWith(vocabulary, state).index;

  const lookups = (index: InvertedIndex): string[][] => ["", "w", "web", "webhook", "a", "z", "x"].map((p) => index.withPrefix(p, 100, () => true).map((e) => e.term));

  it("are the entries' ids in their terms' order", () => {
    const { index } = built();
    expect([...(index.state().sortedIds ?? [])].map((id) => TERMS[id])).toEqual(["api", "apis", "config", "web", "webhook", "webhooked", "webhooks", "zeta"]);
  });

  it("restored, absent or damaged, prefix lookups answer as the index that was built", () => {
    const { vocabulary, index } = built();
    const state = index.state();
    const expected = [
      ["api", "apis", "config", "web", "webhook", "webhooked", "webhooks", "zeta"],
      ["web", "webhook", "webhooked", "webhooks"],
      ["webhook", "webhooked", "webhooks"],
      ["webhooked", "webhooks"],
      ["api", "apis"],
      ["zeta"],
      [],
    ];
    const ids = state.sortedIds as Int32Array<ArrayBuffer>;
    const variants: Record<string, InvertedIndexState> = {
      stored: state,
      absent: { ...state, sortedIds: undefined },
      reversed: { ...state, sortedIds: ids.slice().reverse() },
      short: { ...state, sortedIds: ids.slice(1) },
      repeated: { ...state, sortedIds: Int32Array.from([...ids.slice(0, -1), ids[0] as number]) },
      "a term without entry": { ...state, sortedIds: Int32Array.from([...ids.slice(0, -1), 8]) },
      "out of range": { ...state, sortedIds: Int32Array.from([...ids.slice(0, -1), 99]) },
    };
    const answers = Object.fromEntries(Object.entries(variants).map(([name, s]) => [name, lookups(restored(vocabulary, s))]));
    expect(lookups(index)).toEqual(expected);
    expect(answers).toEqual(Object.fromEntries(Object.keys(variants).map((name) => [name, expected])));
  });

  it("a term added after the restore is found by prefix too (the order is made again)", () => {
    const { vocabulary, index } = built();
    const { vocabulary: v, index: again } = restoredWith(vocabulary, index.state());
    const id = v.id("webbed");
    again.addPage(seq(id), [seq(id)]);
    again.prepare();
    expect(again.withPrefix("web", 100, () => true).map((e) => e.term)).toEqual(["webbed", "webhook", "webhooked", "webhooks"]);
  });
});

/**
 * Terms that arrive after the lookups' orders were made are placed into them (`placeNewTerms`),
 * not the whole vocabulary sorted again (0.12-0.5 s per save at 25,000 pages): prefix lookups,
 * fuzzy candidates (in the order they are visited) and the stored order are a fresh build's.
 */
describe("terms added after the lookups' orders were made", () => {
  const seq = (...ids: number[]): Int32Array => Int32Array.from(ids);
  // "alpha" and "webs" have ids before terms already indexed, and arrive last.
  const WORDS = ["alpha", "webhook", "api", "webs", "config", "web", "apis", "zeta", "wen", "webhooks", "a", "zz", "webb"];
  const PAGES: [number[], number[][]][] = [
    [[1, 2], [[1, 2, 4], [5]]],
    [[6], [[7, 5, -1, 1]]],
    [[8], [[8, 9]]],
    [[10, 11], [[12, 10]]],
    [[0, 3], [[3, -1, 0]]],
  ];
  const index = (pages: readonly [number[], number[][]][], lookupsBetween: (i: InvertedIndex) => void): InvertedIndex => {
    const vocabulary = new Vocabulary();
    for (const w of WORDS) vocabulary.id(w);
    const built = new InvertedIndex(vocabulary);
    for (const [terms, sections] of pages) {
      built.addPage(seq(...terms), sections.map((s) => seq(...s)));
      lookupsBetween(built);
    }
    return built;
  };
  const answers = (i: InvertedIndex): unknown => ({
    prefixes: ["", "w", "web", "webh", "a", "z", "alp"].map((p) => i.withPrefix(p, 100, () => true).map((e) => e.term)),
    near: ["web", "webz", "apo", "zt", "alphb"].map((t) => {
      const seen: string[] = [];
      i.forEachTermNear(t, 1, (e) => seen.push(e.term));
      return seen;
    }),
    sortedIds: [...(i.state().sortedIds ?? [])],
  });

  it("answer as an index built with every page at once, whichever lookups came between", () => {
    const fresh = answers(index(PAGES, () => {}));
    const ways: Record<string, (i: InvertedIndex) => void> = {
      "prefix lookups": (i) => void i.withPrefix("w", 100, () => true),
      "fuzzy lookups": (i) => i.forEachTermNear("web", 1, () => {}),
      prepared: (i) => i.prepare(),
    };
    expect(Object.fromEntries(Object.entries(ways).map(([name, between]) => [name, answers(index(PAGES, between))]))).toEqual(Object.fromEntries(Object.keys(ways).map((name) => [name, fresh])));
    expect((fresh as { prefixes: string[][] }).prefixes[2]).toEqual(["webb", "webhook", "webhooks", "webs"]);
  });
});
