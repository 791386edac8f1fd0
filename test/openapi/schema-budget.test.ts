import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { operationHtml } from "../../src/bridge/web/api-page.js";
import type { ApiSettings } from "../../src/config/openapi/api-settings.js";
import { SchemaBudget } from "../../src/config/openapi/schema-budget.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { LIMITS } from "../../src/limits.js";
import { loadSite } from "../../src/vfs/load-site.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";
import { tempRepo } from "../config/temp-repo.js";

// Issue 25 (adversary): eight schemas each with a property of every other, used by 25 query
// parameters, a request body and a response, 28 KB in all: far under the expansion limit (a
// cycle counts once), but each walker of a page had its own bound, paid once per use, so each
// of its 20 pages walked 20,000 example values per parameter. The search index build took 49 s
// of CPU and 3.2 GB; over stdio `initialize` waited, and a live edit left `ping` unanswered.
// Now every walker of a page takes from one budget of schema nodes (`SchemaBudget`).

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The adversary's shape: `k` schemas each with a property `$ref`ing every other; `n` query
 *  parameters of schema S0; `paths` paths, each with a GET and a POST listing every parameter,
 *  a body and a response of S0. */
function clique(n: number, paths: number, k = 8): object {
  const schemas = Object.fromEntries(Array.from({ length: k }, (_, i) => [`S${i}`, { type: "object", properties: Object.fromEntries(Array.from({ length: k }, (_, j) => [`p${j}`, ref("schemas", `S${j}`)])) }]));
  const parameters = Object.fromEntries(Array.from({ length: n }, (_, i) => [`P${i}`, { name: `q${i}`, in: "query", schema: ref("schemas", "S0") }]));
  const list = Array.from({ length: n }, (_, i) => ref("parameters", `P${i}`));
  const json = { "application/json": { schema: ref("schemas", "S0") } };
  const op = (method: string) => ({ summary: `${method} r`, parameters: list, ...(method === "post" ? { requestBody: { content: json } } : {}), responses: { "200": { description: "ok", content: json } } });
  return {
    openapi: "3.0.3",
    info: { title: "Clique", version: "1" },
    paths: Object.fromEntries(Array.from({ length: paths }, (_, i) => [`/r${i}`, { get: op("get"), post: op("post") }])),
    components: { schemas, parameters },
  };
}

const site = (spec: object) => tempRepo({ "docs.json": { name: "Clique", navigation: { groups: [{ group: "Start", pages: ["index"] }, { group: "C", openapi: "api/c.json" }] } }, "api/c.json": spec, "index.mdx": "# Home\n" });

const NOTE = "> **Cut:** this page shows 5,000 schema nodes at most, and its schemas reach each other in more ways than that: some fields are not listed, some types read `…` and some example objects are empty. The spec file (see Source) holds them whole.";

describe("one budget of schema nodes per page, shared by every walker", () => {
  it("the adversary's 28 KB shape: each page is cut with the note, and check names each cut operation", async () => {
    const root = site(clique(25, 2));
    expect(await runCli(["fs", "--dir", root, "head -n 14 /api-reference/get-r.mdx; wc -c /api-reference/get-r.mdx /api-reference/post-r.mdx"])).toEqual({
      code: 0,
      stdout: [
        "---",
        'title: "get r"',
        'openapi: "api/c.json GET /r0"',
        'playground: "interactive"',
        "---",
        "",
        "# get r",
        "",
        "`GET /r0`",
        "",
        NOTE,
        "",
        "**Playground:** interactive, for every reader; requests are relayed by POST /_svc/api/request",
        "",
        " 93139 /api-reference/get-r.mdx",
        " 93322 /api-reference/post-r.mdx",
        "186461 total",
        "",
      ].join("\n"),
      stderr: "",
    });
    const cut = (page: string, op: string) => `api/c.json warning: the page /api-reference/${page} of ${op} is cut at 5000 schema nodes: its schemas reach each other in more ways than one page shows (some fields, types and example values are left out, and the page says so)\n`;
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 0,
      stdout: cut("get-r", "GET /r0") + cut("get-r-1", "GET /r1") + cut("post-r", "POST /r0") + cut("post-r-1", "POST /r1") + "checked docs.json and 1 page (+4 generated from API specs): 0 errors, 4 warnings\n",
      stderr: "",
    });
  });

  // Adversary round 15: a node counted the same whatever text it carried, so one 30 KB
  // description on each of the eight schemas was written once per node: a 45 KB spec made pages
  // of 12 MB and `serve` took 4 GB. Text now costs a node per 128 characters (`takeText`).
  it("text is charged too: a long description on every schema of the clique leaves a page of bounded size", async () => {
    const big = "lorem ipsum ".repeat(2_500);
    const spec = clique(5, 1) as { components: { schemas: Record<string, { description?: string }>; parameters: Record<string, { description?: string }> } };
    for (const s of Object.values(spec.components.schemas)) s.description = big;
    for (const p of Object.values(spec.components.parameters)) p.description = big;
    const root = site(spec);
    expect(await runCli(["fs", "--dir", root, "wc -c /api-reference/get-r.mdx /api-reference/post-r.mdx; grep -c 'lorem ipsum lorem' /api-reference/get-r.mdx; grep -c '^> \\*\\*Cut' /api-reference/get-r.mdx"])).toEqual({
      code: 0,
      // 16 of the descriptions on each page (30,000 characters: 234 nodes each), not 5,000.
      stdout: "481808 /api-reference/get-r.mdx\n482419 /api-reference/post-r.mdx\n964227 total\n16\n1\n",
      stderr: "",
    });
  });

  it("a page cut only where its text ran out says what was left out, not that its fields are not all listed", async () => {
    // A code sample longer than the page's whole budget (5,000 nodes of 128 characters) and a
    // short one; no schema at all. The note was the schemas' whatever was cut.
    const spec = {
      openapi: "3.0.3",
      info: { title: "S", version: "1" },
      paths: { "/x": { get: { summary: "X", "x-codeSamples": [{ lang: "shell", label: "Huge", source: `echo ${"y".repeat(700_000)}` }, { lang: "shell", label: "Small", source: "curl https://api.example.com/x" }], responses: { "200": { description: "ok" } } } } },
    };
    const root = tempRepo({ "docs.json": { name: "S", navigation: { groups: [{ group: "Start", pages: ["index"] }, { group: "C", openapi: "api/s.json" }] } }, "api/s.json": spec, "index.mdx": "# Home\n" });
    const out = await runCli(["fs", "--dir", root, "grep -n '^> \\*\\*Cut\\|^```' /api-reference/x.mdx; grep -c yyyy /api-reference/x.mdx || true"]);
    expect(out).toEqual({
      code: 0,
      stdout: [
        "11:> **Cut:** this page shows 5,000 schema nodes' worth of text at most, and its code samples are longer than that: some code samples are left out. The spec file (see Source) holds them whole.",
        // The huge sample is left out; the small one and the generated examples are there.
        "23:```bash Small",
        "25:```",
        "27:```bash cURL",
        "30:```",
        "32:```python Python",
        "40:```",
        "42:```javascript JavaScript",
        "48:```",
        "0",
        "",
      ].join("\n"),
      stderr: "",
    });
    // `check` and the preview's HTML say the same as the page's note.
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 0,
      stdout:
        "api/s.json warning: the page /api-reference/x of GET /x is cut at 5000 schema nodes' worth of text: its code samples are longer than one page shows (some code samples are left out, and the page says so)\n" +
        "checked docs.json and 1 page (+1 generated from API specs): 0 errors, 1 warning\n",
      stderr: "",
    });
    const loaded = await loadSite(root);
    const item = loaded.site.api?.plan.pages[0]?.item;
    const info = loaded.site.api?.pages.get("/api-reference/x");
    if (item?.kind !== "operation" || info === undefined) throw new Error("no page");
    const html = operationHtml({ spec: item.spec, op: item.operation, pagePath: "/api-reference/x", title: "X", settings: loaded.site.api?.settings as ApiSettings, playground: info.playground, view: { kind: "form" }, markdown: (t) => t, schemaNodes: info.schemaNodes });
    expect(html.match(/<p class="notice cut">[^<]*<\/p>/g)).toEqual([
      `<p class="notice cut">Cut: this page shows 5,000 schema nodes' worth of text at most, and its code samples are longer than that: some code samples are left out. The spec file holds them whole.</p>`,
    ]);
  });

  it("a request body of about the budget's size is written in the first language only: each other language would write it again", async () => {
    // 1,500 fields named in 130 characters: the field list and the example request's keys take
    // the page's 5,000 nodes, and Python and JavaScript would each write the body whole again
    // (the page was 3 times the body). They are left out, and the note says so.
    const properties = Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`${"f".repeat(126)}${String(i).padStart(4, "0")}`, { type: "string" }]));
    const spec = {
      openapi: "3.0.3",
      info: { title: "B", version: "1" },
      paths: { "/b": { post: { summary: "B", requestBody: { content: { "application/json": { schema: { type: "object", properties } } } }, responses: { "200": { description: "ok" } } } } },
    };
    const root = tempRepo({ "docs.json": { name: "B", navigation: { groups: [{ group: "Start", pages: ["index"] }, { group: "C", openapi: "api/b.json" }] } }, "api/b.json": spec, "index.mdx": "# Home\n" });
    expect(await runCli(["fs", "--dir", root, "grep -n '^> \\*\\*Cut\\|^```' /api-reference/b.mdx; wc -c /api-reference/b.mdx"])).toEqual({
      code: 0,
      stdout: [
        "11:> **Cut:** this page shows 5,000 schema nodes' worth of text at most, and its example values and its code samples are longer than that: some examples and defaults are shortened or left out and some code samples are left out. The spec file (see Source) holds them whole.",
        // The body once (shortened to what the page has left), not three times.
        "329:```bash cURL",
        "834:```",
        "158251 /api-reference/b.mdx",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("names are charged too: a 30,000-character property name on every schema of the clique leaves a page of bounded size", async () => {
    // Adversary round 16 (F3): the name is written in each row's dotted path (`p1.p2.<name>`, once
    // per nesting level), its anchor and the example's keys; uncharged, 55-77 KB specs made ~30 MB
    // pages and `search` took 4.7 GB.
    const name = "k".repeat(30_000);
    const spec = clique(5, 1) as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    for (const sc of Object.values(spec.components.schemas)) sc.properties[name] = { type: "string" };
    const root = site(spec);
    expect(await runCli(["fs", "--dir", root, "wc -c /api-reference/get-r.mdx /api-reference/post-r.mdx; grep -c '^> \\*\\*Cut' /api-reference/post-r.mdx"])).toEqual({
      code: 0,
      // Under the budget's ~640 KB of text (5,000 nodes of 128 characters), cut with the note.
      stdout: "277787 /api-reference/get-r.mdx\n551590 /api-reference/post-r.mdx\n829377 total\n1\n",
      stderr: "",
    });
  });

  describe("what the walkers of one page take, whatever the $ref graph", () => {
    afterEach(() => vi.restoreAllMocks());
    const K = 8;
    const obj = (props: Record<string, unknown>) => ({ type: "object", properties: props });
    const each = (make: (j: number) => unknown) => Object.fromEntries(Array.from({ length: K }, (_, j) => [`p${j}`, make(j)]));
    const S = (j: number) => ref("schemas", `S${j}`);
    /** A spec of one POST whose parameters, body and response are `use` of the `schemas`. */
    const spec = (schemas: Record<string, unknown>, use: unknown) => ({
      openapi: "3.0.3",
      info: { title: "G", version: "1" },
      paths: { "/x": { post: { summary: "X", parameters: Array.from({ length: 30 }, (_, i) => ({ name: `q${i}`, in: "header", schema: use })), requestBody: { content: { "application/json": { schema: use } } }, responses: { "200": { description: "ok", content: { "application/json": { schema: use } } }, "201": { description: "ok", content: { "application/json": { schema: use } } } } } } },
      components: { schemas },
    });
    const ring = (make: (i: number) => unknown) => Object.fromEntries(Array.from({ length: K }, (_, i) => [`S${i}`, make(i)]));
    const SHAPES: Record<string, object> = {
      "properties, each schema every other": spec(ring(() => obj(each(S))), S(0)),
      "a DAG: six levels, each nine properties of the next": spec(
        Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`S${i}`, i === 5 ? { type: "string" } : obj(Object.fromEntries(Array.from({ length: 9 }, (_, j) => [`f${j}`, S(i + 1)])))])),
        S(0),
      ),
      "arrays of every other": spec(ring(() => obj(each((j) => ({ type: "array", items: S(j) })))), S(0)),
      "allOf of every other": spec(ring((i) => ({ type: "object", properties: { [`own${i}`]: { type: "string" } }, allOf: Array.from({ length: K }, (_, j) => S(j)) })), S(0)),
      "oneOf and anyOf of every other": spec(ring((i) => obj({ [`one${i}`]: { oneOf: Array.from({ length: K }, (_, j) => S(j)) }, [`any${i}`]: { anyOf: Array.from({ length: K }, (_, j) => S(j)) }, ...each(S) })), S(0)),
      "additionalProperties, not, if/then/else of every other": spec(ring(() => ({ ...obj(each(S)), additionalProperties: S(1), not: S(2), if: S(3), then: S(4), else: S(5) })), S(0)),
    };

    it.each(Object.keys(SHAPES))("%s: at most the page's budget of nodes, for its text and its HTML alike", async (name) => {
      const root = site(SHAPES[name] as object);
      const loaded = await loadSite(root);
      const page = loaded.site.pages.get("/api-reference/x");
      const item = loaded.site.api?.plan.pages[0]?.item;
      const info = loaded.site.api?.pages.get("/api-reference/x");
      if (page === undefined || item?.kind !== "operation" || info === undefined) throw new Error("no page");
      const take = vi.spyOn(SchemaBudget.prototype, "take");
      /** Nodes taken while rendering, and every call (a refused one too). */
      const counted = (render: () => unknown): { taken: number; calls: number } => {
        take.mockClear();
        render();
        return { taken: take.mock.results.filter((r) => r.value === true).length, calls: take.mock.calls.length };
      };
      const text = counted(() => page.file.text);
      const html = counted(() => operationHtml({ spec: item.spec, op: item.operation, pagePath: "/api-reference/x", title: "X", settings: loaded.site.api?.settings as ApiSettings, playground: info.playground, view: { kind: "form" }, markdown: (t) => t, schemaNodes: info.schemaNodes }));
      // Every node walked is taken from the budget; a refused one costs a constant (a field list
      // ends, an object comes out empty), a few per parameter, field list or example at most.
      // The parameters' anchors are walked on a budget of the page's size of their own.
      const max = 2 * LIMITS.api.maxPageSchemaNodes;
      const within = (c: { taken: number; calls: number }) => ({ taken: c.taken <= max, calls: c.calls <= max + 200 });
      expect({ text: within(text), html: within(html) }).toEqual({ text: { taken: true, calls: true }, html: { taken: true, calls: true } });
    });
  });

  it("a live edit to such a spec: the server keeps answering, and the page is cut", async () => {
    const root = site({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths: { "/users": { get: { summary: "List users", responses: { "200": { description: "ok" } } } } } });
    const runtime = await DocsRuntime.load({ root, log: () => {} });
    try {
      await runtime.watch();
      const c = await connect(runtime);
      const fs = (command: string) => c.call("query_docs_filesystem_clique", { command }).then((r) => c.text(r));
      const changed = new Promise<void>((resolve) => {
        const stop = runtime.onChange(() => {
          stop();
          resolve();
        });
      });
      writeFileSync(join(root, "api/c.json"), JSON.stringify(clique(25, 10)));
      await changed;
      const ping = await c.client.ping();
      expect({ ping, head: await fs("head -n 11 /api-reference/get-r.mdx | tail -n 1"), ls: await fs("ls /api-reference | head -n 3") }).toEqual({ ping: {}, head: `${NOTE}\n`, ls: "get-r-1.mdx\nget-r-2.mdx\nget-r-3.mdx\n" });
      await c.close();
    } finally {
      await runtime.close();
    }
  });
});
