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

  it("holds the sequences of room reserved before the pages in that one array, and states them as an index that grew", () => {
    const vocabulary = new Vocabulary();
    for (const t of ["a", "b", "c", "d", "e"]) vocabulary.id(t);
    const index = new InvertedIndex(vocabulary);
    // What `indexOf3`'s sections take: 2 + 3, 1, 3 + 0 slots.
    index.reserveSequences(9);
    index.addPage(seq(0), [seq(0, 1), seq(-1, 2, 2)]);
    const buffer = index.sectionSequence(0).buffer;
    expect(buffer.byteLength).toBe(9 * 4);
    index.addPage(seq(1), [seq(3)]);
    index.addPage(seq(2), [seq(4, -1, 0), seq()]);
    expect(index.sectionSequence(4).buffer).toBe(buffer);
    const s = index.state().sectionUnits;
    const grown = indexOf3().state().sectionUnits;
    expect({ sequences: [...s.sequences], ends: [...s.ends], page: [...s.page], lengths: [...s.lengths] }).toEqual({ sequences: [...grown.sequences], ends: [...grown.ends], page: [...grown.page], lengths: [...grown.lengths] });
    expect([...s.sequences]).toEqual([0, 1, -1, 2, 2, 3, 4, -1, 0]);
  });

  it("grows past the room reserved when more comes than was reserved", () => {
    const vocabulary = new Vocabulary();
    for (const t of ["a", "b", "c", "d", "e"]) vocabulary.id(t);
    const index = new InvertedIndex(vocabulary);
    index.reserveSequences(3);
    index.addPage(seq(0), [seq(0, 1), seq(-1, 2, 2)]);
    index.addPage(seq(1), [seq(3)]);
    expect([...index.state().sectionUnits.sequences]).toEqual([0, 1, -1, 2, 2, 3]);
    expect([...index.sectionSequence(1)]).toEqual([-1, 2, 2]);
  });
});
