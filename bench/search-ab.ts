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
 *   npx tsx bench/search-ab.ts ../other-worktree [rounds] [--other-first] [--site DIR]...
 *
 * `--site` searches the sites in those folders instead (`bench/large-site.ts` makes large ones).
 *
 * The index built second searches 5-10% faster whichever code it runs (the same code on both
 * sides shows it), so run it both ways (`--other-first` builds the other checkout's first) and
 * read the pair.
 */

interface Searcher {
  sync(site: Site): unknown;
  search(req: { query: string; canRead: () => boolean }): unknown;
}

const args = process.argv.slice(2);
const siteDirs = args.flatMap((a, i) => (args[i - 1] === "--site" ? [a] : []));
const other = args.find((a, i) => !a.startsWith("--") && !/^\d+$/.test(a) && args[i - 1] !== "--site");
if (other === undefined) throw new Error("usage: npx tsx bench/search-ab.ts <other checkout> [rounds] [--other-first]");
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 10);
const otherFirst = args.includes("--other-first");
const { SearchIndex: OtherIndex } = (await import(resolve(other, "src/engine/search/search-index.ts"))) as { SearchIndex: new (o: { cachedResults: number }) => Searcher };

// Distinct questions (bench/query-stream.ts): every corpus's eval questions, as written and with an extra word.
const stream = new QueryStream();
const queries = Array.from({ length: 2 * stream.questions.length }, (_, i) => stream.at(i));
const canRead = (): boolean => true;
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
  for (let i = 0; i < 3; i++) for (const query of queries) for (const [, index] of sides) index.search({ query, canRead });
  const times = sides.map(() => queries.map((): number[] => []));
  for (let round = 0; round < rounds; round++) {
    queries.forEach((query, q) => {
      const first = (q + round) % 2;
      for (const s of [first, 1 - first]) {
        const t = performance.now();
        (sides[s] as [string, Searcher])[1].search({ query, canRead });
        (times[s] as number[][])[q]?.push(performance.now() - t);
      }
    });
  }
  sides.forEach(([label], s) => {
    const perQuery = times[s] as number[][];
    const all = perQuery.flat();
    const fastest = perQuery.map((v) => Math.min(...v));
    const mean = all.reduce((a, b) => a + b, 0) / all.length;
    console.log(`${name}, ${label}: p50 ${percentile(all, 50).toFixed(3)} ms, p99 ${percentile(all, 99).toFixed(3)} ms, each question's fastest (median) ${percentile(fastest, 50).toFixed(3)} ms, mean ${mean.toFixed(3)} ms`);
  });
}
