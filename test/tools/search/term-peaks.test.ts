import { describe, expect, it } from "vitest";
import { FIELDS_PER_UNIT, InvertedIndex, type TermEntry } from "../../../src/engine/search/inverted-index.js";
import { weightedTf, weightedWideTf } from "../../../src/engine/search/postings-codec.js";
import { RANKING } from "../../../src/engine/search/ranking.js";
import { BaseStatistics } from "../../../src/engine/search/statistics.js";
import { TermPeaks } from "../../../src/engine/search/term-peaks.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";

/**
 * The bound of one section that ranking's pruning reads per summed posting (issue 23): a term's
 * largest frequency in one of the page's sections, not its sections' sum at the page's largest
 * section scale, which counted "falcon" three times in a page whose sections hold it once each.
 */
describe("TermPeaks.sections", () => {
  it("is, per summed posting, the term's largest weighted frequency in one of that page's sections, copies included", () => {
    const vocabulary = new Vocabulary();
    const index = new InvertedIndex(vocabulary);
    const ids = (words: string): Int32Array => Int32Array.from(words.split(" "), (w) => vocabulary.id(w));
    const text = [ids("falcon ledge"), ids("falcon heron heron"), ids("falcon falcon sparrow wren")];
    const a = index.addPage(ids("alpha"), text);
    const b = index.addPage(ids("beta"), text);
    const c = index.addPage(ids("gamma"), [ids("falcon")]);
    index.addPage(ids("delta"), [ids("heron")]);
    index.prepare();
    const scales = new BaseStatistics(index).scales(RANKING);
    const falcon = index.entry("falcon") as TermEntry;
    const sums = index.postings("pageSections").list(falcon.id);
    expect(sums.ids).toEqual([a.page, b.page, c.page]);
    // Each section's weighted frequency, read from the section postings.
    const sections = index.postings("sections").list(falcon.id);
    const inSection = new Map(sections.ids.map((sid, k) => [sid, weightedTf(sections.tf[k] as number, scales.section, sid * FIELDS_PER_UNIT)]));
    const best = (sids: readonly number[]): number => Math.max(...sids.map((sid) => inSection.get(sid) ?? 0));
    const peaks = new TermPeaks().sections(index, scales, falcon);
    // Kept in single precision (half the memory), each rounded up: a bound is never below.
    expect([...peaks]).toEqual([best(a.sections), best(b.sections), best(c.sections)].map(roundedUp));
    // Tighter than the bound it replaces on the page of three sections, equal on the page of one.
    const before = sums.ids.map((pid, k) => weightedWideTf(sums.tf[k] as number, scales.sectionMax, pid * FIELDS_PER_UNIT));
    expect((peaks[0] as number) < (before[0] as number)).toBe(true);
    expect(peaks[2]).toBe(roundedUp(before[2] as number));
  });

  it("gives the largest of a term's section peaks (sectionPeak), the bound of one section rankPages' reach reads", () => {
    const vocabulary = new Vocabulary();
    const index = new InvertedIndex(vocabulary);
    const ids = (words: string): Int32Array => Int32Array.from(words.split(" "), (w) => vocabulary.id(w));
    index.addPage(ids("alpha"), [ids("falcon ledge"), ids("falcon falcon heron")]);
    index.addPage(ids("beta"), [ids("falcon"), ids("falcon wren"), ids("falcon sparrow")]);
    index.addPage(ids("gamma"), [ids("heron")]);
    index.prepare();
    const scales = new BaseStatistics(index).scales(RANKING);
    const [falcon, gamma] = ["falcon", "gamma"].map((w) => index.entry(w) as TermEntry) as [TermEntry, TermEntry];
    const peaks = new TermPeaks();
    expect(peaks.sectionPeak(index, scales, falcon)).toBe(Math.max(...peaks.sections(index, scales, falcon)));
    // Below the summed bound it tightens (the page of three sections holding it once each).
    expect(peaks.sectionPeak(index, scales, falcon) < (peaks.of(index, scales, falcon)[2] as number)).toBe(true);
    // A word only in a title has no section peaks.
    expect(peaks.sectionPeak(index, scales, gamma)).toBe(0);
  });

  it("past its budget forgets the least recently used terms' peaks, not all of them", () => {
    const vocabulary = new Vocabulary();
    const index = new InvertedIndex(vocabulary);
    const ids = (words: string): Int32Array => Int32Array.from(words.split(" "), (w) => vocabulary.id(w));
    for (const title of ["one", "two", "three"]) index.addPage(ids(title), [ids("falcon heron wren")]);
    index.prepare();
    const scales = new BaseStatistics(index).scales(RANKING);
    const [falcon, heron, wren] = ["falcon", "heron", "wren"].map((w) => index.entry(w) as TermEntry) as [TermEntry, TermEntry, TermEntry];
    // Three numbers a term (one per page), eight kept at most (six once past it).
    const peaks = new TermPeaks(8);
    const first = { falcon: peaks.sections(index, scales, falcon), heron: peaks.sections(index, scales, heron) };
    peaks.sections(index, scales, falcon);
    peaks.sections(index, scales, wren);
    // Past 8: heron, the least recently used, is forgotten; falcon, used since, is kept.
    expect([peaks.sections(index, scales, falcon) === first.falcon, peaks.sections(index, scales, heron) === first.heron]).toEqual([true, false]);
  });
});

/** The least single-precision number at or above `x` (>= 0). */
function roundedUp(x: number): number {
  const f = Math.fround(x);
  if (f >= x) return f;
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, f);
  view.setUint32(0, view.getUint32(0) + 1);
  return view.getFloat32(0);
}
