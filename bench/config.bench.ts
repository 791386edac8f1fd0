import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import { docsJson } from "../src/config/docs-json/schema.js";
import { formatNavTree } from "../src/config/docs-json/nav-format.js";
import { loadDocsJson } from "../src/config/load-docs-json.js";
import { checkSite } from "../src/vfs/check-site.js";
import { loadSite } from "../src/vfs/load-site.js";
import { siteNavigation } from "../src/vfs/site-nav.js";
import { type BenchRow, type BenchSuite, percentile, timeMany } from "./bench.js";

const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));
/** The largest shared corpus (428 pages, a 97 KB docs.json with two versions). */
const CORPUS = join(SHARED, "corpora/spree");
const RUNS = 15;
const TARGET_MS = 300;

/**
 * `svc-mcp check` plus `svc-mcp nav` on the largest shared corpus, each as the command runs it
 * (load the repository, validate / build the tree, format the output), beside the floor they
 * cannot go below: loading the repository alone (`loadSite`). Also docs.json validation alone,
 * beside a bare `JSON.parse` + zod parse with no positions and no rules.
 */
export const configBench: BenchSuite = {
  name: "config",
  run: async (log) => {
    log(`corpus: ${CORPUS}`);
    // Warm up the JIT and the file cache, as a second run of the command would find them.
    await checkSite(CORPUS);
    await siteNavigation(CORPUS);

    const check = await timeMany(RUNS, async () => {
      const r = await checkSite(CORPUS);
      if (r.errors !== 0) throw new Error(`check found ${r.errors} errors on ${CORPUS}`);
    });
    const nav = await timeMany(RUNS, async () => {
      const r = await siteNavigation(CORPUS);
      if (!r.ok) throw new Error("nav failed");
      formatNavTree(r.tree);
      JSON.stringify(r.tree);
    });
    const load = await timeMany(RUNS, () => loadSite(CORPUS));
    const docs = await timeMany(RUNS * 2, () => loadDocsJson(CORPUS));
    const bare = await timeMany(RUNS * 2, async () => docsJson.safeParse(JSON.parse(await readFile(join(CORPUS, "docs.json"), "utf8"))));

    const p50 = (xs: number[]) => percentile(xs, 50);
    const both = p50(check) + p50(nav);
    const loadP50 = p50(load);
    const rows: BenchRow[] = [
      { area: "config", metric: "check p50 (spree, 428 pages)", value: p50(check), unit: "ms", baseline: { name: "loadSite alone", value: loadP50 } },
      { area: "config", metric: "nav p50 (spree, text + JSON)", value: p50(nav), unit: "ms", baseline: { name: "loadSite alone", value: loadP50 } },
      {
        area: "config",
        metric: "check + nav (spree)",
        value: both,
        unit: "ms",
        baseline: { name: "2 x loadSite", value: 2 * loadP50 },
        target: `<= ${TARGET_MS} ms`,
        ok: both <= TARGET_MS,
      },
      {
        area: "config",
        metric: "docs.json load+validate p50 (spree, 97 KB)",
        value: p50(docs),
        unit: "ms",
        baseline: { name: "JSON.parse + zod, no positions/rules", value: p50(bare) },
      },
    ];
    return rows;
  },
};
