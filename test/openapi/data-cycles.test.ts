import { describe, expect, it } from "vitest";
import { lines, load } from "./helpers.js";

/**
 * A `$ref` inside an example, a default, an enum or an `x-svc` value that points back up the
 * value holding it: the value reads as written up to that reference, the page and the rest of
 * the site are served, and `check` says where. (A loop in `x-mint.metadata` took every command
 * down with "Converting circular structure to JSON".) A schema that refers to itself stays a
 * recursive schema, also through a property named like a keyword (`default`).
 */
describe("a spec's data value whose $ref points back into it", () => {
  const op = "#/paths/~1open/get";
  const spec = {
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    components: {
      schemas: {
        Node: { type: "object", properties: { name: { type: "string" }, default: { $ref: "#/components/schemas/Node" } } },
      },
    },
    paths: {
      "/open": {
        get: {
          summary: "Open op",
          "x-mint": { metadata: { tag: "BETA", loop: { $ref: `${op}/x-mint/metadata` } } },
          parameters: [
            {
              name: "q",
              in: "query",
              schema: { type: "object", default: { loop: { $ref: `${op}/parameters/0/schema/default` } }, enum: [{ loop: { $ref: `${op}/parameters/0/schema/enum/0` } }] },
            },
          ],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Node" }, example: { name: "a", loop: { $ref: `${op}/responses/200/content/application~1json/example` } } } },
            },
          },
        },
      },
    },
  };

  it("reads as written up to the reference, which reads as \"(circular $ref)\", with a warning for each", async () => {
    const site = await load({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "api.json" }] } }, "api.json": spec, "index.mdx": "# Home\n" });
    expect(lines(site)).toEqual([
      'api.json warning: $ref at paths./open.get.x-mint.metadata.loop points back into the value that holds it: read as "(circular $ref)"',
      'api.json warning: $ref at paths./open.get.responses.200.content.application/json.example.loop points back into the value that holds it: read as "(circular $ref)"',
      'api.json warning: $ref at paths./open.get.parameters.0.schema.default.loop points back into the value that holds it: read as "(circular $ref)"',
      'api.json warning: $ref at paths./open.get.parameters.0.schema.enum.0.loop points back into the value that holds it: read as "(circular $ref)"',
    ]);
    const text = site.pages.get("/api-reference/open-op")?.file.text ?? "";
    expect(text.slice(0, text.indexOf("# Open op"))).toBe('---\ntitle: "Open op"\nopenapi: "api.json GET /open"\nplayground: "interactive"\ntag: "BETA"\nloop: {"tag":"BETA","loop":"(circular $ref)"}\n---\n\n');
    expect(text.split("\n").filter((l) => l.includes("circular") || l.startsWith("- `"))).toEqual([
      'loop: {"tag":"BETA","loop":"(circular $ref)"}',
      '- [`q`](#q) `object` (one of: {"loop":"(circular $ref)"}; default: {"loop":"(circular $ref)"})',
      // The recursive schema is read as it is everywhere: its fields, the recursion not followed.
      "- `name` `string`",
      "- `default` `object`",
      '  "loop": "(circular $ref)"',
    ]);
  });

  it("leaves the schemas a data value reaches whole, whichever way the spec is walked", async () => {
    const node = { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } } } };
    const spec2 = {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: {
        "/tree": { get: { summary: "Get tree", responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } } } } },
        // A data value reaching a recursive schema: written up to the circle, the schema untouched.
        "/other": { get: { summary: "Other", "x-sample": { $ref: "#/components/schemas/Node" }, responses: { "204": { description: "none" } } } },
        // The operation is also reached as a `properties` map (a schema's `$ref` to it): its
        // `x-mint` is still an extension, its loop still found.
        "/a": { get: { summary: "A op", "x-mint": { metadata: { loop: { $ref: "#/paths/~1a/get/x-mint/metadata" } } }, responses: { "200": { description: "ok" } } } },
      },
      components: { schemas: { Node: node, Z: { type: "object", properties: { $ref: "#/paths/~1a/get" } } } },
    };
    const site = await load({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "api.json" }] } }, "api.json": spec2, "index.mdx": "# Home\n" });
    expect(lines(site)).toEqual([
      'api.json warning: $ref at paths./a.get.x-mint.metadata.loop points back into the value that holds it: read as "(circular $ref)"',
      'api.json warning: $ref at paths./other.get.x-sample.properties.children.items points back into the value that holds it: read as "(circular $ref)"',
      "api.json:75:11 warning: components.schemas.Z.properties.$ref: must be object (not valid OpenAPI 3.0.3); read as written",
    ]);
    const tree = site.pages.get("/api-reference/get-tree")?.file.text ?? "";
    expect(tree.split("\n").filter((l) => l.startsWith("- `"))).toEqual(["- `name` `string`", "- `children` `array of object`"]);
    expect(site.pages.get("/api-reference/a-op")?.frontMatter.loop).toEqual({ loop: "(circular $ref)" });
  });

  it("writes a value that references make gigabytes long cut at 200,000 characters", async () => {
    // Fourteen levels of two references to the level below, ending in one 100,000-character
    // string: 1.6 GB written out, from a 101 KB spec.
    const levels: Record<string, unknown> = { L0: "x".repeat(100_000) };
    for (let i = 1; i <= 14; i++) levels[`L${i}`] = { a: { $ref: `#/components/x-d/L${i - 1}` }, b: { $ref: `#/components/x-d/L${i - 1}` } };
    const spec3 = {
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      components: { "x-d": levels },
      paths: { "/big": { get: { summary: "Big", "x-mint": { metadata: { big: { $ref: "#/components/x-d/L14" } } }, responses: { "200": { description: "ok", content: { "application/json": { example: { $ref: "#/components/x-d/L14" } } } } } } } },
    };
    const site = await load({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "api.json" }] } }, "api.json": spec3, "index.mdx": "# Home\n" });
    expect(lines(site)).toEqual([]);
    const text = site.pages.get("/api-reference/big")?.file.text ?? "";
    const big = text.split("\n").find((l) => l.startsWith("big: ")) ?? "";
    // Down the first references to the string, whole; its twin cut where the bound ends; every
    // level above says the rest was cut.
    let value = JSON.parse(big.slice("big: ".length)) as Record<string, unknown>;
    for (let level = 14; level > 1; level--) {
      expect(Object.keys(value)).toEqual(["a", "…"]);
      expect(value["…"]).toBe("(cut: value too large)");
      value = value.a as Record<string, unknown>;
    }
    expect(value.a).toBe("x".repeat(100_000));
    // 200,000 characters in all: 14 keys `a`, the first string, the key `b`.
    expect(value.b).toBe(`${"x".repeat(200_000 - 14 - 100_000 - 1)}… (cut: value too large)`);
    expect(text.includes('\n... (truncated; the full example is in the spec file)\n```')).toBe(true);
  });

  it("writes a schema's default that is a recursive schema (a properties map used as a schema) without a crash", async () => {
    const spec4 = {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { "/a": { get: { summary: "A op", responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/S/properties" } } } } } } } },
      components: { schemas: { S: { type: "object", properties: { name: { type: "string" }, default: { type: "object", properties: { loop: { $ref: "#/components/schemas/S/properties/default" } } } } } } },
    };
    const site = await load({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "api.json" }] } }, "api.json": spec4, "index.mdx": "# Home\n" });
    expect(lines(site)).toEqual([
      'api.json warning: $ref at paths./a.get.responses.200.content.application/json.schema.default.properties.loop points back into the value that holds it: read as "(circular $ref)"',
    ]);
    const text = site.pages.get("/api-reference/a-op")?.file.text ?? "";
    expect(text.split("\n").filter((l) => l.startsWith("- `"))).toEqual(['- `any` (default: {"type":"object","properties":{"loop":"(circular $ref)"}})']);
  });
});


/**
 * Values each within the bound can still add up: one string shared by a hundred examples, a
 * hundred metadata fields, a hundred scheme descriptions (adversary round 3: a 112 KB spec made a
 * 70 MB page). A page writes its data values from one budget, its front matter fields from
 * another; names and odd values cannot add headings, code or prototype keys.
 */
describe("a spec's data values, written within the page's budget", () => {
  const big = "x".repeat(100_000);
  const site = (spec: unknown) => load({ "docs.json": { api: { examples: { prefill: true, languages: ["curl", "python"] } }, navigation: { groups: [{ group: "API", openapi: "api.json" }] } }, "api.json": spec, "index.mdx": "# Home\n" });
  const base = { openapi: "3.0.3", info: { title: "T", version: "1" }, "x-data": { big } };

  it("keeps a page of a hundred shared 100,000-character examples, metadata fields and scheme descriptions under 4 MB", async () => {
    const ref = { $ref: "#/x-data/big" };
    const s = await site({
      ...base,
      components: { securitySchemes: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`s${i}`, { type: "http", scheme: "bearer", description: ref }])) },
      security: Array.from({ length: 100 }, (_, i) => ({ [`s${i}`]: [] })),
      paths: {
        "/a": {
          get: {
            summary: "A op",
            "x-mint": { metadata: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`m${i}`, ref])) },
            "x-codeSamples": Array.from({ length: 100 }, (_, i) => ({ lang: "bash", label: `s${i}`, source: ref })),
            parameters: Array.from({ length: 100 }, (_, i) => ({ name: `q${i}`, in: "query", schema: { type: "string" }, example: ref })),
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const page = s.pages.get("/api-reference/a-op");
    const text = page?.file.text ?? "";
    expect(text.length).toBeLessThan(4_000_000);
    // The front matter's fields share 200,000 characters: the first two fields whole, the third cut, the rest empty.
    expect([0, 1, 2, 3].map((i) => String(page?.frontMatter[`m${i}`]).length)).toEqual([100_000, 100_000, 24, 24]);
    expect(page?.frontMatter.m2).toBe("… (cut: value too large)");
    expect(text.includes("> **Cut:** this page shows")).toBe(true);
  });

  it("writes a scheme's name on one line, in code, and NaN as null in every language", async () => {
    const s = await site({
      ...base,
      components: { securitySchemes: { "x\n\n## Injected heading\n\nzebraquokka": { type: "http", scheme: "bearer", description: "d0" }, "b`t": { type: "http", scheme: "bearer" } } },
      security: [{ "x\n\n## Injected heading\n\nzebraquokka": [] }, { "b`t": [] }],
      paths: { "/a": { post: { summary: "A op", requestBody: { content: { "application/json": { schema: { type: "object" }, example: { n: Number.NaN, ok: null } } } }, responses: { "200": { description: "ok" } } } } },
    });
    const text = s.pages.get("/api-reference/a-op")?.file.text ?? "";
    expect(text.split("\n").filter((l) => l.startsWith("- ") || l.startsWith("## "))).toEqual([
      "## Authentication",
      "- `x ## Injected heading zebraquokka`: Bearer token (`Authorization: Bearer <token>`). d0",
      "- `` b`t ``: Bearer token (`Authorization: Bearer <token>`)",
      "## Request body",
      "- `object`",
      "## Responses",
      "## Examples",
      "## Source",
    ]);
    expect(text.includes('"n": None,')).toBe(true);
    expect(text.includes('"n": null,')).toBe(true);
  });

  it("reads a __proto__ key as a key: no page moved through it, no example property lost", async () => {
    const s = await site({
      ...base,
      paths: {
        "/a": {
          post: {
            summary: "A op",
            "x-mint": JSON.parse('{"__proto__": {"href": "/moved", "metadata": {"title": "B inh"}}}'),
            requestBody: { content: { "application/json": { schema: { type: "object", properties: JSON.parse('{"__proto__": {"type": "string", "example": "pp"}, "name": {"type": "string"}}') } } } },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect([...s.pages.keys()].filter((p) => p !== "/index")).toEqual(["/api-reference/a-op"]);
    const text = s.pages.get("/api-reference/a-op")?.file.text ?? "";
    expect(text.includes('title: "A op"')).toBe(true);
    expect(text.includes('"__proto__": "pp",')).toBe(true);
  });
});
