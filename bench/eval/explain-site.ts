import { SearchIndex } from "../../src/engine/search/search-index.js";
import { loadSite } from "../../src/vfs/load-site.js";

// `npx tsx bench/eval/explain-site.ts SITE_DIR "query" /wanted ["query2" /wanted2 ...]`: a tuning
// aid for any site directory (the external tune sites): each query's top 8 with section and
// score, and the rank and score of the wanted page.
const [dir, ...rest] = process.argv.slice(2);
const { site } = await loadSite(dir as string);
const index = new SearchIndex();
index.sync(site);
for (let i = 0; i + 1 < rest.length; i += 2) {
  const [query, want] = [rest[i] as string, rest[i + 1] as string];
  const hits = index.search({ query, pageSize: 50, canRead: () => true });
  console.log(`\n"${query}"`);
  hits.forEach((h, r) => {
    if (r < 8 || h.page.path === want) console.log(`${r === hits.findIndex((x) => x.page.path === want) ? "*" : " "}${String(r + 1).padStart(2)} ${h.score.toFixed(3)} ${h.page.path} › ${h.section.heading} | ${h.page.title}`);
  });
}
