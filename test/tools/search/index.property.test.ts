import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FIELDS_PER_UNIT } from "../../../src/engine/search/fields.js";
import { boundedEditDistance } from "../../../src/engine/search/fuzzy.js";
import { InvertedIndex, type TermEntry } from "../../../src/engine/search/inverted-index.js";
import { fieldTf, MAX_TF, packTf, packWideTf, wideFieldTf } from "../../../src/engine/search/postings-codec.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";
import { propertyParams } from "../../helpers/property.js";
import { inlineSite } from "./inline-site.js";

/**
 * Invariants of the generic index under any sequence of adds and removes (fast-check): the
 * codec round-trips, document frequencies and totals equal a recount of the live units, every
 * live unit's postings hold its per-field frequencies, and an index updated page by page
 * answers exactly as one built from scratch.
 */

describe("postings codec", () => {
  it("packs and unpacks each field's frequency, capped at MAX_TF", () => {
    fc.assert(
      fc.property(fc.nat(5000), fc.nat(5000), fc.nat(5000), (a, b, c) => {
        const packed = packTf(a, b, c);
        expect([fieldTf(packed, 0), fieldTf(packed, 1), fieldTf(packed, 2)]).toEqual([a, b, c].map((x) => Math.min(x, MAX_TF)));
        expect(Number.isSafeInteger(packed) && packed >= 0 && packed < 2 ** 30).toBe(true);
      }),
      propertyParams(200),
    );
  });

  it("packs and unpacks a page's summed frequencies, capped at 2^17 - 1", () => {
    fc.assert(
      fc.property(fc.nat(200_000), fc.nat(200_000), fc.nat(200_000), (a, b, c) => {
        const packed = packWideTf(a, b, c);
        expect([wideFieldTf(packed, 0), wideFieldTf(packed, 1), wideFieldTf(packed, 2)]).toEqual([a, b, c].map((x) => Math.min(x, 2 ** 17 - 1)));
        expect(Number.isSafeInteger(packed)).toBe(true);
      }),
      propertyParams(200),
    );
  });
});

/** A unit's fields as term ids (vocabulary of 12 terms), as `sequence` makes them. */
const fields = fc.array(fc.array(fc.nat(11), { maxLength: 6 }), { minLength: FIELDS_PER_UNIT, maxLength: FIELDS_PER_UNIT });
const page = fc.record({ own: fields, sections: fc.array(fields, { maxLength: 3 }), counted: fc.boolean() });
/** An operation: add a page, add a copy of the k-th page added (its text's sections array, as
 *  `SearchIndex` gives a text analysed once), remove the k-th live one, or read the lists (which
 *  commits what is staged: copies and removals then fall on both sides of a commit). */
const op = fc.oneof(
  { arbitrary: page.map((p) => ({ add: p })), weight: 4 },
  { arbitrary: fc.record({ copy: fc.nat(20), own: fields, counted: fc.boolean() }), weight: 2 },
  { arbitrary: fc.nat(20).map((k) => ({ remove: k })), weight: 2 },
  { arbitrary: fc.constant({ read: true as const }), weight: 1 },
);

function sequenceOf(f: number[][]): Int32Array {
  return Int32Array.from(f.flatMap((ids, i) => (i === 0 ? ids : [-1, ...ids])));
}

describe("inverted index under adds and removes", () => {
  it("keeps df, totals and postings equal to a recount of the live pages", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const vocabulary = new Vocabulary();
        for (let t = 0; t < 12; t++) vocabulary.id(`t${t}`);
        const index = new InvertedIndex(vocabulary);
        const live = new Map<number, { own: number[][]; sections: number[][][]; counted: boolean; sectionIds: readonly number[] }>();
        const texts: { sections: number[][][]; arrays: Int32Array[] }[] = [];
        for (const o of ops) {
          if ("add" in o) {
            const arrays = o.add.sections.map(sequenceOf);
            texts.push({ sections: o.add.sections, arrays });
            const { page: id, sections } = index.addPage(sequenceOf(o.add.own), arrays, o.add.counted);
            live.set(id, { ...o.add, sectionIds: sections });
          } else if ("copy" in o) {
            if (texts.length === 0) continue;
            const text = texts[o.copy % texts.length] as { sections: number[][][]; arrays: Int32Array[] };
            const { page: id, sections } = index.addPage(sequenceOf(o.own), text.arrays, o.counted);
            live.set(id, { own: o.own, sections: text.sections, counted: o.counted, sectionIds: sections });
          } else if ("read" in o) {
            index.postings("sections");
          } else if (live.size > 0) {
            const id = [...live.keys()][o.remove % live.size] as number;
            index.removePage(id);
            live.delete(id);
          }
        }
        const counted = [...live.values()].filter((p) => p.counted);
        expect(index.pageCount).toBe(counted.length);
        expect(index.sectionCount).toBe(counted.reduce((n, p) => n + p.sections.length, 0));
        for (let t = 0; t < 12; t++) {
          const has = (p: { own: number[][]; sections: number[][][] }) => [p.own, ...p.sections].some((f) => f.some((ids) => ids.includes(t)));
          const entry = index.entry(`t${t}`);
          expect([t, entry?.df ?? 0]).toEqual([t, counted.filter(has).length]);
          for (const [id, p] of live) {
            expectPosting(index, entry, "pages", id, p.own, t);
            p.sections.forEach((s, k) => expectPosting(index, entry, "sections", p.sectionIds[k] as number, s, t));
            expectSums(index, entry, id, p.sections, t);
          }
        }
      }),
      propertyParams(150),
    );
  });
});

/** The unit's posting for term `t`: present with its per-field frequencies exactly when it has the term. */
function expectPosting(index: InvertedIndex, entry: TermEntry | undefined, kind: "pages" | "sections", unit: number, f: number[][], t: number): void {
  const want = f.map((ids) => ids.filter((x) => x === t).length);
  const list = entry === undefined ? undefined : index.postings(kind).list(entry.id);
  const at = list === undefined ? -1 : list.ids.indexOf(unit);
  const got = at === -1 ? [0, 0, 0] : [0, 1, 2].map((k) => fieldTf(list?.tf[at] as number, k));
  expect([kind, unit, t, got]).toEqual([kind, unit, t, want]);
}

/** The page's summed section posting for term `t`: present exactly when a section has the term,
 *  holding per field the sum of its sections' (capped) frequencies. */
function expectSums(index: InvertedIndex, entry: TermEntry | undefined, page: number, sections: number[][][], t: number): void {
  const want = [0, 1, 2].map((k) => sections.reduce((sum, f) => sum + Math.min(MAX_TF, (f[k] as number[]).filter((x) => x === t).length), 0));
  const list = entry === undefined ? undefined : index.postings("pageSections").list(entry.id);
  const at = list === undefined ? -1 : list.ids.indexOf(page);
  const got = at === -1 ? [0, 0, 0] : [0, 1, 2].map((k) => wideFieldTf(list?.tf[at] as number, k));
  expect(["pageSections", page, t, got]).toEqual(["pageSections", page, t, want]);
}

const WORDS = ["webhook", "order", "refund", "payment", "setup", "token", "cart", "知识库", "创建", "キー"];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((w) => w.join(" "));
const file = fc.record({ title: text, intro: text, heading: text, body: text });
const siteFiles = fc.array(fc.option(file, { freq: 3 }), { minLength: 6, maxLength: 6 }).map((slots) => {
  const out: Record<string, string> = {};
  slots.forEach((f, i) => {
    if (f !== null) out[`/${i % 2 === 0 ? "v1" : "v2"}/p${i >> 1}.mdx`] = `---\ntitle: ${f.title}\n---\n${f.intro}\n\n## ${f.heading}\n\n${f.body}\n`;
  });
  return out;
});
const docs = { navigation: { versions: [{ version: "v1", pages: ["v1/p0", "v1/p1", "v1/p2"] }, { version: "v2", pages: ["v2/p0", "v2/p1", "v2/p2"] }] } };

describe("SearchIndex.sync", () => {
  it("answers after any sequence of updates exactly as an index built from the final site", () => {
    fc.assert(
      fc.property(fc.array(siteFiles, { minLength: 2, maxLength: 4 }), fc.array(fc.constantFrom(...WORDS, "web hook", "refunds order"), { minLength: 1, maxLength: 3 }), (sites, queries) => {
        const updated = new SearchIndex();
        let site = inlineSite(sites[0] as Record<string, string>, docs);
        updated.sync(site);
        for (const files of sites.slice(1)) {
          // A search between updates: nothing it keeps (hits, the pages it may score) may outlive them.
          for (const query of queries) updated.search({ query, canRead: () => true, pageSize: 10 });
          site = inlineSite(files, docs, site);
          updated.sync(site);
        }
        const fresh = new SearchIndex();
        fresh.sync(site);
        for (const query of queries) {
          const shown = (i: SearchIndex) =>
            i.search({ query, canRead: () => true, pageSize: 10 }).map((h) => ({ path: h.page.path, anchor: h.section.anchor, score: h.score, snippet: h.snippet, also: h.otherVersions.map((t) => t.page.path) }));
          expect(shown(updated)).toEqual(shown(fresh));
        }
      }),
      propertyParams(60),
    );
  });
});

/** Sites of 8 to 30 pages over a few words, no versions: enough pages for the top to be cut. */
const manyPages = fc.array(file, { minLength: 8, maxLength: 30 }).map((files) => {
  const out: Record<string, string> = {};
  files.forEach((f, i) => {
    out[`/p${i}.mdx`] = `---\ntitle: ${f.title}\n---\n${f.intro}\n\n## ${f.heading}\n\n${f.body}\n\n## ${f.title}\n\n${f.intro} ${f.body}\n`;
  });
  return out;
});

describe("ranking with bounds", () => {
  it("returns exactly what scoring every candidate page's sections returns", () => {
    fc.assert(
      fc.property(manyPages, fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 5 }), (files, words, pageSize) => {
        const site = inlineSite(files);
        const pruned = new SearchIndex({ cachedResults: 0 });
        const every = new SearchIndex({ cachedResults: 0, ranking: { boundPruning: false } });
        pruned.sync(site);
        every.sync(site);
        const query = words.join(" ");
        const shown = (i: SearchIndex) => i.search({ query, canRead: () => true, pageSize }).map((h) => ({ path: h.page.path, anchor: h.section.anchor, score: h.score, snippet: h.snippet }));
        expect(shown(pruned)).toEqual(shown(every));
      }),
      propertyParams(150),
    );
  });
});

describe("fuzzy candidates", () => {
  it("forEachTermNear visits every term within the edit distance (the rest may be skipped)", () => {
    const word = fc.string({ unit: fc.constantFrom(..."abcdeklmnopstxyz_é"), minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 40 }), word, fc.integer({ min: 1, max: 2 }), (terms, query, max) => {
        const vocabulary = new Vocabulary();
        const index = new InvertedIndex(vocabulary);
        for (const t of terms) vocabulary.id(t);
        index.addPage(Int32Array.from(terms.map((t) => vocabulary.id(t))), []);
        const visited = new Set<string>();
        index.forEachTermNear(query, max, (e) => visited.add(e.term));
        const within = terms.filter((t) => boundedEditDistance(query, t, max) <= max);
        expect(within.filter((t) => !visited.has(t))).toEqual([]);
      }),
      propertyParams(300),
    );
  });
});
