import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResult } from "../../src/mcp/search-tool.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { argumentError, connect } from "../helpers/mcp.js";
import { fileTime } from "../helpers/provenance.js";

/** A small versioned, two-language docs repository written for these tests. */
const FILES: Record<string, string> = {
  "docs.json": JSON.stringify({
    name: "Acme",
    navigation: {
      versions: [
        {
          version: "v1",
          languages: [
            { language: "en", groups: [{ group: "Guides", pages: ["v1/en/webhooks"] }] },
            { language: "es", groups: [{ group: "Guías", pages: ["v1/es/webhooks"] }] },
          ],
        },
        {
          version: "v2",
          languages: [
            { language: "en", groups: [{ group: "Guides", pages: ["v2/en/webhooks", "v2/en/staff"] }] },
            { language: "es", groups: [{ group: "Guías", pages: ["v2/es/webhooks"] }] },
          ],
        },
      ],
    },
  }),
  "v1/en/webhooks.mdx": "---\ntitle: Webhooks (v1)\n---\n## Signing\n\nVerify the webhook signature with your secret.",
  "v1/es/webhooks.mdx": "---\ntitle: Webhooks (v1, es)\n---\n## Firma\n\nVerifica la firma del webhook.",
  "v2/en/webhooks.mdx": "---\ntitle: Webhooks\n---\n## Signing\n\nVerify the webhook signature with your secret.\n\n## Retries\n\nDeliveries are retried.",
  "v2/es/webhooks.mdx": "---\ntitle: Webhooks (es)\n---\n## Firma\n\nVerifica la firma del webhook.",
  "v2/en/staff.mdx": "---\ntitle: Webhook incident runbook\ngroups: [staff]\n---\nRotate the webhook secret when it leaks.",
};

const SEARCH = "search_acme";
let dir: string;
let runtime: DocsRuntime;
let anon: Awaited<ReturnType<typeof connect>>;
let staff: Awaited<ReturnType<typeof connect>>;

const results = (r: { structuredContent?: unknown }): SearchResult[] => (r.structuredContent as { results: SearchResult[] }).results;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-mcp-search-"));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  runtime = await DocsRuntime.load({ root: dir, baseUrl: "https://docs.acme.test" });
  anon = await connect(runtime);
  staff = await connect(runtime, readerWithGroups(["staff"]));
});

afterAll(async () => {
  await anon.close();
  await staff.close();
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("search tool through the MCP client", () => {
  it("filters by version and language", async () => {
    const paths = async (args: Record<string, unknown>) => results(await anon.call(SEARCH, { query: "webhook", ...args })).map((r) => r.path).sort();
    // Unfiltered, the page is one result with its other version and language folded in. v1 is
    // the default, but the English v2 page matches "webhook" clearly better (its title is the
    // word alone), so it shows; the Spanish copy listed is the one in its version.
    const unfiltered = results(await anon.call(SEARCH, { query: "webhook" }));
    expect(
      unfiltered.map((r) => [r.path, r.versions, r.languages, r.otherVersions?.map((o) => [o.path, o.versions]), r.otherLanguages?.map((o) => [o.path, o.languages, o.versions])]),
    ).toEqual([["/v2/en/webhooks", ["v2"], ["en"], [["/v1/en/webhooks", ["v1"]]], [["/v2/es/webhooks", ["es"], ["v2"]]]]]);
    expect(await paths({ version: "v2" })).toEqual(["/v2/en/webhooks"]);
    expect(await paths({ version: "v2", language: "en" })).toEqual(["/v2/en/webhooks"]);
    expect(await paths({ version: "v2", language: "es" })).toEqual(["/v2/es/webhooks"]);
    expect(await anon.call(SEARCH, { query: "webhook", version: "v3" })).toEqual(argumentError('Invalid arguments for search_acme: version: not a version of this site; use one of v1, v2, latest (got "v3")'));
  });

  it("returns the whole hit: title, section, link to the section, file, snippet, score", async () => {
    const r = await anon.call(SEARCH, { query: "verify webhook signature", version: "v2", language: "en" });
    expect(results(r)).toEqual([
      {
        title: "Webhooks",
        section: "Signing",
        path: "/v2/en/webhooks",
        file: "/v2/en/webhooks.mdx",
        url: "https://docs.acme.test/v2/en/webhooks#signing",
        snippet: "Verify the webhook signature with your secret.",
        score: results(r)[0]?.score,
        versions: ["v2"],
        languages: ["en"],
        lastModified: fileTime(dir, "v2/en/webhooks.mdx"),
      },
    ]);
    expect(anon.text(r)).toBe(
      `1. Webhooks › Signing\n   https://docs.acme.test/v2/en/webhooks#signing\n   file: /v2/en/webhooks.mdx · score ${results(r)[0]?.score} · version v2 · language en\n   Verify the webhook signature with your secret.`,
    );
  });

  it("unfiltered, names the result's version and language and links its other versions", async () => {
    const r = await anon.call(SEARCH, { query: "verify webhook signature", language: "en" });
    const [first] = results(r);
    const other = first?.otherVersions?.[0];
    expect(results(r)).toEqual([
      {
        title: "Webhooks (v1)",
        section: "Signing",
        path: "/v1/en/webhooks",
        file: "/v1/en/webhooks.mdx",
        url: "https://docs.acme.test/v1/en/webhooks#signing",
        snippet: "Verify the webhook signature with your secret.",
        score: first?.score,
        versions: ["v1"],
        languages: ["en"],
        otherVersions: [{ versions: ["v2"], path: "/v2/en/webhooks", url: "https://docs.acme.test/v2/en/webhooks", score: other?.score }],
        lastModified: fileTime(dir, "v1/en/webhooks.mdx"),
      },
    ]);
    expect(anon.text(r)).toBe(
      `1. Webhooks (v1) › Signing\n   https://docs.acme.test/v1/en/webhooks#signing\n   file: /v1/en/webhooks.mdx · score ${first?.score} · version v1 · language en\n` +
        `   also in v2: https://docs.acme.test/v2/en/webhooks\n   Verify the webhook signature with your secret.`,
    );
  });

  it("applies scoreThreshold exactly and pageSize after it", async () => {
    const all = results(await anon.call(SEARCH, { query: "webhook signature secret", pageSize: 50 }));
    // One page in two versions and two languages: one result since languages fold too.
    expect(all.length).toBe(1);
    for (const t of [0, ...all.map((r) => r.score), 1]) {
      expect(results(await anon.call(SEARCH, { query: "webhook signature secret", pageSize: 50, scoreThreshold: t }))).toEqual(all.filter((r) => r.score >= t));
    }
    expect(results(await anon.call(SEARCH, { query: "webhook signature secret", pageSize: 1 }))).toEqual(all.slice(0, 1));
  });

  it("never shows a restricted page to a reader outside its groups", async () => {
    const a = await anon.call(SEARCH, { query: "webhook incident runbook", pageSize: 50 });
    expect(JSON.stringify(a)).not.toContain("staff");
    expect(results(await staff.call(SEARCH, { query: "webhook incident runbook", pageSize: 1 })).map((r) => r.path)).toEqual(["/v2/en/staff"]);
  });

  it("says how to go on when nothing matches", async () => {
    const r = await anon.call(SEARCH, { query: "kubernetes helm chart" });
    expect(r.isError).toBeUndefined();
    expect(anon.text(r)).toBe(
      'No results for "kubernetes helm chart". Try other words, fewer terms, or search the files: query_docs_filesystem_acme with `rg -il "term" /`.',
    );
    // Outside a git checkout, and nothing read: the provenance is the cache hint alone.
    expect(r.structuredContent).toEqual({ results: [], provenance: { ttlMs: 60_000 } });
  });

  it("finds an edit as soon as the runtime has applied it", async () => {
    writeFileSync(join(dir, "v2/en/webhooks.mdx"), `${FILES["v2/en/webhooks.mdx"]}\n\n## Quokka mode\n\nEnable quokka mode for gentle retries.`);
    await runtime.applyChanges(["v2/en/webhooks.mdx"]);
    expect(results(await anon.call(SEARCH, { query: "quokka" })).map((r) => [r.path, r.section])).toEqual([["/v2/en/webhooks", "Quokka mode"]]);
  });
});
