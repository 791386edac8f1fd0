import { join } from "node:path";
import { expect, it } from "vitest";
import { pagePlace } from "../../src/engine/preview/page-place.js";
import { loadSite } from "../../src/vfs/load-site.js";
import { localContext } from "../../src/vfs/request-context.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { CORPORA } from "../helpers/paths.js";
import { describeShared } from "../helpers/shared.js";

/** A page's place in real sites' navigation: each switcher's choices lead to the same page there. */
async function place(corpus: string, page: string | undefined) {
  const { site } = await loadSite(join(CORPORA, corpus), () => {});
  const nav = navigationOfSite(site, { context: localContext() });
  if (!nav.ok) throw new Error(`${corpus}: no navigation`);
  const p = pagePlace(nav.tree, page);
  return {
    switchers: p.switchers.map((s) => [s.kind, s.options.map((o) => `${o.title}${o.current ? "*" : ""} ${o.href}`)]),
    eyebrow: p.eyebrow,
    previous: p.previous?.href,
    next: p.next?.href,
  };
}

describeShared("pagePlace on the shared corpora", () => {
  it("cowagent: languages at the root and under zh/ and ja/ lead to the same page", async () => {
    const p = await place("cowagent", "/intro/architecture");
    expect(p.switchers[0]).toEqual(["language", ["en* /intro/architecture", "zh /zh/intro/architecture", "ja /ja/intro/architecture"]]);
    expect([p.eyebrow, p.previous, p.next]).toEqual([["Overview"], "/intro", "/intro/features"]);
  });

  it("stagehand: versions under v4/, v3/ and v2/, and the SDK dropdowns of v3", async () => {
    expect((await place("stagehand", "/v3/basics/act")).switchers).toEqual([
      ["version", ["v4 /v4/basics/act", "v3* /v3/basics/act", "v2 /v2/basics/act"]],
      ["dropdown", ["TypeScript* /v3/basics/act", "Python /v3/sdk/python", "Java /v3/sdk/java", "Go /v3/sdk/go", "Ruby /v3/sdk/ruby"]],
    ]);
  });

  it("spree: v5.x pages at the root and v6.x under v6/, tabs, menu items and breadcrumbs", async () => {
    const p = await place("spree", "/developer/core-concepts/orders");
    expect(p.switchers.map((s) => s[0])).toEqual(["version", "tab", "item"]);
    expect(p.switchers[0]).toEqual(["version", ["v5.x* /developer/core-concepts/orders", "v6.x /v6/developer/core-concepts/orders"]]);
    expect([p.eyebrow, p.previous, p.next]).toEqual([["Guides", "Getting Started", "Cart & Checkout"], "/developer/core-concepts/search-filtering", "/developer/core-concepts/payments"]);
  });

  it("no page (the 404 page): the default divisions, each current one leading to its first page", async () => {
    expect((await place("stagehand", undefined)).switchers).toEqual([
      ["version", ["v4* /v4/first-steps/introduction", "v3 /v3/first-steps/introduction", "v2 /v2/first-steps/introduction"]],
    ]);
  });

  it("alltick: an index page is found by its folder in each language", async () => {
    expect((await place("alltick", "/en/index")).switchers[0]).toEqual(["language", ["zh /zh", "en* /en", "ja /ja"]]);
  });
});
