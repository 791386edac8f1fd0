import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime, type IndexBuild } from "../../src/engine/runtime.js";
import { SiteCache } from "../../src/engine/site-cache.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { localContext, type RequestContext } from "../../src/vfs/request-context.js";
import { TEST_SEAL } from "../helpers/cache-seal.js";

/**
 * The server's reader's prepared search state in the persistent cache (issue 22): a second start
 * of an unchanged site takes it, answers as the first did, and an edit to a page or to docs.json
 * leaves it to be made again. A server whose reader is of another class does not take it.
 */

const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const page = (title: string, body: string, groups = ""): string => `---\ntitle: ${title}\n${groups !== "" ? `groups: [${groups}]\n` : ""}---\n${body}\n`;

/** Two versions in two languages, and a staff page in v2: on disk, dated an hour back (older
 *  than the cache's racy window, so a file's stat tells whether it changed). */
function versionedSite(): string {
  const root = temp("svc-prepared-");
  const files: Record<string, string> = {};
  for (const language of ["en", "ko"]) {
    for (const version of ["v1", "v2"]) {
      files[`${language}/${version}/widgets.mdx`] = page("Widgets", `## Making widgets\n\nBuild a widget with the widget builder (${language} ${version}).`);
      files[`${language}/${version}/gadgets.mdx`] = page("Gadgets", `## Gadgets\n\nA gadget holds widgets. Gadget setup in ${version}.`);
    }
    files[`${language}/v2/staff.mdx`] = page("Staff widgets", "## Staff\n\nThe widget builder's staff settings.", "staff");
  }
  const nav = (language: string, version: string): string[] => [`${language}/${version}/widgets`, `${language}/${version}/gadgets`, ...(version === "v2" ? [`${language}/v2/staff`] : [])];
  files["docs.json"] = JSON.stringify({
    name: "Widgets",
    navigation: { languages: ["en", "ko"].map((language) => ({ language, versions: ["v2", "v1"].map((version) => ({ version, groups: [{ group: "Guides", pages: nav(language, version) }] })) })) },
  });
  const then = new Date(Date.now() - 3_600_000);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
    utimesSync(join(root, rel), then, then);
  }
  return root;
}

/** A start as `serve` makes it: its reader's search prepared, then searched; closing writes the cache. */
async function start(root: string, dir: string, context: RequestContext): Promise<{ build: IndexBuild | undefined; hits: unknown[] }> {
  const siteCache = new SiteCache({ seal: TEST_SEAL, dir, root, log: () => {} });
  const runtime = await DocsRuntime.load({ root, log: () => {}, siteCache, searchCache: 0 });
  runtime.prepareSearch(context);
  await runtime.whenIndexed();
  const hits: unknown[] = [];
  for (const filter of [{}, { version: "v1" }, { language: "ko" }]) {
    for (const query of ["widget builder", "gadget setup", "staff settings"]) {
      const found = await runtime.search(context, { query, ...filter });
      hits.push([query, filter, found.map((h) => [h.page.path, h.section.anchor, h.score, h.snippet, h.otherVersions.map((t) => [t.page.path, t.score]), h.otherLanguages.map((t) => t.page.path)])]);
    }
  }
  const build = runtime.indexBuild;
  await runtime.close();
  return { build, hits };
}

describe("the server's reader's prepared search state in the site cache", () => {
  it("a second start of an unchanged site takes it and answers as the first", async () => {
    const root = versionedSite();
    const dir = temp("svc-cache-");
    const plain = await start(root, temp("svc-no-cache-"), localContext());
    const cold = await start(root, dir, localContext());
    const warm = await start(root, dir, localContext());
    expect(cold.build).toEqual({ fromCache: false, added: 10, removed: 0 });
    expect(warm.build).toEqual({ fromCache: true, added: 0, removed: 0, preparedReader: "l:10" });
    expect(cold.hits).toEqual(plain.hits);
    expect(warm.hits).toEqual(plain.hits);
    expect(JSON.stringify(warm.hits)).not.toContain("/staff");
  });

  it("a page edited between two starts leaves it to be made again", async () => {
    const root = versionedSite();
    const dir = temp("svc-cache-");
    await start(root, dir, localContext());
    writeFileSync(join(root, "ko/v1/widgets.mdx"), page("Widgets", "## Making widgets\n\nThe widget builder is now the widget forge."));
    const warm = await start(root, dir, localContext());
    const plain = await start(root, temp("svc-no-cache-"), localContext());
    expect(warm.build).toEqual({ fromCache: true, added: 1, removed: 1 });
    expect(warm.hits).toEqual(plain.hits);
  });

  it("docs.json edited between two starts makes the whole cache stale", async () => {
    const root = versionedSite();
    const dir = temp("svc-cache-");
    await start(root, dir, localContext());
    const docs = join(root, "docs.json");
    writeFileSync(docs, (await import("node:fs")).readFileSync(docs, "utf8").replace('"v2","v1"', '"v1","v2"').replace('"name":"Widgets"', '"name":"Widgets and gadgets"'));
    const warm = await start(root, dir, localContext());
    const plain = await start(root, temp("svc-no-cache-"), localContext());
    expect(warm.build).toEqual({ fromCache: false, added: 10, removed: 0 });
    expect(warm.hits).toEqual(plain.hits);
  });

  it("a server whose reader is of another class makes its own, and answers as without a cache", async () => {
    // The state taken is the anonymous reader's class's (its flags: the public rule, not the staff
    // one), under its own key: the staff reader's class never reads it.
    const root = versionedSite();
    const dir = temp("svc-cache-");
    const staff = localContext(readerWithGroups(["staff"]));
    await start(root, dir, localContext());
    const warm = await start(root, dir, staff);
    const plain = await start(root, temp("svc-no-cache-"), staff);
    expect(warm.build).toEqual({ fromCache: true, added: 0, removed: 0, preparedReader: "l:10" });
    expect(warm.hits).toEqual(plain.hits);
    expect(JSON.stringify(warm.hits)).toContain("/staff");
  });
});
