/**
 * Generate a site whose docs.json navigation expands, through `$ref` fan-out, to just under the
 * entry limit (`LIMITS.config.maxNavigationEntries`): the largest navigation a serving process
 * accepts, for `bench/edit-stall.ts --case docs-json` (how long its reload holds other callers).
 *
 *   npx tsx bench/nav-fanout-site.ts OUT [--levels L] [--fan F] [--leaf N]
 *
 * docs.json lists one group of the N pages, then `$ref`s `n/n0.json`; `n/nI.json` is a group of F
 * `$ref`s to `n/nI+1.json`, and the last level a group of the N pages. The entries (items of
 * arrays) are N + F + F^2 + ... + F^L + F^L x N: with the defaults (F 4, L 7, N 4) 87,384. Every
 * page is listed many times (a warning each), as in the shape an adversary would save.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [out, ...rest] = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 ? Number(rest[at + 1]) : fallback;
};
if (out === undefined || out.startsWith("--")) {
  console.error("usage: nav-fanout-site.ts OUT [--levels L] [--fan F] [--leaf N]");
  process.exit(2);
}
const levels = flag("levels", 7);
const fan = flag("fan", 4);
const leaf = flag("leaf", 4);

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "n"), { recursive: true });
const pages = Array.from({ length: leaf }, (_, i) => `p${i}`);
for (const page of pages) writeFileSync(join(out, `${page}.mdx`), `---\ntitle: Page ${page}\n---\n\nConfigure the storefront from page ${page}.\n`);
for (let i = 0; i <= levels; i++) {
  const next = { $ref: `n${i + 1}.json` };
  writeFileSync(join(out, "n", `n${i}.json`), JSON.stringify(i < levels ? { group: `G${i}`, pages: Array(fan).fill(next) } : { group: "L", pages }));
}
writeFileSync(join(out, "docs.json"), JSON.stringify({ $schema: "https://mintlify.com/docs.json", theme: "mint", name: "Fan-out site", colors: { primary: "#0D9373" }, navigation: { groups: [{ group: "Pages", pages }, { $ref: "n/n0.json" }] } }, null, 2));
let entries = leaf;
for (let i = 1; i <= levels; i++) entries += fan ** i;
entries += fan ** levels * leaf;
console.log(JSON.stringify({ out, levels, fan, leaf, entries }));
