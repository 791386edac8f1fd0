/**
 * One `loadSite` in a fresh process, for `bench/load.bench.ts`: what a command pays at start-up
 * (module loading is timed apart). Prints `{ importMs, loadMs, pages }` as JSON on stdout.
 *
 * argv: corpus cacheDir|- api|no-api
 */
const start = performance.now();
const { loadSite } = await import("../src/vfs/load-site.js");
const { openSpecCache } = await import("../src/config/openapi/spec-cache.js");
const { userSeal } = await import("./user-seal.js");
const importMs = performance.now() - start;
const [corpus, cacheDir, mode] = process.argv.slice(2);
if (corpus === undefined || cacheDir === undefined) {
  process.stderr.write("usage: load-once CORPUS CACHE_DIR|- [api|no-api]\n");
  process.exit(2);
}
const t = performance.now();
const { site } = await loadSite(corpus, () => {}, undefined, {
  ...(cacheDir !== "-" ? { specCache: openSpecCache(cacheDir, userSeal()) } : {}),
  ...(mode === "no-api" ? { apiReference: false } : {}),
});
const loadMs = performance.now() - t;
process.stdout.write(`${JSON.stringify({ importMs, loadMs, pages: site.pages.size })}\n`);
