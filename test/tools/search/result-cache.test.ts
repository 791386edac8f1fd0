import { describe, expect, it } from "vitest";
import { type SearchHit, SearchIndex } from "../../../src/engine/search/search-index.js";
import { type Access, ANONYMOUS, canRead, readerWithGroups } from "../../../src/vfs/access.js";
import { inlineSite } from "./inline-site.js";

/** A repeated search is answered from the kept hits: only for readers of the same class, and only until the site changes. */

const FILES = {
  "/webhooks.mdx": "---\ntitle: Webhooks\n---\nWebhooks deliver events to your server.\n",
  "/internal/rotation.mdx": "---\ntitle: Key rotation\ngroups: [staff]\n---\nRotate webhook signing keys every quarter.\n",
};
const staff = (a: Access) => canRead(a, readerWithGroups(["staff"]), "public");
const anonymous = (a: Access) => canRead(a, ANONYMOUS, "public");
const paths = (hits: readonly SearchHit[]) => hits.map((h) => [h.page.path, h.snippet]);

describe("search result cache", () => {
  it("answers a repeat of the same request by the same class of reader with the same hits", () => {
    const index = new SearchIndex();
    index.sync(inlineSite(FILES));
    const first = index.search({ query: "webhook keys", canRead: staff });
    expect(paths(first)).toEqual([
      ["/internal/rotation", "Rotate webhook signing keys every quarter."],
      ["/webhooks", "Webhooks deliver events to your server."],
    ]);
    // Another reader with the same groups is the same class: the kept hits.
    const other = (a: Access) => canRead(a, readerWithGroups(["staff", "unused"]), "public");
    expect(index.search({ query: "webhook keys", canRead: other })).toBe(first);
    // Any other option is another request.
    expect(index.search({ query: "webhook keys", canRead: staff, pageSize: 1 })).not.toBe(first);
    expect(paths(index.search({ query: "webhook keys", canRead: staff, pageSize: 1 }))).toEqual([["/internal/rotation", "Rotate webhook signing keys every quarter."]]);
  });

  it("never gives a reader the hits kept for a reader who may read more", () => {
    const index = new SearchIndex();
    index.sync(inlineSite(FILES));
    expect(paths(index.search({ query: "rotate signing keys", canRead: staff }))).toEqual([["/internal/rotation", "Rotate webhook signing keys every quarter."]]);
    expect(paths(index.search({ query: "rotate signing keys", canRead: anonymous }))).toEqual([]);
    expect(paths(index.search({ query: "webhook keys", canRead: anonymous }))).toEqual([["/webhooks", "Webhooks deliver events to your server."]]);
    expect(paths(index.search({ query: "webhook keys", canRead: staff }))).toEqual([
      ["/internal/rotation", "Rotate webhook signing keys every quarter."],
      ["/webhooks", "Webhooks deliver events to your server."],
    ]);
  });

  it("forgets every kept search when the site changes", () => {
    const index = new SearchIndex();
    index.sync(inlineSite(FILES));
    expect(paths(index.search({ query: "deliver events", canRead: anonymous }))).toEqual([["/webhooks", "Webhooks deliver events to your server."]]);
    index.sync(inlineSite({ ...FILES, "/webhooks.mdx": "---\ntitle: Webhooks\n---\nWebhooks deliver signed events.\n" }));
    expect(paths(index.search({ query: "deliver events", canRead: anonymous }))).toEqual([["/webhooks", "Webhooks deliver signed events."]]);
    // A page's access rule changing is a change like any other.
    index.sync(inlineSite({ ...FILES, "/webhooks.mdx": "---\ntitle: Webhooks\ngroups: [staff]\n---\nWebhooks deliver signed events.\n" }));
    expect(paths(index.search({ query: "deliver events", canRead: anonymous }))).toEqual([]);
  });

  it("keeps nothing with cachedResults 0, and the hits are the same either way", () => {
    const index = new SearchIndex({ cachedResults: 0 });
    index.sync(inlineSite(FILES));
    const first = index.search({ query: "webhook keys", canRead: staff });
    const again = index.search({ query: "webhook keys", canRead: staff });
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
