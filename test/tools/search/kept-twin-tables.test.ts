import { describe, expect, it } from "vitest";
import { type SearchHit, SearchIndex } from "../../../src/engine/search/search-index.js";
import { ANONYMOUS, canRead, readerWithGroups } from "../../../src/vfs/access.js";
import { inlineSite } from "./inline-site.js";

/**
 * An index keeps each reader class's version branches and twin tables across a sync that changes
 * neither the navigation nor its pages' rules (an edit of pages' text), taking the unchanged units'
 * twin information from the table before. A sync that changes a page's rules makes them again:
 * the branches depend on which versions a reader has pages in. Either way it answers as an index
 * built from the final site does.
 */
const page = (title: string, body: string, groups?: string) => `---\ntitle: ${title}\n${groups !== undefined ? `groups: [${groups}]\n` : ""}---\n${body}\n`;
const docs = {
  navigation: {
    versions: [
      { version: "v2", default: true, groups: [{ group: "Docs", pages: ["v2/hooks", "v2/setup", "v2/internal"] }] },
      { version: "v1", groups: [{ group: "Docs", pages: ["v1/hooks", "v1/setup"] }] },
      { version: "v0", groups: [{ group: "Docs", pages: ["v0/hooks"] }] },
    ],
  },
};
const files = (v0Groups?: string, setupWords = "Install the CLI, then sign in."): Record<string, string> => ({
  "/v2/hooks.mdx": page("Webhooks", "Every webhook is signed and retried."),
  "/v2/setup.mdx": page("Setup", setupWords),
  // Staff's from the start: the rule is known before v0's page takes it (the reader classes stay).
  "/v2/internal.mdx": page("Internal webhook notes", "Staff rotate the webhook secret.", "staff"),
  "/v1/hooks.mdx": page("Webhooks", "Every webhook is signed and retried."),
  "/v1/setup.mdx": page("Setup", "Install the CLI, then sign in."),
  "/v0/hooks.mdx": page("Webhooks", "Every webhook is signed and retried.", v0Groups),
});
const QUERIES = ["webhook", "webhook v0", "webhook v1", "signed webhook retried", "install cli"];
const anonymous = { canRead: (a: Parameters<typeof canRead>[0]) => canRead(a, ANONYMOUS, "partial") };
const staff = { canRead: (a: Parameters<typeof canRead>[0]) => canRead(a, readerWithGroups(["staff"]), "partial") };
const shown = (hits: readonly SearchHit[]) => hits.map((h) => ({ path: h.page.path, score: h.score, also: h.otherVersions.map((t) => t.page.path), more: h.moreVersions }));

function answers(index: SearchIndex): unknown {
  return [anonymous, staff].map((reader) => QUERIES.map((query) => shown(index.search({ query, ...reader, pageSize: 5 }))));
}

describe("twin tables kept across a sync", () => {
  it("a page's text edited: the answers of an index built from the edited site", () => {
    const index = new SearchIndex({ cachedResults: 0 });
    const first = inlineSite(files(), docs);
    index.sync(first);
    answers(index);
    const edited = inlineSite(files(undefined, "Install the CLI with npm, then sign in."), docs, first);
    index.sync(edited);
    const fresh = new SearchIndex({ cachedResults: 0 });
    fresh.sync(edited);
    expect(answers(index)).toEqual(answers(fresh));
  });

  it("a version's only page made staff's: the anonymous reader's versions are made again (v0 is no version of theirs)", () => {
    const index = new SearchIndex({ cachedResults: 0 });
    const first = inlineSite(files(), docs);
    index.sync(first);
    answers(index);
    const restricted = inlineSite(files("staff"), docs, first);
    index.sync(restricted);
    const fresh = new SearchIndex({ cachedResults: 0 });
    fresh.sync(restricted);
    expect(answers(index)).toEqual(answers(fresh));
    // "v0" is a word to the anonymous reader now, not a version: the page of the default version.
    expect(shown(index.search({ query: "webhook v0", ...anonymous, pageSize: 5 }))).toEqual([{ path: "/v2/hooks", score: 0.274, also: ["/v1/hooks"], more: 0 }]);
  });
});
