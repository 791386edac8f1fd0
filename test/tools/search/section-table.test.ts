import { describe, expect, it } from "vitest";
import { sectionAt, sectionCount, sectionTable, type StoredSection } from "../../../src/engine/search/section-table.js";
import { splitSections } from "../../../src/engine/search/sections.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A body's sections are kept as one table (an `Int32Array` and one string) instead of an object
 * per section with its own strings (issue 22): what a hit shows of a section is read back from
 * it exactly as it was split.
 */

const stored = (body: string): StoredSection[] => splitSections(body).map(({ heading, parents, anchor, start, end }) => ({ heading, parents, anchor, start, end }));
const readBack = (sections: readonly StoredSection[]): StoredSection[] => {
  const table = sectionTable(sections);
  return Array.from({ length: sectionCount(table) }, (_, k) => sectionAt(table, k));
};

describe("a section table", () => {
  it("holds the sections' columns, the parents as heading numbers, and the strings one after another", () => {
    const body = "Intro text.\n\n# Guide\n\n## Install\n\nRun it.\n\n### On Linux\n\napt install.\n\n## Install\n\nAgain.\n";
    const table = sectionTable(stored(body));
    // 5 sections, 10 strings; per section start, end and where its parents end; parents
    // (Guide = string 2, Install = 4 then the second Install = 8); where each string ends.
    expect([...table.ints]).toEqual([5, 10, 0, 12, 0, 21, 21, 0, 33, 42, 1, 56, 70, 3, 82, 90, 4, 2, 2, 4, 2, 0, 0, 5, 10, 17, 24, 32, 40, 47, 56]);
    expect(table.strings).toBe("GuideguideInstallinstallOn Linuxon-linuxInstallinstall-1");
    expect(readBack(stored(body))).toEqual([
      { heading: "", parents: [], anchor: "", start: 0, end: 12 },
      { heading: "Guide", parents: [], anchor: "guide", start: 21, end: 21 },
      { heading: "Install", parents: ["Guide"], anchor: "install", start: 33, end: 42 },
      { heading: "On Linux", parents: ["Guide", "Install"], anchor: "on-linux", start: 56, end: 70 },
      { heading: "Install", parents: ["Guide"], anchor: "install-1", start: 82, end: 90 },
    ]);
  });

  it("keeps a parent that is no section's heading, text past Latin-1, and no sections at all", () => {
    const sections: StoredSection[] = [
      { heading: "Überblick → Start", parents: ["", "Kapitel"], anchor: "überblick--start", start: 4, end: 9 },
      { heading: "日本語", parents: ["Kapitel", "Überblick → Start"], anchor: "日本語", start: 12, end: 30 },
    ];
    expect(readBack(sections)).toEqual(sections);
    expect([...sectionTable(sections).ints]).toEqual([2, 6, 4, 9, 2, 12, 30, 4, 4, 5, 5, 0, 17, 33, 36, 39, 39, 46]);
    expect(readBack([])).toEqual([]);
    expect([...sectionTable([]).ints]).toEqual([0, 0]);
  });

  it("gives a search hit its heading, parents and anchor as split", () => {
    const page = "---\ntitle: Setup\n---\n# Setup\n\n## Install the CLI\n\n### Verify the signature\n\nCheck the HMAC signature header.\n";
    const index = new SearchIndex();
    index.sync(inlineSite({ "/setup.mdx": page }));
    const [hit] = index.search({ query: "verify hmac signature", canRead: () => true });
    expect(hit?.section).toEqual({ heading: "Verify the signature", parents: ["Setup", "Install the CLI"], anchor: "verify-the-signature", text: "Check the HMAC signature header." });
  });
});
