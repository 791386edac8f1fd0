import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openSpecCache } from "../src/config/openapi/spec-cache.js";
import { ALL_ACCESS, ANONYMOUS, readerWithGroups } from "../src/vfs/access.js";
import { loadSite } from "../src/vfs/load-site.js";
import { SiteView } from "../src/vfs/view.js";
import { type BenchSuite, percentile, timeMany } from "./bench.js";
import { userSeal } from "./user-seal.js";

const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));
const CORPUS = join(SHARED, "corpora/spree");
const SPECS = "api-reference";
const RUNS = 7;

/**
 * spree with every tenth operation of its four specs (3 MB of YAML) restricted with `x-mint`
 * `metadata.groups: [staff]`: 69 operations. Written as an author would (three lines under the
 * method), so the specs' generated pages and cache keys change as a real edit changes them.
 */
function restrictedSpree(): { dir: string; restricted: number } {
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-variants-"));
  cpSync(CORPUS, dir, { recursive: true });
  let restricted = 0;
  for (const name of readdirSync(join(dir, SPECS)).filter((n) => n.endsWith(".yaml"))) {
    const path = join(dir, SPECS, name);
    const out: string[] = [];
    let inPaths = false;
    let n = 0;
    for (const line of readFileSync(path, "utf8").split("\n")) {
      out.push(line);
      if (line.startsWith("paths:")) inPaths = true;
      else if (/^\S/.test(line)) inPaths = false;
      if (inPaths && /^ {4}(get|post|put|patch|delete):\s*$/.test(line) && ++n % 10 === 0) {
        out.push("      x-mint:", "        metadata:", "          groups: [staff]");
        restricted++;
      }
    }
    writeFileSync(path, out.join("\n"));
  }
  return { dir, restricted };
}

/** Read every file of a view (what the shell worker does when the view is sent to it). */
function readAll(view: SiteView): number {
  let bytes = 0;
  for (const f of view.files) if (f.path.startsWith(`/${SPECS}/`) && !f.path.endsWith(".mdx")) bytes += f.size;
  return bytes;
}

/**
 * What readers' own spec copies cost (docs/api-reference.md, "Each reader's spec"): loading spree
 * with restricted operations against spree as shipped (no variants: the specs are only checked
 * for restricted parts), and a view of a new access class with every spec read (the four pruned
 * copies built: parse, prune, cut, parse back and compare) against an all-access reader's view,
 * which reads the files as written; then another reader of a class already built.
 */
export const variantsSuite: BenchSuite = {
  name: "variants",
  async run(log) {
    const { dir, restricted } = restrictedSpree();
    const cacheDir = mkdtempSync(join(tmpdir(), "svc-bench-variants-cache-"));
    try {
      const specCache = openSpecCache(cacheDir, userSeal());
      log(`spree with ${restricted} operations restricted to staff; ${RUNS} runs per figure`);
      await loadSite(CORPUS, () => {}, undefined, { specCache });
      await loadSite(dir, () => {}, undefined, { specCache });
      const shipped: number[] = [];
      const withRestricted: number[] = [];
      const firstView: number[] = [];
      const allAccess: number[] = [];
      const sameClass: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        shipped.push(...(await timeMany(1, () => loadSite(CORPUS, () => {}, undefined, { specCache }))));
        let site = (await loadSite(dir, () => {}, undefined, { specCache })).site;
        withRestricted.push(...(await timeMany(1, async () => (site = (await loadSite(dir, () => {}, undefined, { specCache })).site))));
        allAccess.push(...(await timeMany(1, () => readAll(new SiteView(site, ALL_ACCESS, "public")))));
        firstView.push(...(await timeMany(1, () => readAll(new SiteView(site, ANONYMOUS, "public")))));
        sameClass.push(...(await timeMany(1, () => readAll(new SiteView(site, readerWithGroups(["sales"]), "public")))));
      }
      const p50 = (xs: number[]): number => percentile(xs, 50);
      return [
        { area: "variants", metric: `loadSite spree with ${restricted} restricted operations, warm spec cache`, value: p50(withRestricted), unit: "ms", baseline: { name: "spree as shipped", value: p50(shipped) } },
        { area: "variants", metric: "view of a new access class, its 4 spec copies built and read", value: p50(firstView), unit: "ms", baseline: { name: "all-access view, files as written", value: p50(allAccess) } },
        { area: "variants", metric: "view of another reader of that class (copies shared)", value: p50(sameClass), unit: "ms" },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(cacheDir, { recursive: true, force: true });
    }
  },
};
