import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResult } from "../../src/mcp/search-tool.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Search keeps restricted content with its readers, through the SDK client: text a page inlines
 * from a file the reader may not read is not part of the page it searches (words, snippets,
 * sections, scores), and its scores come from what it may read, so they do not tell whether a
 * restricted page holds a word.
 */
const SECRET = "---\ngroups: [internal]\n---\nThe vault passphrase is kept in the zanzibar safe.\n";
const FILES: Record<string, string> = {
  "docs.json": JSON.stringify({
    name: "Acme",
    navigation: { pages: ["guides/setup", "guides/billing", "guides/overview", "guides/tips", "internal/runbook", "internal/discounts"] },
  }),
  "guides/setup.mdx": [
    "---",
    "title: Setup",
    "---",
    "import Secret from '/snippets/secret.mdx';",
    "",
    "Install the agent and run the setup wizard.",
    "",
    "<Secret />",
    "",
    "## Verify",
    "",
    "Check the agent status page.",
  ].join("\n"),
  "snippets/secret.mdx": SECRET,
  "guides/billing.mdx": "---\ntitle: Billing\n---\nimport Runbook from '/internal/runbook.mdx';\n\nInvoices are sent monthly.\n\n<Runbook />\n",
  "internal/runbook.mdx": "---\ntitle: Runbook\ngroups: [internal]\n---\n## Incident drill\n\nPage the quokka rota when invoices fail.\n",
  "guides/overview.mdx": "---\ntitle: Overview\n---\nimport Outer from '/snippets/outer.mdx';\n\nAn overview of the platform.\n\n<Outer />\n",
  "snippets/outer.mdx": "---\ngroups: [internal]\n---\nimport Inner from './inner.mdx';\n\nOuter notes.\n\n<Inner />\n",
  "snippets/inner.mdx": "The wombat protocol keeps replicas in sync.\n",
  "guides/tips.mdx": "---\ntitle: Tips\n---\nA setup checklist for new stores.\n",
  "internal/discounts.mdx": "---\ntitle: Discounts\ngroups: [internal]\n---\nSetup a discount code for staff.\n",
};

const SEARCH = "search_acme";
const INTERNAL = readerWithGroups(["internal"]);

async function open(files: Record<string, string>) {
  const repo = makeRepo(files);
  const runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.acme.test" });
  const anon = await connect(runtime);
  const internal = await connect(runtime, INTERNAL);
  const search = async (client: typeof anon, query: string): Promise<Omit<SearchResult, "title" | "file">[]> => {
    const r = await client.call(SEARCH, { query, pageSize: 50 });
    return (r.structuredContent as { results: SearchResult[] }).results.map(({ path, section, url, snippet, score }) => ({ path, section, url, snippet, score }));
  };
  return {
    dir: repo.dir,
    runtime,
    anon: (query: string) => search(anon, query),
    internal: (query: string) => search(internal, query),
    close: async () => {
      await anon.close();
      await internal.close();
      await runtime.close();
      repo.cleanup();
    },
  };
}

describe("search and restricted content", () => {
  let site: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    site = await open(FILES);
  });
  afterAll(async () => {
    await site.close();
  });

  it("leaves a restricted snippet out of the public page that imports it, for readers outside its groups", async () => {
    expect(await site.anon("zanzibar vault passphrase")).toEqual([]);
    expect((await site.anon("setup wizard")).map((r) => [r.path, r.section, r.snippet])).toEqual([
      ["/guides/setup", "", "Install the agent and run the setup wizard."],
      ["/guides/tips", "", "A setup checklist for new stores."],
    ]);
    expect((await site.internal("zanzibar vault passphrase")).map((r) => [r.path, r.section, r.snippet])).toEqual([
      ["/guides/setup", "", "Install the agent and run the setup wizard. The vault passphrase is kept in the zanzibar safe."],
    ]);
  });

  it("leaves a restricted file a `<Snippet file>` tag names out, as an import of it", async () => {
    const tagged = await open({
      "docs.json": JSON.stringify({ name: "Acme", navigation: { pages: ["guides/help"] }, seo: { indexing: "all" } }),
      "guides/help.mdx": '---\ntitle: Help\n---\nAsk the support desk.\n\n<Snippet file="vault.mdx" />\n',
      "_snippets/vault.mdx": SECRET,
    });
    try {
      expect(await tagged.anon("zanzibar vault passphrase")).toEqual([]);
      expect((await tagged.anon("support desk")).map((r) => [r.path, r.snippet])).toEqual([["/guides/help", "Ask the support desk."]]);
      expect((await tagged.internal("zanzibar vault passphrase")).map((r) => [r.path, r.snippet])).toEqual([["/guides/help", "Ask the support desk. The vault passphrase is kept in the zanzibar safe."]]);
    } finally {
      await tagged.close();
    }
  });

  it("leaves an imported restricted page out, with its headings and anchors", async () => {
    expect(await site.anon("incident drill quokka")).toEqual([]);
    expect((await site.anon("invoices")).map((r) => [r.path, r.section, r.snippet])).toEqual([["/guides/billing", "", "Invoices are sent monthly."]]);
    expect((await site.internal("incident drill")).map((r) => [r.path, r.section, r.url])).toEqual([
      ["/guides/billing", "Incident drill", "https://docs.acme.test/guides/billing#incident-drill"],
      ["/internal/runbook", "Incident drill", "https://docs.acme.test/internal/runbook#incident-drill"],
    ]);
  });

  it("reaches a public snippet inside a restricted one only through it", async () => {
    expect(await site.anon("wombat replicas")).toEqual([]);
    expect((await site.internal("wombat replicas")).map((r) => [r.path, r.snippet])).toEqual([
      ["/guides/overview", "An overview of the platform. Outer notes. The wombat protocol keeps replicas in sync."],
    ]);
  });

  it("scores a word found only in restricted pages as a word found nowhere, typos included", async () => {
    const nowhere = await site.anon("setup xylograph");
    expect(await site.anon("setup discount")).toEqual(nowhere);
    expect(await site.anon("setup discont")).toEqual(nowhere);
    expect(nowhere.map((r) => [r.path, r.score])).toEqual([
      ["/guides/setup", 0.28],
      ["/guides/tips", 0.121],
    ]);
    // The same as on a site holding only what the anonymous reader may read.
    const publicOnly = Object.fromEntries(Object.entries(FILES).filter(([, text]) => !text.includes("groups:")));
    const other = await open(publicOnly);
    try {
      expect(await other.anon("setup discount")).toEqual(nowhere);
      expect(await other.anon("setup wizard")).toEqual(await site.anon("setup wizard"));
      expect(await other.anon("invoices")).toEqual(await site.anon("invoices"));
    } finally {
      await other.close();
    }
  });
});

describe("search after an access change", () => {
  it("re-indexes the pages that import a snippet when only the snippet's groups change", async () => {
    const site = await open(FILES);
    try {
      const found = [{ path: "/guides/setup", section: "", snippet: "Install the agent and run the setup wizard. The vault passphrase is kept in the zanzibar safe." }];
      const brief = (rs: { path: string; section: string; snippet: string }[]) => rs.map(({ path, section, snippet }) => ({ path, section, snippet }));
      expect(await site.anon("zanzibar")).toEqual([]);
      writeFileSync(join(site.dir, "snippets/secret.mdx"), "The vault passphrase is kept in the zanzibar safe.\n");
      await site.runtime.applyChanges(["snippets/secret.mdx"]);
      expect(brief(await site.anon("zanzibar"))).toEqual(found);
      writeFileSync(join(site.dir, "snippets/secret.mdx"), SECRET);
      await site.runtime.applyChanges(["snippets/secret.mdx"]);
      expect(await site.anon("zanzibar")).toEqual([]);
      expect(brief(await site.internal("zanzibar"))).toEqual(found);
      rmSync(join(site.dir, "snippets/secret.mdx"));
      await site.runtime.applyChanges(["snippets/secret.mdx"]);
      expect(await site.internal("zanzibar")).toEqual([]);
    } finally {
      await site.close();
    }
  });
});
