import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileIgnoreRules } from "../../src/config/ignore-rules.js";
import { dereferenceDocument, dereferenceWithRefParser } from "../../src/config/openapi/dereference.js";
import { dereferenceLocal, needsFullResolver } from "../../src/config/openapi/dereference-internal.js";
import { parseDocument } from "../../src/config/openapi/parse-document.js";
import { SHARED } from "../helpers/paths.js";
import { itShared } from "../helpers/shared.js";

type Obj = Record<string, unknown>;

/**
 * Where two object graphs differ, or undefined when they are the same graph: same keys in the same
 * order, same values, and the same sharing (an object reached twice in one is reached twice, as
 * one object, in the other; cycles included).
 */
function graphDifference(a: unknown, b: unknown, path = "", map = new Map<object, object>(), back = new Map<object, object>()): string | undefined {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
    return Object.is(a, b) ? undefined : `${path || "/"}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  if (map.has(a) || back.has(b)) return map.get(a) === b ? undefined : `${path || "/"}: sharing differs`;
  map.set(a, b);
  back.set(b, a);
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join("\u0000") !== kb.join("\u0000")) return `${path || "/"}: keys [${ka.join(",")}] vs [${kb.join(",")}]`;
  for (const k of ka) {
    const d = graphDifference((a as Obj)[k], (b as Obj)[k], `${path}/${k}`, map, back);
    if (d !== undefined) return d;
  }
  return undefined;
}

/** Both dereferencers on two fresh copies of one document (they work in place). */
async function both(doc: Obj): Promise<{ fast: Obj; full: Obj; fastWarnings: string[]; fullWarnings: string[] }> {
  const full = await dereferenceWithRefParser(structuredClone(doc), { root: "/nonexistent", ignore: compileIgnoreRules([]) });
  const fast = await dereferenceDocument(structuredClone(doc), { root: "/nonexistent", ignore: compileIgnoreRules([]) });
  return { fast: fast.document, full: full.document, fastWarnings: fast.warnings.map((w) => w.message), fullWarnings: full.warnings.map((w) => w.message) };
}

const schema = (extra: Obj = {}): Obj => ({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {}, ...extra });

describe("the fast dereferencer builds the graph json-schema-ref-parser builds", () => {
  const cases: [string, Obj][] = [
    [
      "shared targets and a self-referencing schema (a tree)",
      schema({
        paths: { "/a": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } } } } } },
        components: { schemas: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } }, other: { $ref: "#/components/schemas/Node" } } } } },
      }),
    ],
    [
      "mutual recursion",
      schema({ components: { schemas: { A: { properties: { b: { $ref: "#/components/schemas/B" } } }, B: { properties: { a: { $ref: "#/components/schemas/A" } } }, C: { $ref: "#/components/schemas/A" } } } }),
    ],
    [
      "a reference with sibling keys merges, deeply, siblings first",
      schema({
        components: {
          schemas: {
            Base: { type: "object", description: "base", properties: { id: { type: "string" } }, required: ["id"] },
            Described: { $ref: "#/components/schemas/Base", description: "mine" },
            Extended: { $ref: "#/components/schemas/Base", properties: { extra: { $ref: "#/components/schemas/Base" } }, required: ["extra"] },
          },
        },
      }),
    ],
    [
      "a chain of references, and a pointer that passes through one",
      schema({ components: { schemas: { A: { $ref: "#/components/schemas/B" }, B: { $ref: "#/components/schemas/C" }, C: { properties: { x: { type: "integer" } } }, X: { $ref: "#/components/schemas/A/properties/x" } } } }),
    ],
    [
      "escaped pointers: ~1, ~0, percent-encoding, keys that hold slashes, array indexes",
      schema({
        paths: { "/users/{id}": { parameters: [{ name: "id", in: "path" }], get: { parameters: [{ $ref: "#/paths/~1users~1{id}/parameters/0" }], responses: {} } } },
        components: {
          schemas: { "My Schema": { type: "string" }, "a~b": { type: "number" }, U: { $ref: "#/components/schemas/My%20Schema" }, T: { $ref: "#/components/schemas/a~0b" } },
          parameters: { list: [{ name: "q" }], "x/y": { name: "slashed" } },
          headers: { First: { $ref: "#/components/parameters/list/0" }, Slashed: { $ref: "#/components/parameters/x/y" } },
        },
      }),
    ],
    [
      "references inside arrays (allOf, oneOf) and in examples and extensions",
      schema({
        components: {
          schemas: { A: { type: "string" }, B: { allOf: [{ $ref: "#/components/schemas/A" }, { oneOf: [{ $ref: "#/components/schemas/A" }, { type: "null" }] }] } },
          examples: { E: { value: { $ref: "#/components/schemas/A" } } },
        },
        "x-extra": { $ref: "#/components/schemas/B" },
      }),
    ],
    ["a reference to a null value, and to the whole document", schema({ components: { schemas: { N: null, R: { $ref: "#/components/schemas/N" }, Root: { $ref: "#" } } } })],
    ["anchors that are not pointers stay as they are", schema({ components: { schemas: { A: { $ref: "#anchor" }, B: { $ref: "#/components/schemas/A" } } } })],
  ];
  it.each(cases)("%s", async (_name, doc) => {
    expect(needsFullResolver(doc)).toBe(false);
    const r = await both(doc);
    expect(graphDifference(r.fast, r.full)).toBeUndefined();
    expect([r.fastWarnings, r.fullWarnings]).toEqual([[], []]);
  });

  itShared.each([
    ["corpora/spree", "api-reference/admin.yaml"],
    ["corpora/spree", "api-reference/platform.yaml"],
    ["corpora/spree", "api-reference/storefront.yaml"],
    ["specs", "discord-openapi-3.1.json"],
    ["specs", "mem0-openapi-3.0.1.json"],
    ["specs", "pipecat-cloud-openapi-3.0.0.json"],
    ["specs", "oai-v3.0-petstore-expanded.yaml"],
    ["specs", "asyncapi-3.1-slack-rtm.yml"],
    ["specs", "asyncapi-3.1-streetlights-kafka.yml"],
  ])("real spec %s/%s", async (dir, file) => {
    const parsed = parseDocument(readFileSync(join(SHARED, dir, file), "utf8"));
    if (!parsed.ok) throw new Error(parsed.message);
    const r = await both(parsed.document);
    expect(graphDifference(r.fast, r.full)).toBeUndefined();
  });
});

describe("fast dereferencer: what it does differently, and when it steps aside", () => {
  it("a reference that points nowhere stays a $ref (the library makes it null), with the same warning", async () => {
    const doc = schema({ components: { schemas: { Me: { type: "object", properties: { user: { $ref: "#/components/schemas/Missing" }, name: { type: "string" } } } } } });
    const r = await both(doc);
    expect((r.fast.components as { schemas: { Me: { properties: Obj } } }).schemas.Me.properties.user).toEqual({ $ref: "#/components/schemas/Missing" });
    expect((r.full.components as { schemas: { Me: { properties: Obj } } }).schemas.Me.properties.user).toBeNull();
    const warning = 'unresolved $ref (at components.schemas.Me.properties.user): Missing $ref pointer "#/components/schemas/Missing". Token "Missing" does not exist.; left as is';
    expect([r.fastWarnings, r.fullWarnings]).toEqual([[warning], [warning]]);
  });

  it("a reference chain that loops, and a schema that is only a reference to itself, end (left as $ref) with a warning on either path", async () => {
    // Left silent before: a default `{"$ref": "#/.../default"}` naming itself was printed raw on
    // the page (`default: {"$ref": ...}`) and `check` said nothing.
    const doc = schema({ components: { schemas: { A: { $ref: "#/components/schemas/B" }, B: { $ref: "#/components/schemas/A" }, S: { $ref: "#/components/schemas/S" }, N: { type: "string", default: { $ref: "#/components/schemas/N/default" } } } } });
    const { document, problems } = dereferenceLocal(structuredClone(doc));
    const s = (document.components as { schemas: Obj }).schemas;
    const loop = (at: string, ref: string) => ({ at: at.split("."), message: `$ref pointer "${ref}" comes back to itself through $refs alone: nothing to point at.` });
    // A resolves through B back to A: the loop is cut where it closes, at A's own reference.
    expect([s.A, s.B, s.S, s.N, problems]).toEqual([
      { $ref: "#/components/schemas/B" },
      { $ref: "#/components/schemas/A" },
      { $ref: "#/components/schemas/S" },
      { type: "string", default: { $ref: "#/components/schemas/N/default" } },
      [loop("components.schemas.A", "#/components/schemas/B"), loop("components.schemas.B", "#/components/schemas/A"), loop("components.schemas.S", "#/components/schemas/S"), loop("components.schemas.N.default", "#/components/schemas/N/default")],
    ]);
    const r = await both(doc);
    const warning = (at: string, ref: string) => `unresolved $ref (at ${at}): $ref pointer "${ref}" comes back to itself through $refs alone: nothing to point at.; left as is`;
    expect({ fast: r.fastWarnings, full: r.fullWarnings }).toEqual({
      fast: [warning("components.schemas.A", "#/components/schemas/B"), warning("components.schemas.B", "#/components/schemas/A"), warning("components.schemas.S", "#/components/schemas/S"), warning("components.schemas.N.default", "#/components/schemas/N/default")],
      // The library makes A and B one object: one warning, where it is first met.
      full: [warning("components.schemas.A", "#/components/schemas/A"), warning("components.schemas.S", "#/components/schemas/S"), warning("components.schemas.N.default", "#/components/schemas/N/default")],
    });
  });

  it.each([
    ["a reference to another file", { components: { schemas: { A: { $ref: "./common.yaml#/A" } } } }],
    ["a reference to a URL", { components: { schemas: { A: { $ref: "https://example.com/a.json" } } } }],
    ["a schema with its own $id", { components: { schemas: { A: { $id: "https://example.com/a", properties: {} } } } }],
    ["a document with $schema", { $schema: "https://spec.openapis.org/oas/3.1/schema/2022-10-07" }],
  ])("%s goes to the full resolver", (_name, extra) => {
    expect(needsFullResolver(schema(extra))).toBe(true);
  });
});
