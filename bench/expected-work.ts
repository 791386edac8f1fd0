/**
 * What `SearchIndex.expectedWork` (the work a search is expected to make, which `CallerTurns`
 * weighs a ready search by) costs, and how near the work searches then make it is, on SITE:
 * printed, the first estimate after the index is built (it counts the units per version and
 * language, `ScopeSizes`), an estimate's mean time unfiltered and filtered to a version and
 * language over the query stream's first 400 questions, a search's mean time of each kind, and
 * over 160 searches (its first 40 questions, unfiltered or filtered, `pageSize` 3 or 50) the
 * estimates and the ratio of the work made to them (least, 10th percentile, median, 90th, most).
 *
 *   npx tsx bench/expected-work.ts SITE
 *
 * SITE: `npx tsx bench/large-site.ts versioned OUT --corpus ../shared/corpora/spree` (24,920 pages;
 * its versions are v1.1.0 to v1.35.0, its languages en, ar, ko, pt-BR).
 */
import { loadavg } from "node:os";
import { DocsRuntime } from "../src/engine/runtime.js";
import { searchDocs } from "../src/engine/use-cases/search-docs.js";
import { ANONYMOUS } from "../src/vfs/access.js";
import { requestContext } from "../src/vfs/request-context.js";
import { QueryStream } from "./query-stream.js";

const site = process.argv[2];
if (site === undefined) throw new Error("usage: expected-work.ts SITE");
const runtime = await DocsRuntime.load({ root: site, log: () => {}, searchCache: 0 });
await runtime.whenIndexed();
const context = () => ({ runtime, request: requestContext(ANONYMOUS, "public", Date.now, "203.0.113.1"), signal: new AbortController().signal });
const filter = (i: number) => ({ version: `v1.${1 + (i % 35)}.0`, language: "en" });

let t = performance.now();
runtime.expectedSearchWork({ query: "install", ...filter(0) });
const firstMs = performance.now() - t;
const stream = new QueryStream();
const questions = Array.from({ length: 400 }, (_, i) => stream.at(i));
for (const query of questions) runtime.expectedSearchWork({ query });
t = performance.now();
for (let r = 0; r < 10; r++) for (const query of questions) runtime.expectedSearchWork({ query });
const unfilteredMs = (performance.now() - t) / (10 * questions.length);
t = performance.now();
for (let r = 0; r < 10; r++) for (const [i, query] of questions.entries()) runtime.expectedSearchWork({ query, ...filter(i) });
const filteredMs = (performance.now() - t) / (10 * questions.length);
for (const query of questions.slice(0, 3)) await searchDocs(context(), { query, pageSize: 50 });
t = performance.now();
for (const query of questions.slice(3, 43)) await searchDocs(context(), { query, pageSize: 50 });
const searchUnfilteredMs = (performance.now() - t) / 40;
t = performance.now();
for (let i = 0; i < 200; i++) await searchDocs(context(), { query: `install ${i}`, pageSize: 3, version: "v1.35.0", language: "en" });
const searchFilteredMs = (performance.now() - t) / 200;

const made: { filtered: boolean; expected: number; work: number }[] = [];
for (const query of questions.slice(0, 40)) {
  for (const input of [{ query, pageSize: 50 }, { query, pageSize: 3, version: "v1.35.0", language: "en" }, { query, pageSize: 3 }, { query, pageSize: 50, version: "v1.35.0", language: "en" }]) {
    const expected = runtime.expectedSearchWork(input);
    const before = runtime.searchWork;
    await searchDocs(context(), input);
    made.push({ filtered: "version" in input, expected, work: runtime.searchWork - before });
  }
}
const spread = (xs: number[]): number[] => {
  const s = [...xs].sort((a, b) => a - b);
  return [0, 0.1, 0.5, 0.9].map((q) => s[Math.floor(s.length * q)] as number).concat(s[s.length - 1] as number);
};
const known = made.filter((m) => m.expected > 0);
console.log(
  JSON.stringify({
    site,
    firstEstimateMs: +firstMs.toFixed(2),
    estimateMs: { unfiltered: +unfilteredMs.toFixed(4), filtered: +filteredMs.toFixed(4) },
    searchMs: { unfilteredPageSize50: +searchUnfilteredMs.toFixed(1), filteredPageSize3: +searchFilteredMs.toFixed(2) },
    expected: { unfiltered: spread(known.filter((m) => !m.filtered).map((m) => m.expected)), filtered: spread(known.filter((m) => m.filtered).map((m) => m.expected)) },
    workToExpected: spread(known.map((m) => +(m.work / m.expected).toFixed(2))),
    expectedNothing: { searches: made.length - known.length, work: made.filter((m) => m.expected === 0).reduce((s, m) => s + m.work, 0) },
    load: loadavg().map((l) => l.toFixed(2)),
  }),
);
await runtime.close();
