import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * Site vectors (issue 24, twenty-second round, `site-vectors.ts`): when the first hit's title holds
 * none of the question's words, the page of hits is re-ordered by how near, in vectors learned from
 * the site's own lines, each hit's title and description stand to the question. Here the site uses
 * two words no word list knows, "blick" and "zorp", in the same places, so "blick fields" comes
 * near the page titled Zorp, which the question does not name.
 */
const page = (title: string, ...lines: string[]): string => ["---", `title: ${title}`, "---", "", ...lines].join("\n");
const restricted = (title: string, ...lines: string[]): string => ["---", `title: ${title}`, "groups: [staff]", "---", "", ...lines].join("\n");

function site(extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = {
    "/extract/zorp.mdx": page("Zorp", "The model looks at a document and zorps fields."),
    "/extract/schema.mdx": page("Schema", "Choose which fields to extract from a document, by hand or with the model."),
    "/extract/tables.mdx": page("Tables", "Tables in a document are extracted row by row."),
    ...extra,
  };
  for (let i = 1; i <= 12; i++) {
    files[`/notes/n${i}.mdx`] = page(`Release ${i}`, `Reviewers may zorp changes to release ${i}.`, `Reviewers may blick changes to release ${i}.`);
  }
  return files;
}

function ranked(files: Record<string, string>, query: string, weight?: number, canRead: (a: { groups?: readonly string[] }) => boolean = () => true): [string, string][] {
  const index = new SearchIndex(weight === undefined ? {} : { ranking: { siteVectorWeight: weight } });
  index.sync(inlineSite(files));
  return index.search({ query, canRead }).map((h) => [h.page.path, h.score.toFixed(4)]);
}

const QUESTION = "let the model blick which fields to extract from a document";

describe("site vectors", () => {
  it("re-orders the page of hits toward the title used like the question's words", () => {
    // Without: the schema page names more of the question's words.
    expect(ranked(site(), QUESTION, 0)).toEqual([
      ["/extract/schema", "0.4210"],
      ["/extract/zorp", "0.3630"],
      ["/extract/tables", "0.2160"],
      ["/notes/n1", "0.0280"],
      ["/notes/n10", "0.0280"],
      ["/notes/n11", "0.0280"],
      ["/notes/n12", "0.0280"],
      ["/notes/n2", "0.0280"],
      ["/notes/n3", "0.0280"],
      ["/notes/n4", "0.0280"],
    ]);
    // The default is off: the same whole output.
    expect(ranked(site(), QUESTION)).toEqual(ranked(site(), QUESTION, 0));
    // 0.03, the weight measured: scores move by at most 0.03, and here the order stays.
    expect(ranked(site(), QUESTION, 0.03)).toEqual([
      ["/extract/schema", "0.4210"],
      ["/extract/zorp", "0.3811"],
      ["/extract/tables", "0.2160"],
      ["/notes/n1", "0.0057"],
      ["/notes/n10", "0.0057"],
      ["/notes/n11", "0.0057"],
      ["/notes/n12", "0.0057"],
      ["/notes/n2", "0.0057"],
      ["/notes/n3", "0.0057"],
      ["/notes/n4", "0.0057"],
    ]);
    // A larger weight puts the page titled Zorp first; the release notes, nearer no title, go to 0.
    expect(ranked(site(), QUESTION, 0.5)).toEqual([
      ["/extract/zorp", "0.6643"],
      ["/extract/schema", "0.4210"],
      ["/extract/tables", "0.2160"],
      ["/notes/n1", "0.0000"],
      ["/notes/n10", "0.0000"],
      ["/notes/n11", "0.0000"],
      ["/notes/n12", "0.0000"],
      ["/notes/n2", "0.0000"],
      ["/notes/n3", "0.0000"],
      ["/notes/n4", "0.0000"],
    ]);
  });

  it("leaves a question naming the first hit's title as it is", () => {
    expect(ranked(site(), "fields of the schema", 0.5)).toEqual(ranked(site(), "fields of the schema", 0));
  });

  it("learns nothing from a page outside the reader's groups, and skips readers of restricted pages only", () => {
    const hidden = { "/staff/s.mdx": restricted("Staff notes", ...Array.from({ length: 12 }, () => "Staff blick fields to extract from a document and zorp tables.")) };
    const reader = (a: { groups?: readonly string[] }): boolean => a.groups === undefined;
    expect(ranked(site(hidden), QUESTION, 0.5, reader)).toEqual(ranked(site(), QUESTION, 0.5, reader));
    // A reader who may not read unrestricted pages (signed out on a fully authenticated site) gets no re-ordering.
    const publicOnly = (a: { groups?: readonly string[]; public?: boolean }): boolean => a.public === true;
    expect(ranked(site(), QUESTION, 0.5, publicOnly)).toEqual(ranked(site(), QUESTION, 0, publicOnly));
  });
});
