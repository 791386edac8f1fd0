import { join, resolve } from "node:path";
import { loadSite } from "../src/vfs/load-site.js";
import { SearchIndex } from "../src/engine/search/search-index.js";
import type { Site } from "../src/vfs/site.js";
import { percentile } from "./bench.js";
import { QueryStream } from "./query-stream.js";
import { CORPORA_DIR, tenThousandPageSite } from "./search.bench.js";

/**
 * Search latency of this checkout against another one (a second worktree at another commit, its
 * `node_modules` linked), in one process: both indexes built over the same site, then each of
 * distinct questions searched by each in turn, the one going first alternating, so that
 * warm-up, garbage collection and the machine's load fall on both alike. On spree and on the
 * bench's 10,000-page site, no result cache, the query stream's distinct questions (each asked
 * once a round by each side).
 *
 *   npx tsx bench/search-ab.ts ../other-worktree [rounds] [--other-first] [--site DIR]... [--page-size N] [--queries N] [--warm-up N]
 *
 * `--site` searches the sites in those folders instead (`bench/large-site.ts` makes large ones);
 * `--page-size` asks for N results (default the tool's); `--queries` searches the stream's first N
 * questions only, after `--warm-up` rounds of them (default 3): a large site at page size 50 takes
 * a tenth of a second a search. Each search's time is the wall clock's
 * and the process's CPU time (`process.cpuUsage`), the latter less moved by other processes.
 *
 * The index built second searches 5-10% faster whichever code it runs (the same code on both
 * sides shows it), so run it both ways (`--other-first` builds the other checkout's first) and
 * read the pair.
 *
 * `--compare` also checks that both sides answer every question alike: each whole result list
 * (pages, sections with their text, scores, snippets, placements, other versions and languages)
 * of the warm-up's first round, at the page size asked and at 3 and 50, written out and compared
 * as strings; the differing questions are printed and the run fails.
 */

interface Searcher {
  sync(site: Site): unknown;
  search(req: { query: string; canRead: () => boolean; pageSize?: number }): unknown;
}

const args = process.argv.slice(2);
const siteDirs = args.flatMap((a, i) => (args[i - 1] === "--site" ? [a] : []));
const pageSizeArg = args.find((_, i) => args[i - 1] === "--page-size");
const pageSize = pageSizeArg === undefined ? undefined : Number(pageSizeArg);
const flagged = (name: string): number | undefined => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : Number(args[at + 1]);
};
const queryCount = flagged("--queries");
const warmUp = flagged("--warm-up") ?? 3;
const valued = new Set(["--site", "--page-size", "--queries", "--warm-up"]);
const compare = args.includes("--compare");
const other = args.find((a, i) => !a.startsWith("--") && !/^\d+$/.test(a) && !valued.has(args[i - 1] ?? ""));
if (other === undefined) throw new Error("usage: npx tsx bench/search-ab.ts <other checkout> [rounds] [--other-first]");
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && !valued.has(args[i - 1] ?? "")) ?? 10);
const otherFirst = args.includes("--other-first");
const { SearchIndex: OtherIndex } = (await import(resolve(other, "src/engine/search/search-index.ts"))) as { SearchIndex: new (o: { cachedResults: number }) => Searcher };

// Distinct questions (bench/query-stream.ts): every corpus's eval questions, as written and with an extra word.
const stream = new QueryStream();
const queries = Array.from({ length: queryCount ?? 2 * stream.questions.length }, (_, i) => stream.at(i));
const canRead = (): boolean => true;
const request = (query: string): { query: string; canRead: () => boolean; pageSize?: number } => (pageSize === undefined ? { query, canRead } : { query, canRead, pageSize });
const sites: [string, Site][] =
  siteDirs.length > 0
    ? await Promise.all(siteDirs.map(async (dir): Promise<[string, Site]> => [dir, (await loadSite(resolve(dir))).site]))
    : [
        ["10,000 pages", await tenThousandPageSite()],
        ["spree", (await loadSite(join(CORPORA_DIR, "spree"))).site],
      ];

for (const [name, site] of sites) {
  const sides: [string, Searcher][] = [
    [`other (${other})`, new OtherIndex({ cachedResults: 0 })],
    ["this checkout", new SearchIndex({ cachedResults: 0 })],
  ];
  for (const [, index] of otherFirst ? sides : [...sides].reverse()) index.sync(site);
  if (compare) {
    let differ = 0;
    let compared = 0;
    for (const size of [pageSize, 3, 50]) {
      for (const query of queries) {
        const req = size === undefined ? { query, canRead } : { query, canRead, pageSize: size };
        const [a, b] = sides.map(([, index]) => written(index.search(req)));
        compared++;
        if (a === b) continue;
        differ++;
        if (differ <= 10) console.log(`${name}: results differ for ${JSON.stringify(query)} (pageSize ${size ?? "default"})\n  other: ${a}\n  this:  ${b}`);
      }
    }
    console.log(`${name}: ${compared} searches compared whole, ${differ} differ`);
    if (differ > 0) process.exitCode = 1;
  }
  for (let i = 0; i < warmUp; i++) for (const query of queries) for (const [, index] of sides) index.search(request(query));
  const times = sides.map(() => queries.map((): number[] => []));
  const cpu = sides.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    queries.forEach((query, q) => {
      const first = (q + round) % 2;
      for (const s of [first, 1 - first]) {
        const c = process.cpuUsage();
        const t = performance.now();
        (sides[s] as [string, Searcher])[1].search(request(query));
        (times[s] as number[][])[q]?.push(performance.now() - t);
        const used = process.cpuUsage(c);
        (cpu[s] as number[]).push((used.user + used.system) / 1000);
      }
    });
  }
  sides.forEach(([label], s) => {
    const perQuery = times[s] as number[][];
    const all = perQuery.flat();
    const fastest = perQuery.map((v) => Math.min(...v));
    const mean = all.reduce((a, b) => a + b, 0) / all.length;
    const cpuTimes = cpu[s] as number[];
    console.log(
      `${name}${pageSize === undefined ? "" : `, pageSize ${pageSize}`}, ${label}: p50 ${percentile(all, 50).toFixed(3)} ms, p99 ${percentile(all, 99).toFixed(3)} ms, each question's fastest (median) ${percentile(fastest, 50).toFixed(3)} ms, mean ${mean.toFixed(3)} ms; CPU p50 ${percentile(cpuTimes, 50).toFixed(3)} ms, p99 ${percentile(cpuTimes, 99).toFixed(3)} ms, mean ${(cpuTimes.reduce((x, y) => x + y, 0) / cpuTimes.length).toFixed(3)} ms`,
    );
  });
}

/** A result list written out whole, for `--compare`: every field of every hit, twins included. */
function written(hits: unknown): string {
  const list = hits as readonly {
    page: { path: string; title: string };
    section: unknown;
    score: number;
    snippet: string;
    placement: unknown;
    otherVersions: readonly { page: { path: string }; placement: unknown; score: number }[];
    moreVersions: number;
    otherLanguages: readonly { page: { path: string }; placement: unknown; score: number }[];
    moreLanguages: number;
  }[];
  const twin = (t: { page: { path: string }; placement: unknown; score: number }): unknown => [t.page.path, t.placement, t.score];
  return JSON.stringify(
    list.map((h) => [h.page.path, h.page.title, h.section, h.score, h.snippet, h.placement, h.otherVersions.map(twin), h.moreVersions, h.otherLanguages.map(twin), h.moreLanguages]),
  );
}
