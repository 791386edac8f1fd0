import { describe, expect, it } from "vitest";
import { type SearchHit, SearchIndex } from "../../../src/engine/search/search-index.js";
import { type Access, ANONYMOUS, canRead, readerWithGroups } from "../../../src/vfs/access.js";
import { inlineSite } from "./inline-site.js";

/**
 * Versions and the folding of the same page in several versions, seen by a reader who may not
 * read every page: what navigation holds only for restricted pages (a version of its own, the
 * pages that decide a version's path segment) changes nothing for that reader. Found by an
 * adversary: a query naming a restricted version (`v3 widget builder`) led with another copy
 * than one naming a made-up version; restricted pages in one version's navigation kept two
 * public copies of a page apart.
 */

const anonymous = (a: Access) => canRead(a, ANONYMOUS, "public");
const staff = (a: Access) => canRead(a, readerWithGroups(["staff"]), "public");
const shown = (hits: readonly SearchHit[]) => hits.map((h) => [h.page.path, h.score, h.otherVersions.map((t) => t.page.path)]);
const page = (title: string, body: string, groups = "") => `---\ntitle: ${title}\n${groups !== "" ? `groups: [${groups}]\n` : ""}---\n${body}\n`;

function search(files: Record<string, string>, docs: unknown, query: string, reader: (a: Access) => boolean) {
  const index = new SearchIndex();
  index.sync(inlineSite(files, docs));
  return shown(index.search({ query, canRead: reader }));
}

describe("versions a reader may not read", () => {
  const files = {
    "/v1/widgets.mdx": page("Widgets", "## Making widgets\n\nYou can build a widget with the widget builder. It takes a few steps and some glue."),
    "/v1/other.mdx": page("Other", "## Other\n\nNothing here."),
    "/v2/widgets.mdx": page("Widgets", "## Making widgets\n\nYou can build a widget with the widget builder. The widget builder takes a few steps, widget glue."),
    "/v2/other.mdx": page("Other", "## Other\n\nNothing here either."),
    "/v3/widgets.mdx": page("Widgets three", "## Secret widgets\n\nStaff widget content.", "staff"),
  };
  const versions = [
    { version: "v1", pages: ["v1/widgets", "v1/other"] },
    { version: "v2", pages: ["v2/widgets", "v2/other"] },
    { version: "v3", pages: ["v3/widgets"] },
  ];
  const docs = { navigation: { versions } };
  const withoutV3 = { navigation: { versions: versions.slice(0, 2) } };

  it("a query naming a restricted version is answered as one naming a made-up version, and as on the site without it", () => {
    const expected = [["/v1/widgets", 0.316, ["/v2/widgets"]]];
    expect(search(files, docs, "v3 widget builder", anonymous)).toEqual(expected);
    expect(search(files, docs, "v9 widget builder", anonymous)).toEqual(expected);
    const { "/v3/widgets.mdx": _, ...rest } = files;
    expect(search(rest, withoutV3, "v3 widget builder", anonymous)).toEqual(expected);
  });

  it("a reader of the version gets the copy in the version the query names, and the restricted copy as another version", () => {
    expect(search(files, docs, "v2 widget builder", staff)).toEqual([
      ["/v2/widgets", 0.495, ["/v1/widgets", "/v3/widgets"]],
      ["/v2/other", 0.104, []],
    ]);
  });
});

describe("path segments from the pages a reader may read", () => {
  const files = {
    "/stable/widgets.mdx": page("Widgets", "## Widgets\n\nBuild a widget using the widget press and check the output carefully."),
    "/stable/gadgets.mdx": page("gadgets", "About gadgets stable."),
    "/stable/gizmos.mdx": page("gizmos", "About gizmos stable."),
    "/edge/widgets.mdx": page("Widgets", "## Widgets\n\nWidget assembly now runs in the cloud, a widget is made by the remote factory service."),
    "/edge/gadgets.mdx": page("gadgets", "About gadgets edge."),
    "/edge/gizmos.mdx": page("gizmos", "About gizmos edge."),
  };
  const internal = Object.fromEntries(["a", "b", "c", "d"].map((k) => [`/internal/${k}.mdx`, page(`Internal ${k}`, `Internal ${k}.`, "staff")]));
  const docs = (withInternal: boolean) => ({
    navigation: {
      versions: [
        { version: "Release A", pages: ["stable/widgets", "stable/gadgets", "stable/gizmos"] },
        { version: "Release B", pages: ["edge/widgets", "edge/gadgets", "edge/gizmos", ...(withInternal ? ["internal/a", "internal/b", "internal/c", "internal/d"] : [])] },
      ],
    },
  });

  it("restricted pages in a version's navigation do not change how the public copies fold", () => {
    const expected = [["/stable/widgets", 0.873, ["/edge/widgets"]]];
    expect(search({ ...files, ...internal }, docs(true), "widget", anonymous)).toEqual(expected);
    expect(search(files, docs(false), "widget", anonymous)).toEqual(expected);
  });

  it("a reader of the restricted pages gets the segments its own pages make", () => {
    // For staff, Release B's pages no longer share `edge`: no segment, the copies stay apart.
    expect(search({ ...files, ...internal }, docs(true), "widget", staff)).toEqual([
      ["/stable/widgets", 0.866, []],
      ["/edge/widgets", 0.862, []],
    ]);
  });
});
