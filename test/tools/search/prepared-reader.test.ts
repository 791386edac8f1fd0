import { describe, expect, it } from "vitest";
import { type SearchHit, SearchIndex, type SearchIndexState } from "../../../src/engine/search/search-index.js";
import { type Access, ANONYMOUS, canRead, readerWithGroups } from "../../../src/vfs/access.js";
import type { Site } from "../../../src/vfs/site.js";
import { inlineSite } from "./inline-site.js";

/**
 * A reader's prepared search state in the index's state (issue 22, `prepared-reader.ts`): the
 * twin table of its branches and the units' path order, taken by a restored index whose first
 * sync changes nothing, and never by another reader class. A restored index answers exactly as
 * one built from the site, whichever it took.
 */

const anonymous = (a: Access): boolean => canRead(a, ANONYMOUS, "public");
const staff = (a: Access): boolean => canRead(a, readerWithGroups(["staff"]), "public");
const page = (title: string, body: string, groups = ""): string => `---\ntitle: ${title}\n${groups !== "" ? `groups: [${groups}]\n` : ""}---\n${body}\n`;

/** Everything a hit shows: path, anchor, score, snippet, other versions and languages. */
const shown = (hits: readonly SearchHit[]): unknown[] =>
  hits.map((h) => [h.page.path, h.section.anchor, h.score, h.snippet, h.otherVersions.map((t) => [t.page.path, t.score]), h.moreVersions, h.otherLanguages.map((t) => [t.page.path, t.score]), h.moreLanguages]);

/** Two versions in two languages, the copies near-identical, one page in v2 alone. */
const FILES: Record<string, string> = {};
for (const language of ["en", "ko"]) {
  for (const version of ["v1", "v2"]) {
    FILES[`/${language}/${version}/widgets.mdx`] = page("Widgets", `## Making widgets\n\nBuild a widget with the widget builder (${language} ${version}). It takes a few steps and some glue.`);
    FILES[`/${language}/${version}/gadgets.mdx`] = page("Gadgets", `## Gadgets\n\nA gadget holds widgets. Gadget setup in ${version}.`);
  }
  FILES[`/${language}/v2/gizmos.mdx`] = page("Gizmos", "## Gizmos\n\nA gizmo is a small widget with a builder of its own.");
}
const nav = (language: string, version: string): string[] => [`${language}/${version}/widgets`, `${language}/${version}/gadgets`, ...(version === "v2" ? [`${language}/v2/gizmos`] : [])];
const DOCS = {
  navigation: {
    languages: ["en", "ko"].map((language) => ({ language, versions: ["v2", "v1"].map((version) => ({ version, groups: [{ group: "Guides", pages: nav(language, version) }] })) })),
  },
};

const QUERIES = ["widget builder", "gadget setup", "v1 widgets", "gizmo"];
const FILTERS = [{}, { version: "v1" }, { language: "ko" }];

/** Every query under every filter, as `reader` gets it. */
function answers(index: SearchIndex, reader: (a: Access) => boolean): unknown[] {
  return FILTERS.flatMap((filter) => QUERIES.map((query) => [query, filter, shown(index.search({ query, ...filter, canRead: reader }))]));
}

function built(site: Site): SearchIndex {
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(site);
  return index;
}

/** A new index restored from `state` (the pages and files of `from`, as the cache keeps them), then synced with `site`. */
function restored(state: SearchIndexState, from: Site, site: Site): SearchIndex {
  const index = new SearchIndex({ cachedResults: 0 });
  index.restore(
    state,
    (path) => from.pages.get(path),
    (path) => from.files.get(path),
  );
  index.sync(site);
  return index;
}

describe("a reader's prepared search state in the index's state", () => {
  it("is taken by a restored index whose pages are unchanged, which answers as the index it was taken from", () => {
    const site = inlineSite(FILES, DOCS);
    const first = built(site);
    const state = first.state(anonymous);
    expect(state.reader?.key).toBe("l:*");
    expect(state.pathOrder?.length).toBe(10);
    const again = restored(state, site, site);
    expect(again.preparedFromState).toBe("l:*");
    expect(answers(again, anonymous)).toEqual(answers(built(site), anonymous));
    // Its state is the same again: what it took is what it would have made.
    const next = again.state(anonymous);
    expect(next.reader).toEqual(state.reader);
    expect(next.pathOrder).toEqual(state.pathOrder);
  });

  it("is not kept without a reader to prepare", () => {
    const state = built(inlineSite(FILES, DOCS)).state();
    expect(state.reader).toBeUndefined();
    expect(state.pathOrder).toBeUndefined();
  });

  it("is dropped when a page changed, and the restored index answers as one built from the edited site", () => {
    const site = inlineSite(FILES, DOCS);
    const state = built(site).state(anonymous);
    const edited = inlineSite({ ...FILES, "/ko/v1/widgets.mdx": page("Widgets", "## Making widgets\n\nThe widget builder was renamed the widget forge.") }, DOCS, site);
    const again = restored(state, site, edited);
    expect(again.preparedFromState).toBeUndefined();
    expect(answers(again, anonymous)).toEqual(answers(built(edited), anonymous));
  });

  it("is dropped when docs.json changed, even with every page where it was", () => {
    const site = inlineSite(FILES, DOCS);
    const state = built(site).state(anonymous);
    // The versions in the other order: no page moves, the default version does.
    const reordered = { navigation: { languages: DOCS.navigation.languages.map((l) => ({ ...l, versions: [...l.versions].reverse() })) } };
    const moved = inlineSite(FILES, reordered, site);
    const again = restored(state, site, moved);
    expect(again.preparedFromState).toBeUndefined();
    expect(answers(again, anonymous)).toEqual(answers(built(moved), anonymous));
  });
});

describe("readers of other groups", () => {
  // Restricted pages under Release B's navigation: they move the path segment the anonymous
  // reader's copies fold by (`branches-access.test.ts`), so each class's twin rules differ.
  const files = {
    "/stable/widgets.mdx": page("Widgets", "## Widgets\n\nBuild a widget using the widget press and check the output carefully."),
    "/stable/gadgets.mdx": page("gadgets", "About gadgets stable."),
    "/edge/widgets.mdx": page("Widgets", "## Widgets\n\nWidget assembly now runs in the cloud, a widget is made by the remote factory service."),
    "/edge/gadgets.mdx": page("gadgets", "About gadgets edge."),
    ...Object.fromEntries(["a", "b", "c"].map((k) => [`/internal/${k}.mdx`, page(`Internal widget ${k}`, `Internal widget ${k}, staff only.`, "staff")])),
  };
  const docs = {
    navigation: {
      versions: [
        { version: "Release A", pages: ["stable/widgets", "stable/gadgets"] },
        { version: "Release B", pages: ["edge/widgets", "edge/gadgets", "internal/a", "internal/b", "internal/c"] },
      ],
    },
  };
  const ask = (index: SearchIndex, reader: (a: Access) => boolean): unknown[] => ["widget", "gadgets", "internal widget"].map((query) => shown(index.search({ query, canRead: reader })));

  it("never get the state prepared for the anonymous reader, nor it theirs", () => {
    const site = inlineSite(files, docs);
    const forAnonymous = built(site).state(anonymous);
    const forStaff = built(site).state(staff);
    expect(forAnonymous.reader?.key).not.toBe(forStaff.reader?.key);
    for (const state of [forAnonymous, forStaff]) {
      const again = restored(state, site, site);
      expect(again.preparedFromState).toBe(state.reader?.key);
      // Each reader, the prepared one first or not, as from an index built from the site.
      expect([ask(again, staff), ask(again, anonymous)]).toEqual([ask(built(site), staff), ask(built(site), anonymous)]);
    }
    // The anonymous reader's answers hold no restricted page.
    expect(JSON.stringify(ask(restored(forStaff, site, site), anonymous))).not.toContain("/internal/");
  });
});
