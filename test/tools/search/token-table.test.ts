import { describe, expect, it } from "vitest";
import { TokenTable } from "../../../src/engine/search/token-table.js";

/** The ids a table holds for an entry. */
function idsOf(table: TokenTable, entry: number): number[] {
  return [...table.ids.subarray(entry + 1, entry + 1 + (table.ids[entry] as number))];
}

describe("TokenTable", () => {
  it("finds each token added, by its characters, through growth; a hash collision is told apart", () => {
    const table = new TokenTable(1 << 20);
    const text = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(" ");
    const words = [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
    // Hash 7 for every token: only the characters tell them apart.
    words.forEach(({ start, end }, i) => table.add(text, start, end, 7, [i, i + 1]));
    expect(words.map(({ start, end }) => idsOf(table, table.find(text, start, end, 7)))).toEqual(words.map((_, i) => [i, i + 1]));
    expect(table.find("w9999", 0, 5, 7)).toBe(-1);
    expect(table.find("w1", 0, 2, 8)).toBe(-1);
  });

  it("starts afresh past its bound, and answers for what it holds after", () => {
    const table = new TokenTable(2000);
    const text = Array.from({ length: 5000 }, (_, i) => `t${i}`).join(" ");
    const words = [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
    words.forEach(({ start, end }, i) => table.add(text, start, end, i, []));
    const held = words.filter(({ start, end }, i) => table.find(text, start, end, i) !== -1).length;
    expect(held).toBeLessThan(words.length);
    const last = words.at(-1) as { start: number; end: number };
    expect(idsOf(table, table.find(text, last.start, last.end, words.length - 1))).toEqual([]);
  });
});
