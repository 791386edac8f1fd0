import { resolve } from "node:path";
import { loadSite } from "../src/vfs/load-site.js";
import { SearchIndex } from "../src/engine/search/search-index.js";
import { tenThousandPageSite } from "./search.bench.js";

/**
 * CPU per search of 1,000-character hostile queries (issue 25), beside a long and a short
 * question: each shape searched `reps` times, a new query each time (a seeded generator, so no
 * term was resolved before and the result cache is off), in process; median and max of the
 * process's CPU time per search (`process.cpuUsage`, less moved by other processes than the clock).
 *
 *   npx tsx bench/hostile-queries.ts [site dir | big[N]] [reps] [--code <checkout>]
 *
 * `big` is the bench's 10,000-page site (`big50000`: 50,000); `--code` searches with another
 * checkout's index (a worktree at the commit before), for an A/B.
 */
const args = process.argv.slice(2);
const code = args.find((_, i) => args[i - 1] === "--code");
const [where = "big", repsArg = "7"] = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--code");
const reps = Number(repsArg);
const Index = (code === undefined ? SearchIndex : ((await import(resolve(code, "src/engine/search/search-index.ts"))) as { SearchIndex: typeof SearchIndex }).SearchIndex) as typeof SearchIndex;
const site = where.startsWith("big") ? await tenThousandPageSite(Number(where.slice(3)) || 10_000) : (await loadSite(resolve(where))).site;
const index = new Index({ cachedResults: 0 });
index.sync(site);
index.search({ query: "warm up", canRead: () => true });

let seed = 12_345;
const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const word = (n: number): string => Array.from({ length: n }, () => pick([...LETTERS])).join("");
/** Words joined by spaces up to 1,000 characters, the longest query accepted. */
const fill = (make: () => string): string => {
  let q = make();
  for (let w = make(); q.length + w.length + 1 <= 1_000; w = make()) q += ` ${w}`;
  return q;
};
/** Common docs words, and 4-5 letter starts of them (each a prefix of many dictionary terms). */
const COMMON = "product order payment shipping promotion checkout customer address variant taxon store api storefront admin extension authentication webhook inventory stock price currency language configuration deployment database migration install upgrade theme search".split(" ");
const PREFIXES = "conf inst auth prod cust paym ship orde chec vari stor exte data migr depl curr lang inve appl cont requ resp para meth inte serv clie even sett opti vers deve confi insta authe produ custo payme shipp check varia stora exten datab migra deplo curre langu inven appli conte reque respo param metho integ servi clien event setti optio versi devel".split(" ");
const typo = (w: string): string => {
  const at = 1 + Math.floor(random() * (w.length - 1));
  return w.slice(0, at) + pick([...LETTERS]) + w.slice(at + 1);
};
const SHAPES: Record<string, () => string> = {
  "single letters": () => fill(() => pick([...LETTERS])),
  "one 1,000-letter word": () => word(1_000),
  "distinct 2-letter words": () => fill(() => word(2)),
  "distinct 9-letter words": () => fill(() => word(9)),
  "common words, one letter changed": () => fill(() => typo(pick(COMMON))),
  "common words": () => fill(() => pick(COMMON) + (random() < 0.5 ? "s" : "")),
  numbers: () => fill(() => String(Math.floor(random() * 1_000))),
  "word starts (prefixes)": () => fill(() => pick(PREFIXES)),
  "long question (22 terms)": () => `I use Cursor and want my coding agent to call the scraping tools over the Model Context Protocol with my API key from the dashboard, ${word(4)}`,
  "short question": () => `how do I create a promotion with a coupon code ${word(3)}`,
};
console.log(`${where}: ${index.pageCount} pages, ${reps} searches a shape, CPU ms per search (median / max)`);
for (const [name, make] of Object.entries(SHAPES)) {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const query = make();
    const start = process.cpuUsage();
    index.search({ query, canRead: () => true });
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(34)} ${(times[Math.floor(times.length / 2)] as number).toFixed(1).padStart(7)} / ${(times[times.length - 1] as number).toFixed(1)}`);
}
