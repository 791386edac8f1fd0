import { describe, expect, it } from "vitest";
import { InvertedIndex, type TermEntry } from "../../../src/engine/search/inverted-index.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";
import { inlineSite } from "./inline-site.js";

/**
 * Copies of one text (the same page in several versions) are split and segmented once per sync
 * and share their term arrays (issue 22). Sharing must be invisible: every copy is still its own
 * hit, and an edit to one copy changes that copy alone.
 */

const GUIDE = ["---", "title: Webhooks", "---", "Webhooks deliver events to your server.", "", "## Verify signatures", "", "Every delivery carries an HMAC signature header."].join("\n");
const DOCS = { name: "Shop", navigation: { versions: ["v2", "v1"].map((version) => ({ version, groups: [{ group: "Guides", pages: [`${version}/webhooks`, `${version}/other`] }] })) } };
const OTHER = "---\ntitle: Other\n---\nNothing about deliveries here.\n";

const hitsOf = (index: SearchIndex, query: string, version?: string): unknown[] =>
  index.search({ query, canRead: () => true, ...(version !== undefined ? { version } : {}) }).map((h) => ({ path: h.page.path, anchor: h.section.anchor, score: h.score, snippet: h.snippet, also: h.otherVersions.map((t) => t.page.path) }));

describe("pages with the same text", () => {
  it("are indexed as one text, and found as the pages they are: a hit per version, with the same scores as unshared copies", () => {
    const site = inlineSite({ "/v1/webhooks.mdx": GUIDE, "/v2/webhooks.mdx": GUIDE, "/v1/other.mdx": OTHER, "/v2/other.mdx": OTHER }, DOCS);
    const index = new SearchIndex();
    index.sync(site);
    expect(index.textCount).toBe(2);
    expect(hitsOf(index, "verify hmac signature")).toEqual([{ path: "/v2/webhooks", anchor: "verify-signatures", score: 0.41, snippet: "Every delivery carries an HMAC signature header.", also: ["/v1/webhooks"] }]);
    expect(hitsOf(index, "verify hmac signature", "v1")).toEqual([{ path: "/v1/webhooks", anchor: "verify-signatures", score: 0.41, snippet: "Every delivery carries an HMAC signature header.", also: [] }]);
    // The same site with texts that differ by a byte (nothing shared) ranks the same.
    const apart = new SearchIndex();
    apart.sync(inlineSite({ "/v1/webhooks.mdx": GUIDE, "/v2/webhooks.mdx": `${GUIDE} `, "/v1/other.mdx": OTHER, "/v2/other.mdx": `${OTHER} ` }, DOCS));
    expect(apart.textCount).toBe(4);
    expect(hitsOf(apart, "verify hmac signature", "v1")).toEqual(hitsOf(index, "verify hmac signature", "v1"));
    expect(hitsOf(apart, "verify hmac signature", "v2")).toEqual(hitsOf(index, "verify hmac signature", "v2"));
  });

  it("an edit to one copy changes that copy alone", () => {
    const first = inlineSite({ "/v1/webhooks.mdx": GUIDE, "/v2/webhooks.mdx": GUIDE, "/v1/other.mdx": OTHER, "/v2/other.mdx": OTHER }, DOCS);
    const index = new SearchIndex();
    index.sync(first);
    const before = hitsOf(index, "verify hmac signature", "v1");
    const edited = GUIDE.replace("HMAC signature header", "Ed25519 signature header");
    index.sync(inlineSite({ "/v1/webhooks.mdx": GUIDE, "/v2/webhooks.mdx": edited, "/v1/other.mdx": OTHER, "/v2/other.mdx": OTHER }, DOCS, first));
    // The v1 copy is the same hit (its score moves only with the site's statistics: "hmac" is now rarer).
    const unscored = (hits: unknown[]): unknown[] => hits.map((h) => ({ ...(h as object), score: undefined }));
    expect(unscored(hitsOf(index, "verify hmac signature", "v1"))).toEqual(unscored(before));
    expect(hitsOf(index, "ed25519", "v1")).toEqual([]);
    expect(hitsOf(index, "ed25519", "v2")).toEqual([{ path: "/v2/webhooks", anchor: "verify-signatures", score: 0.292, snippet: "Every delivery carries an Ed25519 signature header.", also: [] }]);
  });
});

describe("InvertedIndex.addPage with one sections array for several pages", () => {
  it("shares the section units; the last page removed takes them; a page added after that makes them anew", () => {
    const vocabulary = new Vocabulary();
    const index = new InvertedIndex(vocabulary);
    const ids = (words: string): Int32Array => Int32Array.from(words.split(" "), (w) => vocabulary.id(w));
    const sections = [ids("falcon ledge"), ids("heron")];
    const a = index.addPage(ids("alpha"), sections);
    const b = index.addPage(ids("beta"), sections);
    expect(b.sections).toEqual(a.sections);
    expect(index.removePage(a.page)).toEqual([]);
    expect(index.removePage(b.page)).toEqual(a.sections);
    expect(index.hasSection(a.sections[0] as number)).toBe(false);
    const c = index.addPage(ids("gamma"), sections);
    expect(c.sections).not.toEqual(a.sections);
    const falcon = index.entry("falcon") as TermEntry;
    expect(index.postings("sections").list(falcon.id).ids).toEqual([c.sections[0]]);
    expect(index.postings("pageSections").list(falcon.id).ids).toEqual([c.page]);
  });
});

describe("InvertedIndex text and title numbers (what ranking compares copies by)", () => {
  it("copies share their text's number and count its pages; equal titles share a number; both hold through removals and a restore", () => {
    const vocabulary = new Vocabulary();
    const index = new InvertedIndex(vocabulary);
    const ids = (words: string): Int32Array => Int32Array.from(words.split(" "), (w) => (w === "|" ? -1 : vocabulary.id(w)));
    const text = [ids("falcon ledge"), ids("heron")];
    const a = index.addPage(ids("webhooks | meta"), text);
    const b = index.addPage(ids("webhooks | other meta"), text);
    const c = index.addPage(ids("orders"), text);
    const d = index.addPage(ids("webhooks"), [ids("sparrow")]);
    const e = index.addPage(ids("empty"), []);
    const numbers = (x: InvertedIndex): unknown[] =>
      [a, b, c, d, e].map(({ page }) => (x.page(page) === undefined ? "gone" : { text: x.textKey(page), users: x.textUsers(x.textKey(page)), title: x.titleKey(page), last: x.textKey(page) >= 0 ? x.lastSection(page) : undefined }));
    const [t0, t1] = a.sections as [number, number];
    const sparrow = d.sections[0] as number;
    expect(numbers(index)).toEqual([
      { text: t0, users: 3, title: index.titleKey(a.page), last: t1 },
      { text: t0, users: 3, title: index.titleKey(a.page), last: t1 },
      { text: t0, users: 3, title: index.titleKey(c.page), last: t1 },
      { text: sparrow, users: 1, title: index.titleKey(a.page), last: sparrow },
      { text: -1 - e.page, users: 1, title: index.titleKey(e.page), last: undefined },
    ]);
    expect(new Set([a, c, e].map(({ page }) => index.titleKey(page))).size).toBe(3);
    index.removePage(b.page);
    const after = [
      { text: t0, users: 2, title: index.titleKey(a.page), last: t1 },
      "gone",
      { text: t0, users: 2, title: index.titleKey(c.page), last: t1 },
      { text: sparrow, users: 1, title: index.titleKey(a.page), last: sparrow },
      { text: -1 - e.page, users: 1, title: index.titleKey(e.page), last: undefined },
    ];
    expect(numbers(index)).toEqual(after);
    const restored = new InvertedIndex(vocabulary);
    restored.restore(index.state());
    // Numbers are the index's own: the restored one's tell the same copies and titles apart.
    const same = (x: InvertedIndex): boolean[] => [x.titleKey(a.page) === x.titleKey(d.page), x.titleKey(a.page) === x.titleKey(c.page), x.textKey(a.page) === x.textKey(c.page), x.textUsers(x.textKey(a.page)) === 2];
    expect(same(restored)).toEqual([true, false, true, true]);
    expect(same(index)).toEqual([true, false, true, true]);
  });
});

describe("InvertedIndex section units (kept in columns)", () => {
  it("keep each live section's terms through removals, the compaction that follows and a state taken and restored", () => {
    const vocabulary = new Vocabulary();
    const index = new InvertedIndex(vocabulary);
    const ids = (words: string): Int32Array => Int32Array.from(words.split(" "), (w) => (w === "|" ? -1 : vocabulary.id(w)));
    const words = (seq: Int32Array): string => [...seq].map((t) => (t === -1 ? "|" : vocabulary.term(t))).join(" ");
    const pages = Array.from({ length: 12 }, (_, i) => index.addPage(ids(`title${i}`), [ids(`head${i} | body${i} words | code${i}`), ids(`| more${i}`)]));
    // Removing most pages leaves holes in the sequences and triggers a compaction of the postings.
    for (const p of pages.slice(0, 9)) index.removePage(p.page);
    const kept = pages.slice(9);
    const expected = kept.map((p, k) => [`head${k + 9} | body${k + 9} words | code${k + 9}`, `| more${k + 9}`]);
    expect(kept.map((p) => p.sections.map((sid) => words(index.sectionSequence(sid))))).toEqual(expected);
    expect(pages.slice(0, 9).flatMap((p) => p.sections).some((sid) => index.hasSection(sid))).toBe(false);
    expect([...index.sectionFieldLengths.subarray((kept[0]?.sections[0] as number) * 3, (kept[0]?.sections[0] as number) * 3 + 3)]).toEqual([1, 2, 1]);
    const restored = new InvertedIndex(vocabulary);
    restored.restore(index.state());
    expect(kept.map((p) => p.sections.map((sid) => words(restored.sectionSequence(sid))))).toEqual(expected);
    // A page added after the restore appends its sections after the restored ones.
    const added = restored.addPage(ids("late"), [ids("late | section")]);
    expect(words(restored.sectionSequence(added.sections[0] as number))).toBe("late | section");
    expect(kept.map((p) => p.sections.map((sid) => words(restored.sectionSequence(sid))))).toEqual(expected);
  });
});
