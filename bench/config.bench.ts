import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatNavTree } from "../src/config/docs-json/nav-format.js";
import { docsJson } from "../src/config/docs-json/schema.js";
import { loadDocsJson } from "../src/config/load-docs-json.js";
import { openSpecCache } from "../src/config/openapi/spec-cache.js";
import { checkSite } from "../src/vfs/check-site.js";
import { loadSite, type LoadSiteOptions } from "../src/vfs/load-site.js";
import { siteNavigation } from "../src/vfs/site-nav.js";
import { type BenchRow, type BenchSuite, percentile, timeMany } from "./bench.js";
import { userSeal } from "./user-seal.js";

const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));
/** The largest shared corpus: 428 pages, a 97 KB docs.json with two versions, four OpenAPI specs. */
const CORPUS = join(SHARED, "corpora/spree");
const TARGET_MS = 300;

const p50 = (xs: number[]): number => percentile(xs, 50);

/**
 * `svc-mcp check` and `svc-mcp nav` as the commands run them (load, validate / build, format),
 * and `loadSite` alone. Interleaved in each round, so that the three see the same machine load.
 */
async function checkAndNav(runs: number, load: LoadSiteOptions): Promise<{ check: number; nav: number; load: number }> {
  // Warm up the JIT and the file cache, as a second run of the command would find them.
  await checkSite(CORPUS, { load });
  await siteNavigation(CORPUS, { load });
  const check: number[] = [];
  const nav: number[] = [];
  const loadOnly: number[] = [];
  for (let i = 0; i < runs; i++) {
    check.push(
      ...(await timeMany(1, async () => {
        const r = await checkSite(CORPUS, { load });
        if (r.errors !== 0) throw new Error(`check found ${r.errors} errors on ${CORPUS}`);
      })),
    );
    nav.push(
      ...(await timeMany(1, async () => {
        const r = await siteNavigation(CORPUS, { load });
        if (!r.ok) throw new Error("nav failed");
        formatNavTree(r.tree);
        JSON.stringify(r.tree);
      })),
    );
    loadOnly.push(...(await timeMany(1, () => loadSite(CORPUS, () => {}, undefined, load))));
  }
  return { check: p50(check), nav: p50(nav), load: p50(loadOnly) };
}

/**
 * `check` plus `nav` on the largest shared corpus, beside the floor they cannot go below: loading
 * the repository (`loadSite`) once per command. Measured twice: the docs.json and navigation
 * work (API reference left out), which is this suite's target, and the commands as shipped,
 * where loading and validating spree's four OpenAPI specs (706 generated pages) dominates; that
 * cost is the API reference's (see the `openapi` suite). Also docs.json validation alone, beside
 * a bare `JSON.parse` + zod parse with no positions, no `$ref`s and no rules.
 */
export const configBench: BenchSuite = {
  name: "config",
  run: async (log) => {
    log(`corpus: ${CORPUS}`);
    const core = await checkAndNav(21, { apiReference: false });
    log("with the API reference (four OpenAPI specs, 706 generated pages), warm spec cache...");
    const cacheDir = mkdtempSync(join(tmpdir(), "svc-bench-config-cache-"));
    const full = await checkAndNav(11, { specCache: openSpecCache(cacheDir, userSeal()) });
    rmSync(cacheDir, { recursive: true, force: true });
    log("... and without the spec cache (every spec parsed, validated, dereferenced)...");
    const uncached = await checkAndNav(3, {});
    const docs = await timeMany(30, () => loadDocsJson(CORPUS));
    const bare = await timeMany(30, async () => docsJson.safeParse(JSON.parse(await readFile(join(CORPUS, "docs.json"), "utf8"))));

    const coreBoth = core.check + core.nav;
    const rows: BenchRow[] = [
      { area: "config", metric: "check p50 (spree, 428 pages, API reference off)", value: core.check, unit: "ms", baseline: { name: "loadSite alone", value: core.load } },
      { area: "config", metric: "nav p50 (spree, text + JSON, API reference off)", value: core.nav, unit: "ms", baseline: { name: "loadSite alone", value: core.load } },
      {
        area: "config",
        metric: "check + nav (spree, API reference off)",
        value: coreBoth,
        unit: "ms",
        baseline: { name: "2 x loadSite", value: 2 * core.load },
        target: `<= ${TARGET_MS} ms`,
        ok: coreBoth <= TARGET_MS,
      },
      {
        area: "config",
        metric: "check + nav (spree, as shipped: + 4 OpenAPI specs, 706 API pages, warm spec cache)",
        value: full.check + full.nav,
        unit: "ms",
        baseline: { name: "2 x loadSite", value: 2 * full.load },
        target: `<= ${TARGET_MS} ms`,
        ok: full.check + full.nav <= TARGET_MS,
      },
      {
        area: "config",
        metric: "check + nav (spree, as shipped, no spec cache)",
        value: uncached.check + uncached.nav,
        unit: "ms",
        baseline: { name: "2 x loadSite", value: 2 * uncached.load },
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
