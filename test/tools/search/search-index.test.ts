import { describe, expect, it } from "vitest";
import { readerTitle, type SearchHit, SearchIndex, type SearchRequest } from "../../../src/engine/search/search-index.js";
import type { Access } from "../../../src/vfs/access.js";
import type { Site } from "../../../src/vfs/site.js";
import { inlineSite } from "./inline-site.js";

const PAGES: Record<string, string> = {
  "/webhooks.mdx": [
    "---",
    "title: Webhooks",
    "description: Get an HTTP request when something happens in your store.",
    "---",
    "Webhooks deliver events to your server.",
    "",
    "## Verify signatures",
    "",
    "Every delivery carries an HMAC signature header. Compare it in constant time.",
    "",
    "## Retries",
    "",
    "Failed deliveries are retried with exponential backoff.",
  ].join("\n"),
  "/payments.mdx": [
    "---",
    "title: Payments",
    "---",
    "Accept cards and wallets.",
    "",
    "## Refunds",
    "",
    "Refund a payment in full or in part. Refunds trigger a webhook.",
  ].join("\n"),
  "/api/errors.mdx": [
    "---",
    "title: Errors",
    "---",
    "Every error has a code.",
    "",
    "## Rate limits",
    "",
    "A 429 response says: Too many requests. Please retry later.",
  ].join("\n"),
};

const ALL = () => true;

function search(index: SearchIndex, query: string, extra: Partial<SearchRequest> = {}): readonly SearchHit[] {
  return index.search({ query, canRead: ALL, ...extra });
}

function brief(hits: readonly SearchHit[]): [string, string][] {
  return hits.map((h) => [h.page.path, h.section.anchor]);
}

function indexOf(site: Site): SearchIndex {
  const index = new SearchIndex();
  index.sync(site);
  return index;
}

describe("SearchIndex.search", () => {
  const index = indexOf(inlineSite(PAGES));

  it("ranks the page about the subject first and points at the best section", () => {
    expect(brief(search(index, "verify webhook signature"))).toEqual([
      ["/webhooks", "verify-signatures"],
      ["/payments", "refunds"],
    ]);
  });

  it("matches inflections, typos, and error messages", () => {
    expect(brief(search(index, "refunding payments"))).toEqual([["/payments", "refunds"]]);
    expect(brief(search(index, "webhok signatre"))).toEqual([
      ["/webhooks", "verify-signatures"],
      ["/payments", "refunds"],
    ]);
    expect(brief(search(index, "Too many requests. Please retry later.")).slice(0, 1)).toEqual([["/api/errors", "rate-limits"]]);
  });

  it("finds words the docs write as one when the query splits them", () => {
    const site = inlineSite({
      "/sso.mdx": "---\ntitle: Single sign-on\n---\nConfigure the login page and the webhook endpoint during setup.",
      "/console.mdx": "---\ntitle: Console\n---\nRead the log in the console.",
    });
    expect(brief(search(indexOf(site), "log in page"))).toEqual([["/sso", ""], ["/console", ""]]);
    expect(brief(search(indexOf(site), "web hook set up"))).toEqual([["/sso", ""]]);
  });

  it("finds words inside text written without spaces (Chinese, Japanese)", () => {
    const site = inlineSite({
      "/zh/webhooks.mdx": "---\ntitle: 网络钩子\n---\n## 验证签名\n\n每次投递都带有签名头。请在服务器上验证签名。",
      "/ja/setup.mdx": "---\ntitle: セットアップ\n---\nAPIキーを設定してください。",
    });
    expect(brief(search(indexOf(site), "验证签名"))).toEqual([["/zh/webhooks", "验证签名"]]);
    expect(brief(search(indexOf(site), "キー 設定"))).toEqual([["/ja/setup", ""]]);
  });

  it("an unspaced Chinese query finds what the spaced one finds, with the same scores", () => {
    const site = inlineSite({
      "/zh/kb.mdx": "---\ntitle: 创建即用型知识库\n---\n上传文档后，智能体即可检索。",
      "/zh/models.mdx": "---\ntitle: 模型配置\n---\n选择模型并填写密钥。",
      "/zh/memory.mdx": "---\ntitle: 记忆\n---\n智能体会记住对话。知识来自上传的文档。",
    });
    const idx = indexOf(site);
    const scored = (q: string) => search(idx, q).map((h) => [h.page.path, h.score]);
    expect(scored("创建知识库")).toEqual([
      ["/zh/kb", 0.642],
      ["/zh/memory", 0.079],
    ]);
    expect(scored("创建 知识库")).toEqual(scored("创建知识库"));
  });

  it("indexes and shows text as readers see it: character references decoded, MDX markup gone", () => {
    const site = inlineSite({
      "/files.mdx": [
        "---",
        "title: Files &amp; folders",
        "description: Where &#x5F;meta files go.",
        "---",
        "## The &#x5F;meta file",
        "",
        '<Note title="Heads&#x20;up">Use &lt;Card&gt; &amp; friends,&nbsp;not <Badge>raw</Badge> HTML.</Note>',
      ].join("\n"),
    });
    const idx = indexOf(site);
    const shown = (hits: readonly SearchHit[]) => hits.map((h) => ({ title: readerTitle(h.page), section: h.section.heading, anchor: h.section.anchor, text: h.section.text, snippet: h.snippet }));
    expect(shown(search(idx, "_meta"))).toEqual([
      { title: "Files & folders", section: "The _meta file", anchor: "the-_meta-file", text: "Heads up Use <Card> & friends, not raw HTML.", snippet: "Heads up Use <Card> & friends, not raw HTML." },
    ]);
    expect(search(idx, "x5F")).toEqual([]);
    expect(search(idx, "nbsp amp")).toEqual([]);
    expect(brief(search(idx, "folders"))).toEqual([["/files", "the-_meta-file"]]);
  });

  it("matches exact identifiers above pages holding their words apart", () => {
    const site = inlineSite({
      "/tools.mdx": "---\ntitle: Tools\n---\nClients invoke a tool with tools/call; the result may carry structuredContent.",
      "/calls.mdx": "---\ntitle: Calls\n---\nList the tools first, then call one. Structured content is described below.",
      "/errors.mdx": "---\ntitle: Errors\n---\nA call fails with MISSING_REQUIRED_CLIENT_CAPABILITY when the client lacks a capability it requires.",
    });
    const idx = indexOf(site);
    const scored = (q: string) => search(idx, q).map((h) => [h.page.path, h.score]);
    expect(scored("tools/call")).toEqual([
      ["/tools", 0.29],
      ["/calls", 0.216],
      ["/errors", 0.049],
    ]);
    expect(scored("structuredContent")).toEqual([
      ["/tools", 0.382],
      ["/calls", 0.231],
    ]);
    expect(scored("MISSING_REQUIRED_CLIENT_CAPABILITY")).toEqual([
      ["/errors", 0.456],
      ["/tools", 0.049],
    ]);
  });

  it("returns the matching section's text as the snippet", () => {
    const [hit] = search(index, "exponential backoff");
    expect(hit?.snippet).toBe("Failed deliveries are retried with exponential backoff.");
    expect(hit?.section.heading).toBe("Retries");
  });

  it("answers a query of stop words or punctuation with nothing", () => {
    expect(search(index, "how do I")).toEqual([]);
    expect(search(index, "?!")).toEqual([]);
    expect(search(index, "zzzqqq")).toEqual([]);
  });

  it("respects pageSize", () => {
    expect(search(index, "webhook", { pageSize: 1 }).map((h) => h.page.path)).toEqual(["/webhooks"]);
  });
});

describe("scores", () => {
  const index = indexOf(inlineSite(PAGES));
  const queries = ["webhook", "verify webhook signature", "refund", "retry", "too many requests", "cards wallets refunds", "error code", "signature nonexistentword"];

  it("are in 0..1 and sorted best first", () => {
    for (const q of queries) {
      const hits = search(index, q, { pageSize: 50 });
      for (const h of hits) {
        expect(h.score).toBeGreaterThan(0);
        expect(h.score).toBeLessThanOrEqual(1);
      }
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    }
  });

  it("filter exactly: a threshold keeps the hits scoring at or above it, and only those", () => {
    for (const q of queries) {
      const all = search(index, q, { pageSize: 50 });
      for (const t of [0, 0.1, 0.25, 0.5, 0.75, 1, ...all.map((h) => h.score)]) {
        expect(search(index, q, { pageSize: 50, scoreThreshold: t })).toEqual(all.filter((h) => h.score >= t));
      }
    }
  });

  it("mean the share of the query a page answers, not rank against the other hits", () => {
    const [full] = search(index, "webhook signature");
    const [partial] = search(index, "webhook signature kubernetes");
    // The same best page, but it answers less of the second query, so it scores lower.
    expect(partial?.page.path).toBe(full?.page.path);
    expect(partial?.score).toBeLessThan(full?.score as number);
    // A page matching every term beats one matching a subset, and scores well.
    const hits = search(index, "refund payment");
    expect(hits[0]?.page.path).toBe("/payments");
    expect(hits[0]?.score).toBeGreaterThan(0.5);
  });

  it("do not depend on the other hits: filtering out the best hit leaves the others' scores as they were", () => {
    const languages = [
      { language: "en", pages: ["webhooks"] },
      { language: "fr", pages: ["payments", "api/errors"] },
    ];
    const split = indexOf(inlineSite(PAGES, { name: "T", navigation: { languages } }));
    const all = search(split, "webhook", { pageSize: 50 });
    expect(all.map((h) => h.page.path)).toEqual(["/webhooks", "/payments"]);
    expect(search(split, "webhook", { pageSize: 50, language: "fr" })).toEqual(all.slice(1));
  });
});

describe("what is indexed", () => {
  const docs = {
    name: "Test",
    navigation: {
      versions: [
        { version: "v1", groups: [{ group: "Old", pages: ["v1/setup"] }] },
        { version: "v2", groups: [{ group: "New", pages: ["v2/setup", "shared"] }] },
      ],
      global: {},
    },
  };
  const shared = "---\ntitle: Shared setup notes\n---\nSetup tips for every version.";
  const nav = {
    name: "Test",
    navigation: { groups: [{ group: "Docs", pages: ["listed", "hidden", "secret"] }] },
  };

  it("filters by version; a page in no version is in every version", () => {
    const site = inlineSite({
      "/v1/setup.mdx": "---\ntitle: Setup v1\n---\nSetup for version one.",
      "/v2/setup.mdx": "---\ntitle: Setup v2\n---\nSetup for version two.",
      "/shared.mdx": shared,
    }, docs);
    const index = indexOf(site);
    // Unfiltered, /v1/setup and /v2/setup are one hit (the same page in two versions): count both.
    const paths = (version?: string) =>
      search(index, "setup", version === undefined ? {} : { version }).flatMap((h) => [h.page.path, ...h.otherVersions.map((t) => t.page.path)]).sort();
    expect(paths()).toEqual(["/shared", "/v1/setup", "/v2/setup"]);
    expect(paths("v1")).toEqual(["/v1/setup"]);
    expect(paths("v2")).toEqual(["/shared", "/v2/setup"]);
    expect(paths("v3")).toEqual([]);
    // A page outside navigation (indexed with seo.indexing: all) belongs to no version: it is in all of them.
    const outside = inlineSite(
      { "/v1/setup.mdx": "---\ntitle: Setup v1\n---\nx", "/notes.mdx": "---\ntitle: Setup notes\n---\nx" },
      { name: "Test", seo: { indexing: "all" }, navigation: { versions: [{ version: "v1", pages: ["v1/setup"] }] } },
    );
    expect(search(indexOf(outside), "setup", { version: "v9" }).map((h) => h.page.path)).toEqual(["/notes"]);
    expect(search(indexOf(outside), "setup", { version: "v1" }).map((h) => h.page.path).sort()).toEqual(["/notes", "/v1/setup"]);
  });

  it("places a page outside navigation by its folder: the versions and languages every listed page under it shares", () => {
    const site = inlineSite(
      {
        "/v1/setup.mdx": "---\ntitle: Setup v1\n---\nx",
        "/v2/setup.mdx": "---\ntitle: Setup v2\n---\nx",
        "/v2/guides/deep.mdx": "---\ntitle: Deep\n---\nx",
        // Outside navigation, each under a folder whose listed pages say one version (one deeper down).
        "/v2/best-practices/setup-tips.mdx": "---\ntitle: Setup tips\n---\nx",
        "/v1/old/setup-notes.mdx": "---\ntitle: Setup notes\n---\nx",
        // Under a folder whose listed pages disagree (v1 and v2), or at the root: every version, as before.
        "/shared/setup-faq.mdx": "---\ntitle: Setup FAQ\n---\nx",
        "/shared/a.mdx": "---\ntitle: A\n---\nx",
        "/shared/b.mdx": "---\ntitle: B\n---\nx",
        "/setup-root.mdx": "---\ntitle: Setup root\n---\nx",
      },
      {
        name: "Test",
        seo: { indexing: "all" },
        navigation: {
          versions: [
            { version: "v1", pages: ["v1/setup", "shared/a"] },
            { version: "v2", pages: ["v2/setup", "v2/guides/deep", "shared/b"] },
          ],
        },
      },
    );
    const index = indexOf(site);
    const paths = (version: string) => search(index, "setup", { version }).map((h) => h.page.path).sort();
    expect(paths("v1")).toEqual(["/setup-root", "/shared/setup-faq", "/v1/old/setup-notes", "/v1/setup"]);
    expect(paths("v2")).toEqual(["/setup-root", "/shared/setup-faq", "/v2/best-practices/setup-tips", "/v2/setup"]);

    const languages = inlineSite(
      {
        "/en/install.mdx": "---\ntitle: Install\n---\nx",
        "/es/install.mdx": "---\ntitle: Install es\n---\nx",
        "/es/extra/install-more.mdx": "---\ntitle: Install more\n---\nx",
      },
      {
        name: "T",
        seo: { indexing: "all" },
        navigation: {
          languages: [
            { language: "en", pages: ["en/install"] },
            { language: "es", pages: ["es/install"] },
          ],
        },
      },
    );
    const inLanguage = (language: string) => search(indexOf(languages), "install", { language }).map((h) => h.page.path).sort();
    expect(inLanguage("en")).toEqual(["/en/install"]);
    expect(inLanguage("es")).toEqual(["/es/extra/install-more", "/es/install"]);
  });

  it("filters by language the same way", () => {
    const site = inlineSite(
      { "/en/a.mdx": "---\ntitle: Install\n---\nInstall it.", "/es/a.mdx": "---\ntitle: Install es\n---\nInstall it.", "/b.mdx": "---\ntitle: Install anywhere\n---\nx" },
      {
        name: "T",
        navigation: {
          languages: [
            { language: "en", pages: ["en/a"] },
            { language: "es", pages: ["es/a"] },
          ],
        },
      },
    );
    const index = indexOf(site);
    expect(search(index, "install", { language: "es" }).map((h) => h.page.path)).toEqual(["/es/a"]);
    // Unfiltered, the two languages' copies are one hit (`foldVersionTwins`), the other listed.
    expect(search(index, "install").map((h) => [h.page.path, h.otherLanguages.map((t) => t.page.path)])).toEqual([["/en/a", ["/es/a"]]]);
  });

  it("leaves out noindex pages and pages outside navigation, unless seo.indexing is all", () => {
    const files = {
      "/listed.mdx": "---\ntitle: Listed\n---\nThe quokka page.",
      "/hidden.mdx": "---\ntitle: Hidden\nnoindex: true\n---\nA quokka too.",
      "/orphan.mdx": "---\ntitle: Orphan\n---\nAnother quokka.",
    };
    expect(search(indexOf(inlineSite(files, nav)), "quokka").map((h) => h.page.path)).toEqual(["/listed"]);
    const all = { ...nav, seo: { indexing: "all" } };
    expect(search(indexOf(inlineSite(files, all)), "quokka").map((h) => h.page.path).sort()).toEqual(["/listed", "/orphan"]);
  });

  it("scores only pages the reader may read, so restricted pages never leave the index", () => {
    const files = {
      "/listed.mdx": "---\ntitle: Listed\n---\nPublic notes.",
      "/secret.mdx": "---\ntitle: Secret\ngroups: [staff]\n---\nThe quokka runbook.",
    };
    const index = indexOf(inlineSite(files, nav));
    const canRead = (a: Access) => a.groups === undefined;
    expect(index.search({ query: "quokka runbook", canRead })).toEqual([]);
    expect(index.search({ query: "quokka runbook", canRead: ALL }).map((h) => h.page.path)).toEqual(["/secret"]);
  });
});

describe("SearchIndex.sync", () => {
  it("re-indexes only pages whose object changed, and drops removed ones", () => {
    const index = new SearchIndex();
    const first = inlineSite(PAGES);
    expect(index.sync(first)).toEqual({ added: 3, removed: 0 });
    expect(index.sync(first)).toEqual({ added: 0, removed: 0 });
    const edited = inlineSite({ ...PAGES, "/payments.mdx": "---\ntitle: Payments\n---\nNow with quokka support." }, undefined, first);
    expect(edited.pages.get("/webhooks")).toBe(first.pages.get("/webhooks"));
    expect(index.sync(edited)).toEqual({ added: 1, removed: 1 });
    expect(search(index, "quokka").map((h) => h.page.path)).toEqual(["/payments"]);
    expect(search(index, "refund")).toEqual([]);
    const { "/api/errors.mdx": _gone, ...rest } = PAGES;
    const removed = inlineSite({ ...rest, "/payments.mdx": "---\ntitle: Payments\n---\nNow with quokka support." }, undefined, edited);
    expect(index.sync(removed)).toEqual({ added: 0, removed: 1 });
    expect(search(index, "429 rate limits")).toEqual([]);
    expect(index.pageCount).toBe(2);
  });

  it("resolves a query's words again after an edit (words resolved by earlier searches are kept only until then)", () => {
    const index = new SearchIndex({ cachedResults: 0 });
    const first = inlineSite(PAGES);
    index.sync(first);
    // No page has a word starting "quok", nor one within an edit of "webhok" but webhook.
    expect(search(index, "quok")).toEqual([]);
    expect(search(index, "webhok").map((h) => h.page.path)).toEqual(["/webhooks", "/payments"]);
    const edited = inlineSite({ ...PAGES, "/payments.mdx": "---\ntitle: Payments\n---\nNow with quokka support, webhok spelled so." }, undefined, first);
    index.sync(edited);
    expect(search(index, "quok").map((h) => h.page.path)).toEqual(["/payments"]);
    // The word itself now: its typo matches are no longer asked for.
    expect(search(index, "webhok").map((h) => h.page.path)).toEqual(["/payments"]);
  });

  it("re-indexes a page whose navigation placement changed", () => {
    const files = { "/a.mdx": "---\ntitle: Alpha\n---\nquokka" };
    const index = new SearchIndex();
    const one = inlineSite(files, { name: "T", navigation: { versions: [{ version: "v1", pages: ["a"] }] } });
    index.sync(one);
    const two = inlineSite(files, { name: "T", navigation: { versions: [{ version: "v2", pages: ["a"] }] } }, one);
    expect(index.sync(two)).toEqual({ added: 1, removed: 1 });
    expect(search(index, "quokka", { version: "v1" })).toEqual([]);
    expect(search(index, "quokka", { version: "v2" }).map((h) => h.page.path)).toEqual(["/a"]);
  });

  it("stays correct through many edits (postings of removed pages are compacted away)", () => {
    const index = new SearchIndex();
    let site = inlineSite(PAGES);
    index.sync(site);
    for (let i = 0; i < 60; i++) {
      site = inlineSite({ ...PAGES, "/payments.mdx": `---\ntitle: Payments\n---\nEdit number${i} of the refunds page.` }, undefined, site);
      index.sync(site);
    }
    expect(search(index, "number59").map((h) => h.page.path)).toEqual(["/payments"]);
    expect(search(index, "number58")).toEqual([]);
    expect(search(index, "refunds").map((h) => h.page.path)).toEqual(["/payments"]);
    expect(index.pageCount).toBe(3);
  });
});

describe("the same page in several versions", () => {
  const body = (title: string, text: string) => `---\ntitle: ${title}\n---\n${text}`;
  const versioned = (extra: Record<string, unknown> = {}) => ({
    name: "T",
    navigation: {
      versions: [
        { version: "v5.x", default: true, groups: [{ group: "G", pages: ["guides/orders", "guides/carts", "both", "guides/refunds"] }] },
        { version: "v6.x", groups: [{ group: "G", pages: ["v6/guides/orders", "v6/guides/carts", "both", "v6/payments/refunds"] }] },
      ],
      ...extra,
    },
  });
  const files = {
    "/guides/orders.mdx": body("Orders", "An order moves from cart to complete through checkout states."),
    "/v6/guides/orders.mdx": body("Orders", "An order moves from cart to complete through checkout states, with fulfillments."),
    "/guides/carts.mdx": body("Carts", "A cart holds line items."),
    "/v6/guides/carts.mdx": body("Carts", "A cart holds line items. Checkout states of a cart: address, delivery, payment, complete. Checkout states again."),
    "/both.mdx": body("Checkout states glossary", "Every checkout state, in every version."),
    // Moved in v6, same title and text: the same page.
    "/guides/refunds.mdx": body("Refunds", "Refund a complete order after checkout states end."),
    "/v6/payments/refunds.mdx": body("Refunds", "Refund a complete order after checkout states end."),
  };
  const fold = (hits: readonly SearchHit[]) => hits.map((h) => [h.page.path, h.otherVersions.map((t) => t.page.path)]);

  it("unfiltered, one hit: the default version's page, with the others folded into it", () => {
    const index = indexOf(inlineSite(files, versioned()));
    const hits = search(index, "order cart complete checkout states", { pageSize: 50 });
    expect(fold(hits)).toEqual([
      // Same path once `v6` is dropped; or the same title and body (refunds).
      ["/guides/orders", ["/v6/guides/orders"]],
      // The v6 cart page answers clearly better (by more than 0.05): it is the hit.
      ["/v6/guides/carts", ["/guides/carts"]],
      ["/guides/refunds", ["/v6/payments/refunds"]],
      ["/both", []],
    ]);
    expect(hits.map((h) => h.placement?.versions)).toEqual([["v5.x"], ["v6.x"], ["v5.x"], ["v5.x", "v6.x"]]);
    // Each keeps its own score; the list stays sorted.
    const scores = hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("a version filter shows that version's pages, unfolded", () => {
    const index = indexOf(inlineSite(files, versioned()));
    expect(fold(search(index, "order cart complete checkout states", { version: "v6.x", pageSize: 50 })).map(([p]) => p).sort()).toEqual([
      "/both",
      "/v6/guides/carts",
      "/v6/guides/orders",
      "/v6/payments/refunds",
    ]);
  });

  it("pages in overlapping versions are not folded; other languages are listed apart from other versions", () => {
    const langs = {
      name: "T",
      navigation: {
        versions: [
          { version: "v1", languages: [{ language: "en", pages: ["v1/en/a"] }, { language: "fr", pages: ["v1/fr/a"] }] },
          { version: "v2", languages: [{ language: "en", pages: ["v2/en/a"] }, { language: "fr", pages: ["v2/fr/a"] }] },
        ],
      },
    };
    const page = body("Webhooks", "Verify the webhook signature.");
    const index = indexOf(inlineSite({ "/v1/en/a.mdx": page, "/v1/fr/a.mdx": page, "/v2/en/a.mdx": page, "/v2/fr/a.mdx": page }, langs));
    const languages = (hits: readonly SearchHit[]) => hits.map((h) => h.otherLanguages.map((t) => t.page.path));
    const unfiltered = search(index, "webhook signature", { pageSize: 50 });
    expect([fold(unfiltered), languages(unfiltered)]).toEqual([[["/v1/en/a", ["/v2/en/a"]]], [["/v1/fr/a"]]]);
    const french = search(index, "webhook signature", { pageSize: 50, language: "fr" });
    expect([fold(french), languages(french)]).toEqual([[["/v1/fr/a", ["/v2/fr/a"]]], [[]]]);
    // `/common` is in v1 and v2: it overlaps `/v1/a`'s version, so it stays its own hit.
    const overlap = {
      name: "T",
      navigation: { versions: [{ version: "v1", pages: ["v1/a", "common"] }, { version: "v2", pages: ["v2/a", "common"] }] },
    };
    const twice = indexOf(inlineSite({ "/v1/a.mdx": page, "/v2/a.mdx": page, "/common.mdx": page }, overlap));
    expect(fold(search(twice, "webhook signature", { pageSize: 50 }))).toEqual([
      ["/common", []],
      ["/v1/a", ["/v2/a"]],
    ]);
  });

  it("scoreThreshold applies to each hit's own score, as if filtering the unthresholded list", () => {
    const index = indexOf(inlineSite(files, versioned()));
    const all = search(index, "order cart complete checkout states", { pageSize: 50 });
    for (const t of [0, ...all.map((h) => h.score), 1]) {
      expect(search(index, "order cart complete checkout states", { pageSize: 50, scoreThreshold: t })).toEqual(all.filter((h) => h.score >= t));
    }
  });

  it("folds nothing on a site without versions", () => {
    const index = indexOf(inlineSite(files, { name: "T", navigation: { pages: Object.keys(files).map((f) => f.slice(1, -4)) } }));
    expect(search(index, "order cart complete checkout states", { pageSize: 50 }).every((h) => h.otherVersions.length === 0)).toBe(true);
    expect(search(index, "order cart complete checkout states", { pageSize: 50 }).length).toBe(7);
  });
});

describe("titles longer than the page postings count", () => {
  // Over 1,023 words a title's frequencies may be capped in the page postings: its share of a
  // score is read from the title's own words instead.
  const filler = (prefix: string, n: number): string => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(" ");
  const site = inlineSite({
    "/long-with.mdx": `---\ntitle: Gateway ${filler("alpha", 1100)}\n---\nSet up the gateway.`,
    "/long-without.mdx": `---\ntitle: ${filler("beta", 1101)}\n---\nSet up the gateway.`,
    "/short.mdx": "---\ntitle: Gateway\n---\nSet up the gateway.",
    "/repeated.mdx": `---\ntitle: ${Array.from({ length: 1100 }, () => "gateway").join(" ")}\n---\nSet up the gateway.`,
  });

  it("still count the query words they hold, as every other title does, with or without bound pruning", () => {
    const pruned = indexOf(site);
    const every = new SearchIndex({ ranking: { boundPruning: false } });
    every.sync(site);
    const hits = search(pruned, "gateway");
    // A title of nothing but the query word ranks first, however long; a long title holding the
    // word once above one without it (read as zero, the two would rank by their bodies alone).
    expect(hits.map((h) => h.page.path)).toEqual(["/repeated", "/short", "/long-with", "/long-without"]);
    expect((hits[2]?.score ?? 0) > (hits[3]?.score ?? 0)).toBe(true);
    expect(hits.map((h) => [h.page.path, h.score])).toEqual(search(every, "gateway").map((h) => [h.page.path, h.score]));
  });
});
