import { describe, expect, it } from "vitest";
import { InvertedIndex } from "../../../src/engine/search/inverted-index.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";

/**
 * The index's section units as the persistent cache stores them (`InvertedIndex.state`): with no
 * section removed, the term sequences are the index's own blocks, not a copy (a copy held 160 MB
 * more while a 50,000-page site's cache was written, issue 22); with holes, a copy without them.
 * Either way each section's sequence coded as bytes (`SequenceStore`), at its start and end.
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

  function sections(index: InvertedIndex, count: number): number[][] {
    return Array.from({ length: count }, (_, id) => [...index.sectionSequence(id)]);
  }

  it("is a view of the index's blocks when no section was removed", () => {
    const index = indexOf3();
    const s = index.state().sectionUnits;
    // Each id + 1, one byte each below 128 (0: a field mark).
    expect({ count: s.count, blocks: s.sequences.blocks.map((b) => [...b]), starts: [...s.sequences.starts], ends: [...s.sequences.ends], page: [...s.page] }).toEqual({
      count: 5,
      blocks: [[1, 2, 0, 3, 3, 4, 5, 0, 1]],
      starts: [0, 2, 5, 6, 9],
      ends: [2, 5, 6, 9, 9],
      page: [0, 0, 1, 2, 2],
    });
    expect(sections(index, 5)).toEqual([[0, 1], [-1, 2, 2], [3], [4, -1, 0], []]);
    const restored = new InvertedIndex(new Vocabulary());
    restored.restore(index.state());
    expect(sections(restored, 5)).toEqual(sections(index, 5));
  });

  it("is a copy without the removed sections' holes once one was removed", () => {
    const index = indexOf3();
    // Enough postings that removing page 1 leaves its hole (under a third dead: no compaction).
    for (let k = 0; k < 3; k++) index.addPage(seq(0, 1, 2, 3, 4), [seq(0, 1, 2, 3, 4)]);
    index.removePage(1);
    const s = index.state().sectionUnits;
    expect({ count: s.count, blocks: s.sequences.blocks.map((b) => [...b]), starts: [...s.sequences.starts], ends: [...s.sequences.ends], page: [...s.page] }).toEqual({
      count: 8,
      blocks: [[1, 2, 0, 3, 3, 5, 0, 1, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5]],
      starts: [0, 2, 5, 5, 8, 8, 13, 18],
      ends: [2, 5, 5, 8, 8, 13, 18, 23],
      page: [0, 0, -1, 2, 2, 3, 4, 5],
    });
    // The index itself keeps its hole until it compacts, and answers the same.
    expect(sections(index, 8).filter((_, id) => id !== 2)).toEqual([[0, 1], [-1, 2, 2], [4, -1, 0], [], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]);
    const restored = new InvertedIndex(new Vocabulary());
    restored.restore(index.state());
    expect(sections(restored, 8)).toEqual([[0, 1], [-1, 2, 2], [], [4, -1, 0], [], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]);
  });
});
