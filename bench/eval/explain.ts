import { join } from "node:path";
import { SearchIndex } from "../../src/engine/search/search-index.js";
import { loadSite } from "../../src/vfs/load-site.js";

// `npx tsx bench/eval/explain.ts CORPUS "query" [/page/path ...]`: a tuning aid showing the
// resolved query terms and the ranked pages with their scores.
const [corpus, query, ...watch] = process.argv.slice(2);
const corpora = new URL("../../../shared/corpora", import.meta.url).pathname;
const { site } = await loadSite(join(corpora, corpus as string));
const index = new SearchIndex();
index.sync(site);
const hits = index.search({ query: query as string, pageSize: 50, canRead: () => true });
const internals = index as unknown as { analyzer: { terms(s: string): string[] }; index: unknown };
console.log("terms:", internals.analyzer.terms(query as string).join(" "));
hits.forEach((h, i) => {
  if (i < 10 || watch.includes(h.page.path)) console.log(`${String(i + 1).padStart(2)} ${h.score.toFixed(3)} ${h.page.path}  › ${h.section.heading}`);
});
