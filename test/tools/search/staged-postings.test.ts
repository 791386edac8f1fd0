import { describe, expect, it } from "vitest";
import { InvertedIndex } from "../../../src/engine/search/inverted-index.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";

/**
 * What a build holds until its commit (issue 22): a page's section postings are staged as counts
 * and made again from the sections' term sequences at commit, and a text's summed postings are
 * held only for its copies. Staged as postings (two ids a section posting, every text's sums to
 * the end) they were ~370 MB at 50,000 distinct pages, held with the pools the commit made.
 */

const TERMS = 2000;

function indexOfTerms(): { index: InvertedIndex; vocabulary: Vocabulary } {
  const vocabulary = new Vocabulary();
  for (let t = 0; t < TERMS; t++) vocabulary.id(`t${t}`);
  return { index: new InvertedIndex(vocabulary), vocabulary };
}

/** Page `p`'s text: 10 sections of 100 terms, heading, body and code (a fixed pseudo-random walk). */
function sectionsOf(p: number): Int32Array[] {
  let x = p * 7919 + 1;
  const next = (): number => (x = (x * 48271) % 2147483647) % TERMS;
  return Array.from({ length: 10 }, () => Int32Array.from({ length: 104 }, (_, i) => (i === 4 || i === 94 ? -1 : next())));
}

describe("staged postings", () => {
  it("hold a few ids a page of its own text, not its sections' postings or sums; a copy holds its text's sums", () => {
    const { index } = indexOfTerms();
    const texts: Int32Array[][] = [];
    for (let p = 0; p < 1000; p++) {
      const sections = sectionsOf(p);
      texts.push(sections);
      index.addPage(Int32Array.of(p % TERMS), sections);
    }
    // ~950 distinct terms a page: ~1 M section postings and ~1 M summed ones, 20 MB as postings.
    const staged = index.stagedSectionBytes;
    expect(staged).toBeLessThan(64 * 1024);
    const before = index.stagedSectionBytes;
    index.addPage(Int32Array.of(1), texts[3] as Int32Array[]);
    const sumTerms = index.page(1000)?.shared.terms.length as number;
    expect(index.stagedSectionBytes - before).toBeGreaterThanOrEqual(8 * sumTerms);
    index.postings("sections");
    expect(index.stagedSectionBytes).toBe(0);
  });
});
