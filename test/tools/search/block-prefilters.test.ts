import { describe, expect, it } from "vitest";
import { withReferenceListItems } from "../../../src/engine/search/reference-lists.js";
import { splitSections } from "../../../src/engine/search/sections.js";
import { withTableRows } from "../../../src/engine/search/table-rows.js";
import { holdsAtLeast } from "../../../src/engine/search/text-scan.js";

/**
 * Long tables and reference lists are looked for only in a section holding enough pipes or
 * backticks to make one (issue 22: reading every section line by line was ~8% of analysing a
 * page). The fewest a table or a list can be written with still make one.
 */
describe("the pipes and backticks a long table or reference list needs", () => {
  it("counts a character within a range, stopping at the count asked for", () => {
    expect([0, 1, 2, 3, 4].map((n) => holdsAtLeast("a|b|c|", "|", 0, 6, n))).toEqual([true, true, true, true, false]);
    // Within [start, end) only: the pipe at 5 is past 5.
    expect([1, 2, 3].map((n) => holdsAtLeast("a|b|c|", "|", 1, 5, n))).toEqual([true, true, false]);
    expect(holdsAtLeast("", "|", 0, 0, 1)).toBe(false);
  });

  // A section whose text is all units keeps one empty unit after them, its heading's (as before).
  it("splits a table written with the fewest pipes a long one can have (eleven) into its rows", () => {
    const rows = Array.from({ length: 8 }, (_, i) => `| row${i}`);
    const body = ["## Options", "", "| name", "|---|", ...rows, ""].join("\n");
    expect(withTableRows(body, splitSections(body)).map((s) => s.text)).toEqual([...rows.map((_, i) => `row${i}`), ""]);
  });

  it("splits a list of eight items with one code span each (sixteen backticks) into its items", () => {
    const items = Array.from({ length: 8 }, (_, i) => `- \`CODE_${i}\``);
    const body = ["## Codes", "", ...items, ""].join("\n");
    expect(withReferenceListItems(body, splitSections(body)).map((s) => s.text)).toEqual([...items.map((_, i) => `CODE_${i}`), ""]);
    // Seven items are no list: the section stays whole.
    const seven = ["## Codes", "", ...items.slice(0, 7), ""].join("\n");
    expect(withReferenceListItems(seven, splitSections(seven)).map((s) => s.text)).toEqual([items.slice(0, 7).map((_, i) => `CODE_${i}`).join("\n")]);
  });
});
