import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localContext } from "../../../src/vfs/request-context.js";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { tempRepo } from "../../config/temp-repo.js";
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

/** The ranked paths and scores once the vectors are learned (as a server searches after `learnVectors`). */
function ranked(files: Record<string, string>, query: string, weight?: number, canRead: (a: { groups?: readonly string[] }) => boolean = () => true): [string, string][] {
  const index = new SearchIndex(weight === undefined ? {} : { ranking: { siteVectorWeight: weight } });
  index.sync(inlineSite(files));
  index.learnVectors();
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
    // The default is 0 (off; docs/search.md, twenty-third round); 0.05 is the weight measured.
    expect(ranked(site(), QUESTION)).toEqual(ranked(site(), QUESTION, 0));
    expect(ranked(site(), QUESTION, 0.05)).toEqual([
      ["/extract/schema", "0.4210"],
      ["/extract/zorp", "0.3931"],
      ["/extract/tables", "0.2160"],
      ["/notes/n1", "0.0000"],
      ["/notes/n10", "0.0000"],
      ["/notes/n11", "0.0000"],
      ["/notes/n12", "0.0000"],
      ["/notes/n2", "0.0000"],
      ["/notes/n3", "0.0000"],
      ["/notes/n4", "0.0000"],
    ]);
    // 0.03: scores move by at most 0.03, and here the order stays.
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
  it("re-orders nothing until the vectors are learned, nor after a change until learned again", () => {
    const index = new SearchIndex({ ranking: { siteVectorWeight: 0.5 } });
    const off = new SearchIndex({ ranking: { siteVectorWeight: 0 } });
    const search = (i: SearchIndex): [string, string][] => i.search({ query: QUESTION, canRead: () => true }).map((h) => [h.page.path, h.score.toFixed(4)]);
    index.sync(inlineSite(site()));
    off.sync(inlineSite(site()));
    expect([index.vectorsWanted, index.vectorsLearned]).toEqual([true, false]);
    // Searched (and its result kept) before the vectors: as at weight 0.
    expect(search(index)).toEqual(search(off));
    index.learnVectors();
    expect([index.vectorsWanted, index.vectorsLearned]).toEqual([false, true]);
    // The kept result is dropped when they take effect.
    expect(search(index)).toEqual(ranked(site(), QUESTION, 0.5));
    // A change drops them; a learning begun before it ends without effect.
    const stale = index.vectorSteps();
    stale.next();
    const changed = site({ "/extract/forms.mdx": page("Forms", "Forms in a document are extracted field by field.") });
    index.sync(inlineSite(changed));
    off.sync(inlineSite(changed));
    let step = stale.next();
    while (step.done !== true) step = stale.next();
    expect([step.value, index.vectorsLearned]).toEqual([false, false]);
    expect(search(index)).toEqual(search(off));
    index.learnVectors();
    expect(search(index)).toEqual(ranked(changed, QUESTION, 0.5));
    // A weight of 0 never wants them.
    expect(off.vectorsWanted).toBe(false);
  });

  it("a runtime that learns them does so after the build and after a reload, and says when (`whenVectorsLearned`)", async () => {
    const files = site();
    const root = tempRepo(Object.fromEntries(Object.entries(files).map(([path, text]) => [path.slice(1), text])));
    const ranking = { siteVectorWeight: 0.05 };
    const unlearned = await DocsRuntime.load({ root, ranking });
    const learning = await DocsRuntime.load({ root, learnVectors: true, ranking });
    const off = await DocsRuntime.load({ root, learnVectors: true });
    try {
      const paths = async (r: DocsRuntime): Promise<[string, string][]> => (await r.search(localContext(), { query: QUESTION })).map((h) => [h.page.path, h.score.toFixed(4)]);
      await unlearned.whenIndexed();
      await learning.whenIndexed();
      // Without the option nothing is learned: the order as ranked, at any time.
      expect(await unlearned.whenVectorsLearned()).toBe(false);
      expect(await paths(unlearned)).toEqual(ranked(files, QUESTION, 0));
      expect(await learning.whenVectorsLearned()).toBe(true);
      expect(await paths(learning)).toEqual(ranked(files, QUESTION, 0.05));
      // At the default weight (0) a server learns nothing.
      await off.whenIndexed();
      expect(await off.whenVectorsLearned()).toBe(false);
      expect(await paths(off)).toEqual(ranked(files, QUESTION, 0));
      // A reload that changes pages drops them and learns the site as it is now.
      const added = { "/extract/forms.mdx": page("Forms", "Forms in a document are extracted field by field.") };
      writeFileSync(join(root, "extract/forms.mdx"), added["/extract/forms.mdx"]);
      await learning.applyChanges(["extract/forms.mdx"]);
      expect(await learning.whenVectorsLearned()).toBe(true);
      expect(await paths(learning)).toEqual(ranked(site(added), QUESTION, 0.05));
    } finally {
      await unlearned.close();
      await learning.close();
      await off.close();
    }
  });
});
