import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { loadSite } from "../../../src/vfs/load-site.js";

/**
 * A page saved with Windows line ends (CRLF) is searched as the same page saved with `\n`: the
 * same hits, sections, scores and snippets. Real sites mix them (one held-out site has 484 of its
 * 1,210 pages in CRLF), and a reader of raw lines that kept the `\r` missed what a pattern's line
 * end should have taken (documented identifiers in headings did, issue 24). Lines ended by a lone
 * CR (classic Mac) likewise.
 */
const SITE = join(import.meta.dirname, "../../../fixtures/spree-subset");
const temp = mkdtempSync(join(tmpdir(), "svc-line-ends-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function withLineEnd(dir: string, end: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) withLineEnd(path, end);
    else if (/\.mdx?$/.test(name)) writeFileSync(path, readFileSync(path, "utf8").replace(/\r?\n/g, end));
  }
}

async function hitsOf(root: string, questions: readonly string[]): Promise<unknown[]> {
  const { site } = await loadSite(root);
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(site);
  return questions.map((query) => index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.section.heading, h.section.anchor, h.score, h.snippet]));
}

describe("line ends", () => {
  it.each([
    ["CRLF", "\r\n"],
    // Classic Mac line ends, which CommonMark reads as line ends: the front matter's closing
    // `---` was not found, and each page was read as all front matter, found by no search.
    ["a lone CR", "\r"],
  ])("a site saved with %s is searched as the same site saved with LF", async (name, end) => {
    const crlf = join(temp, name.replace(/ /g, "-"));
    cpSync(SITE, crlf, { recursive: true });
    withLineEnd(crlf, end);
    const { site } = await loadSite(SITE);
    // Every page's title and every heading as a question, and questions naming identifiers.
    const headings = [...site.pages.values()].flatMap((p) => [p.title, ...[...p.body.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => m[1] as string)]);
    const questions = [...new Set(headings)].concat(["how do I set the SPREE_ENV variable", "what does the 422 status mean", "configure checkout steps for guests"]);
    expect(questions.length).toBeGreaterThan(150);
    const lf = await hitsOf(SITE, questions);
    expect(lf.filter((hits) => (hits as unknown[]).length > 0).length).toBeGreaterThan(150);
    expect(await hitsOf(crlf, questions)).toEqual(lf);
  });
});
