import { describe, expect, it } from "vitest";
import { InvertedIndex } from "../../../src/engine/search/inverted-index.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";

/**
 * The index's section units as the persistent cache stores them (`InvertedIndex.state`): with no
 * section removed, the term sequences are the index's own array, not a copy (a copy held 160 MB
 * more while a 50,000-page site's cache was written, issue 22); with holes, a copy without them.
 * Either way the same sequences in id order, each ending at `ends[id]`.
 */
describe("section units state", () => {
  const seq = (...ids: number[]): Int32Array => Int32Array.from(ids);

  function indexOf3(): InvertedIndex {
    const vocabulary = new Vocabulary();
    for (const t of ["a", "b", "c", "d", "e"]) vocabulary.id(t);
    const index = new InvertedIndex(vocabulary);
    index.addPage(seq(0), [seq(0, 1), seq(-1, 2, 2)]);
    index.addPage(seq(1), [seq(3)]);
    index.addPage(seq(2), [seq(4, -1, 0), seq()]);
    return index;
  }

  it("is a view of the index's sequences when no section was removed", () => {
    const index = indexOf3();
    const s = index.state().sectionUnits;
    expect({ count: s.count, sequences: [...s.sequences], ends: [...s.ends], page: [...s.page] }).toEqual({
      count: 5,
      sequences: [0, 1, -1, 2, 2, 3, 4, -1, 0],
      ends: [2, 5, 6, 9, 9],
      page: [0, 0, 1, 2, 2],
    });
    expect(s.sequences.buffer).toBe(index.sectionSequence(0).buffer);
  });

  it("is a copy without the removed sections' holes once one was removed", () => {
    const index = indexOf3();
    // Enough postings that removing page 1 leaves its hole (under a third dead: no compaction).
    for (let k = 0; k < 3; k++) index.addPage(seq(0, 1, 2, 3, 4), [seq(0, 1, 2, 3, 4)]);
    index.removePage(1);
    const s = index.state().sectionUnits;
    expect({ count: s.count, sequences: [...s.sequences], ends: [...s.ends], page: [...s.page] }).toEqual({
      count: 8,
      sequences: [0, 1, -1, 2, 2, 4, -1, 0, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4],
      ends: [2, 5, 5, 8, 8, 13, 18, 23],
      page: [0, 0, -1, 2, 2, 3, 4, 5],
    });
    expect(s.sequences.buffer).not.toBe(index.sectionSequence(0).buffer);
  });
});
