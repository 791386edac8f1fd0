import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { parseInput } from "../../../src/engine/use-cases/outcome.js";
import { searchDocs, searchInput, searchText } from "../../../src/engine/use-cases/search-docs.js";
import { ANONYMOUS, readerWithGroups } from "../../../src/vfs/access.js";
import { localContext, requestContext } from "../../../src/vfs/request-context.js";
import { fixture } from "../../helpers/paths.js";
import { makeRepo } from "../../helpers/repo.js";

/** The search use case driven directly: no MCP server, no HTTP, the context built by hand. */
let runtime: DocsRuntime;
beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo"), baseUrl: "https://docs.nimbus.example" });
});
afterAll(async () => runtime.close());

describe("searchDocs", () => {
  it("answers the context's reader with typed results, and the same text the tool shows", async () => {
    const found = await searchDocs({ runtime, request: localContext() }, { query: "signed url expires", pageSize: 1 });
    expect(found).toEqual({
      ok: true,
      value: [
        {
          title: "Access control",
          section: "Signed URLs",
          path: "/guides/access-control",
          file: "/guides/access-control.mdx",
          url: "https://docs.nimbus.example/guides/access-control#signed-urls",
          snippet:
            "Generate a link that expires: nimbus sign nimbus://my-photos/cat.jpg --expires 1h Signed URLs carry an HMAC signature; changing any query parameter invalidates them.",
          score: 0.547,
        },
      ],
    });
    if (!found.ok) return;
    expect(searchText(found.value, "signed url expires", runtime.names)).toBe(
      "1. Access control › Signed URLs\n" +
        "   https://docs.nimbus.example/guides/access-control#signed-urls\n" +
        "   file: /guides/access-control.mdx · score 0.547\n" +
        "   Generate a link that expires: nimbus sign nimbus://my-photos/cat.jpg --expires 1h Signed URLs carry an HMAC signature; changing any query parameter invalidates them.",
    );
    expect(searchText([], "zzz", runtime.names)).toBe('No results for "zzz". Try other words, fewer terms, or search the files: query_docs_filesystem_nimbus_storage with `rg -il "term" /`.');
  });

  it("writes a repeated search's results and text once, frozen, with the query each call asked", async () => {
    const ask = async (query: string) => {
      const found = await searchDocs({ runtime, request: localContext() }, { query, pageSize: 2 });
      if (!found.ok) throw new Error("refused");
      return found.value;
    };
    const first = await ask("multipart upload");
    const again = await ask("multipart upload");
    expect(again).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
    expect(() => (first as unknown as { title: string }[]).push({ title: "x" })).toThrow(TypeError);
    expect(searchText(again, "multipart upload", runtime.names)).toBe(searchText(first, "multipart upload", runtime.names));
    // An empty list's text names the query it was asked with, whichever list object carries it.
    const none = await ask("zzzqqq");
    expect(searchText(none, "zzzqqq", runtime.names)).toBe('No results for "zzzqqq". Try other words, fewer terms, or search the files: query_docs_filesystem_nimbus_storage with `rg -il "term" /`.');
    expect(searchText(none, "qqqzzz", runtime.names)).toBe('No results for "qqqzzz". Try other words, fewer terms, or search the files: query_docs_filesystem_nimbus_storage with `rg -il "term" /`.');
  });

  it("writes a snippet once when later results repeat it, keeping short repeats and every structured snippet", async () => {
    const shared = "Point the exporter at your collector with the endpoint variable, then restart the service so it sends traces.";
    const page = (title: string, own: string): string => `---\ntitle: ${title}\n---\n\n## Get started\n\n${shared}\n\n## Models\n\n${own}`;
    const repo = makeRepo({
      "docs.json": JSON.stringify({ name: "Templates", navigation: { pages: ["alpha", "beta", "gamma", "delta"] } }),
      "alpha.mdx": page("Monitor Alpha", "Alpha widgets."),
      "beta.mdx": page("Monitor Beta", "Beta gadgets."),
      "gamma.mdx": "---\ntitle: Gamma\n---\n\nThe exporter sends traces.",
      "delta.mdx": "---\ntitle: Delta\n---\n\nThe exporter sends traces.",
    });
    const templated = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://t.example" });
    try {
      const found = await searchDocs({ runtime: templated, request: localContext() }, { query: "exporter collector endpoint traces restart" });
      if (!found.ok) throw new Error("refused");
      const [a, b, c, d] = found.value;
      expect(found.value.map((r) => [r.path, r.section, r.snippet])).toEqual([
        ["/alpha", "Get started", shared],
        ["/beta", "Get started", shared],
        ["/delta", "", "The exporter sends traces."],
        ["/gamma", "", "The exporter sends traces."],
      ]);
      expect(searchText(found.value, "exporter", templated.names)).toBe(
        `1. Monitor Alpha › Get started\n   https://t.example/alpha#get-started\n   file: /alpha.mdx · score ${a?.score}\n   ${shared}\n\n` +
          `2. Monitor Beta › Get started\n   https://t.example/beta#get-started\n   file: /beta.mdx · score ${b?.score}\n   (same text as result 1)\n\n` +
          `3. Delta\n   https://t.example/delta\n   file: /delta.mdx · score ${c?.score}\n   The exporter sends traces.\n\n` +
          `4. Gamma\n   https://t.example/gamma\n   file: /gamma.mdx · score ${d?.score}\n   The exporter sends traces.`,
      );
    } finally {
      await templated.close();
      repo.cleanup();
    }
  });

  it("writes a page's new text after an edit (a reload starts new result lists)", async () => {
    const repo = makeRepo({ "docs.json": JSON.stringify({ name: "Edit", navigation: { pages: ["a"] } }), "a.mdx": "# A\n\nOld widgets glow." });
    const edited = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://e.example" });
    try {
      const snippet = async () => {
        const found = await searchDocs({ runtime: edited, request: localContext() }, { query: "widgets" });
        return found.ok ? found.value.map((r) => r.snippet) : found.issues;
      };
      expect(await snippet()).toEqual(["Old widgets glow."]);
      writeFileSync(join(repo.dir, "a.mdx"), "# A\n\nNew widgets hum.");
      await edited.applyChanges(["a.mdx"]);
      expect(await snippet()).toEqual(["New widgets hum."]);
    } finally {
      await edited.close();
      repo.cleanup();
    }
  });

  it("reads as the reader and under the auth setting the context carries", async () => {
    const paths = async (request: ReturnType<typeof localContext>) => {
      const found = await searchDocs({ runtime, request }, { query: "storage node drain runbook", pageSize: 50 });
      return found.ok ? found.value.map((r) => r.path) : found.issues;
    };
    expect(await paths(localContext())).not.toContain("/internal/runbook");
    expect((await paths(localContext(readerWithGroups(["staff"]))))[0]).toBe("/internal/runbook");
    // A fully authenticated site shows an anonymous reader nothing but its public pages.
    expect(await paths(requestContext(ANONYMOUS, "full"))).toEqual([]);
  });

  it("names the arguments the site refutes, and the schema's issues by argument", async () => {
    const repo = makeRepo({
      "docs.json": JSON.stringify({ name: "Two", navigation: { versions: [{ version: "v1", pages: ["v1/a"] }, { version: "v2", pages: ["v2/a"] }] } }),
      "v1/a.mdx": "# A\n\nOld widgets.",
      "v2/a.mdx": "# A\n\nNew widgets.",
    });
    const versioned = await DocsRuntime.load({ root: repo.dir });
    try {
      // (A site without languages takes any language filter: every page is in every language.)
      expect(await searchDocs({ runtime: versioned, request: localContext() }, { query: "widgets", version: "v3", language: "fr" })).toEqual({
        ok: false,
        issues: [{ argument: "version", message: 'not a version of this site; use one of v1, v2, latest (got "v3")' }],
      });
    } finally {
      await versioned.close();
      repo.cleanup();
    }
    expect(parseInput(searchInput, { query: " ", pageSize: 0, limit: 1 })).toEqual({
      ok: false,
      issues: [
        { argument: "query", message: 'must not be empty (got "")' },
        { argument: "pageSize", message: "must be an integer from 1 to 50 (got 0)" },
        { message: 'unknown argument "limit"' },
      ],
    });
  });
});
