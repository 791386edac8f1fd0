import { describe, expect, it } from "vitest";
import { InvertedIndex, type TermEntry } from "../../../src/engine/search/inverted-index.js";
import { packWideTf } from "../../../src/engine/search/postings-codec.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";

/**
 * A page's frequencies summed over its sections are held as small integers when each fits 10
 * bits, and past that in the pool's overflow (issue 22: a double per posting was 121 MB of a
 * 50,000-page index). Either way they read back as the same sums, through the first build,
 * a copy's shared sums, an edit's compaction and the persistent cache's state.
 */
describe("summed section frequencies past a small integer", () => {
  const words = (word: string, n: number): string => Array.from({ length: n }, () => word).join(" ");

  function build(): { index: InvertedIndex; vocabulary: Vocabulary; pages: number[] } {
    const vocabulary = new Vocabulary();
    const index = new InvertedIndex(vocabulary);
    const ids = (text: string): Int32Array => Int32Array.from(text.split(" "), (w) => vocabulary.id(w));
    // A section's sequence is `heading -1 body -1 code`: these are bodies.
    const body = (text: string): Int32Array => Int32Array.of(-1, ...ids(text));
    // Three sections of 700 "falcon" each: 2,100 in the page's sum, past the 1,023 a field packs.
    const big = [body(words("falcon", 700)), body(`${words("falcon", 700)} heron`), body(words("falcon", 700))];
    const pages = [
      index.addPage(ids("alpha"), big).page,
      index.addPage(ids("beta"), [body("falcon heron heron")]).page,
      // A copy of the first text: its page takes the text's sums, not sections of its own.
      index.addPage(ids("gamma"), big).page,
    ];
    return { index, vocabulary, pages };
  }

  it("reads back each page's sums exactly, big or small, copies included", () => {
    const { index, pages } = build();
    const [alpha, beta, gamma] = pages as [number, number, number];
    const falcon = index.entry("falcon") as TermEntry;
    const heron = index.entry("heron") as TermEntry;
    const pool = index.postings("pageSections");
    expect(pool.list(falcon.id)).toEqual({ ids: [alpha, beta, gamma], tf: [packWideTf(0, 2100, 0), packWideTf(0, 1, 0), packWideTf(0, 2100, 0)] });
    expect(pool.list(heron.id)).toEqual({ ids: [alpha, beta, gamma], tf: [packWideTf(0, 1, 0), packWideTf(0, 2, 0), packWideTf(0, 1, 0)] });
    // The two big sums went to the overflow; the small ones are held in place.
    expect([...pool.state().overflow]).toEqual([packWideTf(0, 2100, 0), packWideTf(0, 2100, 0)]);
    const falconValues = [...pool.values.subarray(pool.start[falcon.id], (pool.start[falcon.id] as number) + 3)];
    expect(falconValues.map((v) => v < 0)).toEqual([true, false, true]);
  });

  it("keeps them through a removal's compaction and the cache's state", () => {
    const { index, vocabulary, pages } = build();
    // The first page's sums, and the second page with its sections: a third of the postings.
    index.removePage(pages[0] as number);
    index.removePage(pages[1] as number);
    const falcon = index.entry("falcon") as TermEntry;
    const pool = index.postings("pageSections");
    // Compacted: the removed page's overflow went with its postings.
    expect([...pool.state().overflow]).toEqual([packWideTf(0, 2100, 0)]);
    const after = pool.list(falcon.id);
    expect(after).toEqual({ ids: [pages[2]], tf: [packWideTf(0, 2100, 0)] });
    const restored = new InvertedIndex(vocabulary);
    restored.restore(index.state());
    expect(restored.postings("pageSections").list(falcon.id)).toEqual(after);
  });
});
