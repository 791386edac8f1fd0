import { utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { ANONYMOUS, readerWithGroups } from "../../../src/vfs/access.js";
import { connect } from "../../helpers/mcp.js";
import { makeRepo } from "../../helpers/repo.js";

/**
 * A page outside navigation takes the versions and languages of the navigation pages under its
 * folder (`folderPlacement`), when docs.json sets `seo.indexing: all`. Those are the pages the
 * reader may read: a restricted page listed beside it is absent for a reader who may not read it,
 * whose searches (the versions and languages a hit shows, what a version or language filter keeps)
 * must equal those of the site without it. An adversary found an anonymous reader's public page
 * shown in `v2`, a version that reader has no page in, and lost to a `v1` search (finding F1).
 */
const SEARCH = "search_acme";
const STAFF = readerWithGroups(["staff"]);
const TIME = new Date("2026-01-02T03:04:05Z");
const page = (title: string, body: string, groups = "") => `---\ntitle: ${title}\n${groups !== "" ? `groups: [${groups}]\n` : ""}---\n${body}\n`;
const OFF = page("Off page", "Flumbridge content outside navigation.");
const SECRET = page("Secret", "Staff content.", "staff");

async function open(files: Record<string, string>) {
  const repo = makeRepo(files);
  // One time for every file: the two sites' answers then differ only where their files do.
  for (const path of Object.keys(files)) utimesSync(join(repo.dir, path), TIME, TIME);
  const runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.acme.test" });
  const anon = await connect(runtime, ANONYMOUS);
  const staff = await connect(runtime, STAFF);
  return {
    /** A search's whole answer (an error's as well). */
    search: async (client: typeof anon, args: Record<string, unknown>) => await client.call(SEARCH, { query: "flumbridge", ...args }),
    anon,
    staff,
    close: async () => {
      await anon.close();
      await staff.close();
      await runtime.close();
      repo.cleanup();
    },
  };
}

/** A site of `scopes` (versions or languages) as docs.json lists them, with `files`. */
function site(kind: "versions" | "languages", scopes: Record<string, string[]>, files: Record<string, string>): Record<string, string> {
  const key = kind === "versions" ? "version" : "language";
  const navigation = { [kind]: Object.entries(scopes).map(([name, pages]) => ({ [key]: name, pages })) };
  return { "docs.json": JSON.stringify({ name: "Acme", seo: { indexing: "all" }, navigation }), ...files };
}

/** The anonymous reader's searches of `restricted` equal those of `deleted`: unfiltered, and filtered by each of `filters`. */
async function expectSameSearches(restricted: Record<string, string>, deleted: Record<string, string>, filters: Record<string, unknown>[]) {
  const a = await open(restricted);
  const b = await open(deleted);
  try {
    for (const args of [{}, ...filters]) expect(await a.search(a.anon, args)).toEqual(await b.search(b.anon, args));
  } finally {
    await a.close();
    await b.close();
  }
}

/** What a search of the off-navigation page answers: its one hit, in `scope` when it has one. */
function offHit(scope: Record<string, string[]> = {}) {
  return {
    structuredContent: { results: [{ title: "Off page", path: "/shared/off", url: "https://docs.acme.test/shared/off", snippet: "Flumbridge content outside navigation.", score: expect.any(Number), ...scope }] },
  };
}

describe("a page outside navigation beside restricted navigation pages", () => {
  const versionFilters = [{ version: "v1" }, { version: "v2" }];
  const languageFilters = [{ language: "en" }, { language: "fr" }];

  it("a folder listed only in a restricted version: the anonymous reader's searches equal the site's without it", async () => {
    const files = { "v1/a.mdx": page("A page", "Alpha."), "shared/off.mdx": OFF };
    await expectSameSearches(
      site("versions", { v1: ["v1/a"], v2: ["shared/secret"] }, { ...files, "shared/secret.mdx": SECRET }),
      site("versions", { v1: ["v1/a"] }, files),
      versionFilters,
    );
  });

  it("a folder whose public page is in v1 and restricted page in v2: the anonymous reader's searches equal the site's without it", async () => {
    const files = { "shared/a.mdx": page("A page", "Alpha."), "v2/b.mdx": page("B page", "Beta."), "shared/off.mdx": OFF };
    await expectSameSearches(
      site("versions", { v1: ["shared/a"], v2: ["v2/b", "shared/secret"] }, { ...files, "shared/secret.mdx": SECRET }),
      site("versions", { v1: ["shared/a"], v2: ["v2/b"] }, files),
      versionFilters,
    );
  });

  it("the same for languages, in both forms", async () => {
    const files = { "shared/a.mdx": page("A page", "Alpha."), "fr/b.mdx": page("B page", "Beta."), "shared/off.mdx": OFF };
    await expectSameSearches(
      site("languages", { en: ["shared/a"], fr: ["fr/b", "shared/secret"] }, { ...files, "shared/secret.mdx": SECRET }),
      site("languages", { en: ["shared/a"], fr: ["fr/b"] }, files),
      languageFilters,
    );
    const only = { "en/a.mdx": page("A page", "Alpha."), "shared/off.mdx": OFF };
    await expectSameSearches(
      site("languages", { en: ["en/a"], fr: ["shared/secret"] }, { ...only, "shared/secret.mdx": SECRET }),
      site("languages", { en: ["en/a"] }, only),
      languageFilters,
    );
  });

  it("the anonymous reader's page is where the pages it may read say; a staff reader's is where every page says", async () => {
    const only = await open(site("versions", { v1: ["v1/a"], v2: ["shared/secret"] }, { "v1/a.mdx": page("A page", "Alpha."), "shared/off.mdx": OFF, "shared/secret.mdx": SECRET }));
    const disagree = await open(site("versions", { v1: ["shared/a"], v2: ["v2/b", "shared/secret"] }, { "shared/a.mdx": page("A page", "Alpha."), "v2/b.mdx": page("B page", "Beta."), "shared/off.mdx": OFF, "shared/secret.mdx": SECRET }));
    const languages = await open(site("languages", { en: ["shared/a"], fr: ["fr/b", "shared/secret"] }, { "shared/a.mdx": page("A page", "Alpha."), "fr/b.mdx": page("B page", "Beta."), "shared/off.mdx": OFF, "shared/secret.mdx": SECRET }));
    try {
      // Its folder holds no navigation page the anonymous reader may read: in every version, as at the root.
      expect(await only.search(only.anon, { version: "v1" })).toMatchObject(offHit());
      // Staff: the folder's one listed page is in v2.
      expect(await only.search(only.staff, {})).toMatchObject(offHit({ versions: ["v2"] }));
      expect(await only.search(only.staff, { version: "v1" })).toMatchObject({ structuredContent: { results: [] } });
      // The folder's pages the anonymous reader may read are in v1; for staff they disagree, and the page is in every version.
      expect(await disagree.search(disagree.anon, {})).toMatchObject(offHit({ versions: ["v1"] }));
      expect(await disagree.search(disagree.anon, { version: "v2" })).toMatchObject({ structuredContent: { results: [] } });
      expect(await disagree.search(disagree.staff, { version: "v2" })).toMatchObject(offHit());
      expect(await languages.search(languages.anon, {})).toMatchObject(offHit({ languages: ["en"] }));
      expect(await languages.search(languages.anon, { language: "fr" })).toMatchObject({ structuredContent: { results: [] } });
      expect(await languages.search(languages.staff, { language: "fr" })).toMatchObject(offHit());
    } finally {
      await only.close();
      await disagree.close();
      await languages.close();
    }
  });
});
