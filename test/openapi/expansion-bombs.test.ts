import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dereferenceLocal } from "../../src/config/openapi/dereference-internal.js";
import { exampleValue } from "../../src/config/openapi/example-value.js";
import { expandedSize } from "../../src/config/expanded-size.js";
import { parseDocument } from "../../src/config/openapi/parse-document.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { LIMITS } from "../../src/limits.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";
import { copyToTemp, fixture, SHARED } from "../helpers/paths.js";
import { describeShared } from "../helpers/shared.js";
import { tempRepo } from "../config/temp-repo.js";

// Issue 25: 690 bytes of nested YAML aliases ("billion laughs": ten levels of nine references)
// stalled `serve` for 90 s and then killed it, and `check` with it; schemas each referencing the
// one below nine times do the same once their `$ref`s are replaced. Such a spec is refused with
// the limit named, before anything walks it; it costs only its pages.

const MAX = LIMITS.api.maxExpandedValues;

/** YAML whose `x-bomb.a9` stands for 9^10 strings, used by one operation. */
const ALIAS_BOMB = [
  "openapi: 3.0.0",
  "info: {title: B, version: '1'}",
  "x-bomb:",
  '  a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...Array.from({ length: 9 }, (_, i) => `  a${i + 1}: &a${i + 1} [${Array.from({ length: 9 }, () => `*a${i}`).join(",")}]`),
  "paths:",
  "  /x:",
  "    get:",
  "      summary: X",
  "      x-b: *a9",
  "      responses: {'200': {description: ok}}",
  "",
].join("\n");

/** The same as JSON `$ref`s: `e9` holds nine `$ref`s to `e8`, and so on, in any kind of spec. */
function refBomb(head: object, use: (ref: object) => object): object {
  const bomb: Record<string, unknown> = { e0: Array.from({ length: 9 }, () => "lol") };
  for (let i = 1; i <= 9; i++) bomb[`e${i}`] = Array.from({ length: 9 }, () => ({ $ref: `#/x-bomb/e${i - 1}` }));
  return { ...head, "x-bomb": bomb, ...use({ $ref: "#/x-bomb/e9" }) };
}
const openapiRefBomb = refBomb({ openapi: "3.1.0", info: { title: "B", version: "1" } }, (ref) => ({
  paths: { "/x": { get: { summary: "X", responses: { "200": { description: "ok", content: { "application/json": { example: ref } } } } } } },
}));
const asyncapiRefBomb = refBomb({ asyncapi: "3.0.0", info: { title: "A", version: "1" } }, (ref) => ({ channels: { c: { address: "c", messages: { m: { payload: { type: "object", examples: [ref] } } } } } }));

const GOOD = { openapi: "3.0.3", info: { title: "T", version: "1" }, paths: { "/users": { get: { summary: "List users", responses: { "200": { description: "ok" } } } } } };
const docsJson = (bomb: string) => ({ name: "Bomb", navigation: { groups: [{ group: "Start", pages: ["index"] }, { group: "Good", openapi: "api/good.json" }, { group: "Bomb", openapi: bomb }] } });

async function checkWith(file: string, text: string | object): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(["check", "--dir", tempRepo({ "docs.json": docsJson(file), "api/good.json": GOOD, [file]: text, "index.mdx": "# Home\n" })]);
}
const finding = (file: string, at: string) => `docs.json:17:20 navigation.groups[2].openapi: API spec ${file}: more than ${MAX} values once YAML aliases and $refs are copied out where they are used (at ${at}): not read\n`;
const summary = "checked docs.json and 1 page (+1 generated from API specs): 1 error, 0 warnings\n";

describe("a spec that expands past the limit costs only its pages", () => {
  it("a YAML alias bomb: refused at the parse, naming the alias being counted", async () => {
    expect(await checkWith("api/bomb.yaml", ALIAS_BOMB)).toEqual({ code: 1, stdout: finding("api/bomb.yaml", "x-bomb.a7") + summary, stderr: "" });
  });

  it("the same as JSON $refs (OpenAPI 3.1, AsyncAPI 3), and aliases in a Swagger 2.0 spec", async () => {
    const runs = await Promise.all([
      checkWith("api/bomb.json", openapiRefBomb),
      checkWith("api/events.json", asyncapiRefBomb),
      checkWith("api/bomb.yaml", ALIAS_BOMB.replace("openapi: 3.0.0", "swagger: '2.0'")),
    ]);
    expect(runs).toEqual([
      { code: 1, stdout: finding("api/bomb.json", "x-bomb.e7") + summary, stderr: "" },
      { code: 1, stdout: finding("api/events.json", "x-bomb.e7") + summary, stderr: "" },
      { code: 1, stdout: finding("api/bomb.yaml", "x-bomb.a7") + summary, stderr: "" },
    ]);
  });

  it("the same in another file a $ref reads (counted once the $refs are replaced)", async () => {
    const parts = refBomb({}, () => ({}));
    const main = { ...GOOD, paths: { "/x": { get: { summary: "X", "x-b": { $ref: "./parts.json#/x-bomb/e9" }, responses: { "200": { description: "ok" } } } } } };
    const root = tempRepo({ "docs.json": docsJson("api/main.json"), "api/good.json": GOOD, "api/main.json": main, "api/parts.json": parts, "index.mdx": "# Home\n" });
    expect(await runCli(["check", "--dir", root])).toEqual({ code: 1, stdout: finding("api/main.json", "paths./x.get.x-b.0.0") + summary, stderr: "" });
  });

  it("served: a live edit to a bomb keeps the last good pages, and the other tools answer", async () => {
    const tmp = copyToTemp(fixture("api-demo"));
    const logs: string[] = [];
    const logged = new Set<() => void>();
    const runtime = await DocsRuntime.load({ root: tmp.dir, log: (m) => (logs.push(m), logged.forEach((l) => l())) });
    try {
      await runtime.watch();
      const c = await connect(runtime);
      const fs = (command: string) => c.call("query_docs_filesystem_parcel_api", { command }).then((r) => c.text(r));
      const before = await fs("ls /api-reference");
      const good = await fs("head -c 40 /api/openapi.yaml");
      writeFileSync(join(tmp.dir, "api/openapi.yaml"), ALIAS_BOMB);
      await new Promise<void>((resolve) => {
        const seen = (): void => void (logs.some((l) => l.includes("api/openapi.yaml")) && resolve());
        logged.add(seen);
        seen();
      });
      expect(logs.filter((l) => l.includes("api/openapi.yaml"))).toEqual([
        `docs.json navigation.tabs[1].groups[0].openapi: API spec api/openapi.yaml: more than ${MAX} values once YAML aliases and $refs are copied out where they are used (at x-bomb.a7): not read (keeping the last good version)`,
      ]);
      // The spec file too is its last good version, as its pages are (test/openapi/spec-kept-bytes.test.ts).
      expect({ pages: await fs("ls /api-reference"), spec: await fs("head -c 40 /api/openapi.yaml") }).toEqual({ pages: before, spec: good });
      const search = (await c.call("search_parcel_api", { query: "parcel" })).structuredContent as { results: { path: string }[] };
      expect(search.results.map((r) => r.path)).toEqual(["/index", "/api-reference/parcels/track-a-parcel", "/api-reference/parcels/create-a-shipping-label"]);
      await c.close();
    } finally {
      await runtime.close();
      tmp.cleanup();
    }
  });
});

describe("expandedSize", () => {
  it("counts a shared object wherever it is used, a cycle once, and stops past the limit", () => {
    const shared = { a: 1, b: [2, 3] };
    const cyclic: Record<string, unknown> = { x: 1 };
    cyclic.self = cyclic;
    // Root 1 + `s` and `t` (shared: 1 + a + b, b = 1 + 2 + 3) + `c` (1 + x + self counted once).
    expect(expandedSize({ s: shared, t: shared, c: cyclic }, 100)).toEqual({ over: false, size: 1 + 5 + 5 + 3 });
    expect(expandedSize({ s: shared, t: shared, c: cyclic }, 13)).toEqual({ over: true, at: [] });
    // The place named is the object whose count went over first.
    expect(expandedSize({ u: [shared, shared, shared] }, 12)).toEqual({ over: true, at: ["u"] });
  });
});

describeShared("real specs stay far below the limit", () => {
  // As written (the YAML's aliases) and with the `$ref`s replaced: the figures in
  // docs/api-reference.md. The largest, Discord's resolved, is a tenth of the limit.
  it("every spec of the shared specs and corpora", () => {
    const files = [
      ...["asyncapi-3.1-slack-rtm.yml", "asyncapi-3.1-streetlights-kafka.yml", "discord-openapi-3.1.json", "mem0-openapi-3.0.1.json", "oai-v2.0-petstore.yaml", "oai-v2.0-uber.yaml", "oai-v3.0-petstore-expanded.yaml", "oai-v3.0-uspto.yaml", "oai-v3.1-webhook-example.yaml", "pipecat-cloud-openapi-3.0.0.json"].map((f) => `specs/${f}`),
      ...["openapi.json", "openapi-ja.json", "openapi-zh.json"].map((f) => `corpora/alltick/api-reference/${f}`),
      ...["admin.yaml", "oauth.yml", "platform.yaml", "store.yaml", "storefront.yaml"].map((f) => `corpora/spree/api-reference/${f}`),
    ];
    const sizes = files.map((file) => {
      const parsed = parseDocument(readFileSync(join(SHARED, file), "utf8"));
      if (!parsed.ok) throw new Error(`${file}: ${parsed.message}`);
      const written = expandedSize(parsed.document, MAX);
      const resolved = expandedSize(dereferenceLocal(parsed.document).document, MAX);
      return `${file} ${written.over ? "over" : written.size} ${resolved.over ? "over" : resolved.size}`;
    });
    expect(sizes).toEqual([
      "specs/asyncapi-3.1-slack-rtm.yml 1031 4025",
      "specs/asyncapi-3.1-streetlights-kafka.yml 213 596",
      "specs/discord-openapi-3.1.json 29438 2048488",
      "specs/mem0-openapi-3.0.1.json 5769 6353",
      "specs/oai-v2.0-petstore.yaml 106 170",
      "specs/oai-v2.0-uber.yaml 282 420",
      "specs/oai-v3.0-petstore-expanded.yaml 160 261",
      "specs/oai-v3.0-uspto.yaml 174 196",
      "specs/oai-v3.1-webhook-example.yaml 31 41",
      "specs/pipecat-cloud-openapi-3.0.0.json 3194 6615",
      "corpora/alltick/api-reference/openapi.json 764 1225",
      "corpora/alltick/api-reference/openapi-ja.json 764 1225",
      "corpora/alltick/api-reference/openapi-zh.json 764 1225",
      "corpora/spree/api-reference/admin.yaml 36280 480536",
      "corpora/spree/api-reference/oauth.yml 237 362",
      "corpora/spree/api-reference/platform.yaml 23019 34966",
      "corpora/spree/api-reference/store.yaml 13059 71163",
      "corpora/spree/api-reference/storefront.yaml 17598 88759",
    ]);
  });
});

describe("schemas that reach each other: examples are bounded by their own count", () => {
  // Ten schemas each with a property of every other (4.7 KB): 24,595 values read as a tree, far
  // under the limit, but an example cuts a schema only where it comes back on its own path, so it
  // made every path among them, eight deep: one page took minutes and gigabytes (issue 25).
  const K = 10;
  const ref = (i: number) => ({ $ref: `#/components/schemas/S${i}` });
  const schemas = Object.fromEntries(Array.from({ length: K }, (_, i) => [`S${i}`, { type: "object", properties: Object.fromEntries(Array.from({ length: K }, (_, j) => [`p${j}`, ref(j)])) }]));
  const clique = {
    openapi: "3.0.0",
    info: { title: "C", version: "1" },
    paths: { "/x": { post: { summary: "X", requestBody: { content: { "application/json": { schema: ref(0) } } }, responses: { "200": { description: "ok", content: { "application/json": { schema: ref(0) } } } } } } },
    components: { schemas },
  };
  const count = (v: unknown): number => (typeof v === "object" && v !== null ? 1 + Object.values(v).reduce((a: number, x) => a + count(x), 0) : 1);

  // Each value also takes a node of the page's budget (`SchemaBudget`), smaller since: an example
  // of its own stops there (one more: the value the refused node leaves empty).
  it("an example holds at most LIMITS.api.maxPageSchemaNodes values", () => {
    const parsed = parseDocument(JSON.stringify(clique));
    if (!parsed.ok) throw new Error(parsed.message);
    const S0 = (dereferenceLocal(parsed.document).document as { components: { schemas: Record<string, Record<string, unknown>> } }).components.schemas.S0;
    expect([true, false].map((prefill) => count(exampleValue(S0, { prefill, requiredOnly: false })))).toEqual([LIMITS.api.maxPageSchemaNodes + 1, LIMITS.api.maxPageSchemaNodes + 1]);
  });

  it("the operation's page is generated, its examples cut", async () => {
    const root = tempRepo({ "docs.json": { name: "C", navigation: { groups: [{ group: "Start", pages: ["index"] }, { group: "C", openapi: "api/c.json" }] } }, "api/c.json": clique, "index.mdx": "# Home\n" });
    expect(await runCli(["fs", "--dir", root, "wc -c /api-reference/x.mdx"])).toEqual({ code: 0, stdout: "121187 /api-reference/x.mdx\n", stderr: "" });
  });

  it("nine schemas each `allOf` all nine: a merge takes in at most LIMITS.api.maxAllOfParts parts, and the page is generated", async () => {
    const K9 = 9;
    const parts = Object.fromEntries(Array.from({ length: K9 }, (_, i) => [`S${i}`, { type: "object", properties: { [`q${i}`]: { type: "string" } }, allOf: Array.from({ length: K9 }, (_, j) => ref(j)) }]));
    const spec = { ...clique, paths: { "/x": { post: { summary: "X", requestBody: { content: { "application/json": { schema: ref(0) } } }, responses: { "200": { description: "ok" } } } } }, components: { schemas: parts } };
    const root = tempRepo({ "docs.json": { name: "C", navigation: { groups: [{ group: "Start", pages: ["index"] }, { group: "C", openapi: "api/c.json" }] } }, "api/c.json": spec, "index.mdx": "# Home\n" });
    expect(await runCli(["fs", "--dir", root, "wc -c /api-reference/x.mdx"])).toEqual({ code: 0, stdout: "1710 /api-reference/x.mdx\n", stderr: "" });
  });
});
