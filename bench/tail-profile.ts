import { join, resolve } from "node:path";
import { loadSite } from "../src/vfs/load-site.js";
import { SearchIndex } from "../src/engine/search/search-index.js";
import { QueryStream } from "./query-stream.js";
import { CORPORA_DIR, tenThousandPageSite } from "./search.bench.js";

/**
 * CPU time of one index's searches over the query stream's distinct questions, and the slowest
 * 5% of them searched again on their own (for `node --cpu-prof` on the tail, issue 23):
 *
 *   npx tsx bench/tail-profile.ts [--site DIR | --ten-thousand] [--tail-rounds N]
 */
const args = process.argv.slice(2);
const dir = args[args.indexOf("--site") + 1];
const tailRounds = Number(args[args.indexOf("--tail-rounds") + 1] ?? 20) || 20;
const site = args.includes("--ten-thousand") ? await tenThousandPageSite() : (await loadSite(args.includes("--site") && dir !== undefined ? resolve(dir) : join(CORPORA_DIR, "spree"))).site;
const index = new SearchIndex({ cachedResults: 0 });
index.sync(site);
const stream = new QueryStream();
const queries = Array.from({ length: 2 * stream.questions.length }, (_, i) => stream.at(i));
const canRead = (): boolean => true;
for (const query of queries) index.search({ query, canRead });
const cpu = queries.map((query) => {
  const c = process.cpuUsage();
  index.search({ query, canRead });
  const used = process.cpuUsage(c);
  return (used.user + used.system) / 1000;
});
const order = queries.map((_, i) => i).sort((a, b) => (cpu[b] as number) - (cpu[a] as number));
const tail = order.slice(0, Math.ceil(queries.length / 20)).map((i) => queries[i] as string);
console.log(`${queries.length} questions; slowest 5%: ${tail.length}, from ${(cpu[order[tail.length - 1] as number] as number).toFixed(2)} ms`);
const c = process.cpuUsage();
for (let r = 0; r < tailRounds; r++) for (const query of tail) index.search({ query, canRead });
const used = process.cpuUsage(c);
console.log(`tail: ${((used.user + used.system) / 1000 / (tailRounds * tail.length)).toFixed(3)} ms CPU a search`);
