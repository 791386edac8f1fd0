import { describe, expect, it } from "vitest";
import { compileIgnoreRules } from "../../src/config/ignore-rules.js";
import { buildSpec } from "../../src/config/openapi/load-api-spec.js";
import { createOpenapiValidator } from "../../src/config/openapi/validate-openapi.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { LIMITS } from "../../src/limits.js";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../config/temp-repo.js";

// A 22 KB spec of 600 nested `properties` overflowed the stack of the generated 3.0 validator and
// crashed `check`, `search` and `serve`; a chain of schemas each referencing the next overflowed
// the `$ref` resolver. A spec that nests deeper than the limits costs only its pages now.

/** A schema holding itself `levels` times under `properties.a`. */
function nested(levels: number): object {
  let s: object = { type: "string" };
  for (let i = 0; i < levels; i++) s = { type: "object", properties: { a: s } };
  return s;
}

const ok = (summary: string, schema: object) => ({ get: { summary, responses: { "200": { description: "ok", content: { "application/json": { schema } } } } } });
const openapi = (paths: object, extra: object = {}) => ({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths, ...extra });
const GOOD = openapi({ "/users": ok("List users", { type: "string" }) });
const docsJson = (deep: string, pages = ["index"]) => ({
  name: "Deep",
  navigation: {
    groups: [
      { group: "Start", pages },
      { group: "Good", openapi: "api/good.json" },
      { group: "Deep", openapi: deep },
    ],
  },
});
const SCHEMA_AT = "paths./w.get.responses.200.content.application/json.schema";
const MAX = LIMITS.api.maxSpecDepth;

/** `check`'s lines for a site whose third group names the deep spec (docs.json line 17, column 20). */
async function checkWith(deepFile: string, deepText: string | object): Promise<{ code: number; stdout: string; stderr: string }> {
  const root = tempRepo({ "docs.json": docsJson(deepFile), "api/good.json": GOOD, [deepFile]: deepText, "index.mdx": "# Home\n" });
  return runCli(["check", "--dir", root]);
}

const summary = "checked docs.json and 1 page (+1 generated from API specs): 1 error, 0 warnings\n";

describe("a spec nested too deeply costs only its pages", () => {
  it("OpenAPI JSON nested 600 deep: one finding at docs.json naming the spec and the first level too many; the good spec's page is generated", async () => {
    const run = await checkWith("api/deep.json", openapi({ "/w": ok("Deep", nested(600)) }));
    // The schema is at depth 9; each nesting adds two (properties, a): depth MAX + 1 is reached
    // at the 60th `a`.
    const at = `${SCHEMA_AT}${".properties.a".repeat((MAX + 1 - 9) / 2)}`;
    expect(run).toEqual({ code: 1, stdout: `docs.json:17:20 navigation.groups[2].openapi: API spec api/deep.json: arrays and objects nested deeper than ${MAX} levels (at ${at}): not read\n${summary}`, stderr: "" });
  });

  it("YAML nested deeper than its parser's stack (a flow of 20,000 brackets): the same finding, without a place", async () => {
    const run = await checkWith("api/deep.yaml", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\nx-deep: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`);
    expect(run).toEqual({ code: 1, stdout: `docs.json:17:20 navigation.groups[2].openapi: API spec api/deep.yaml: arrays and objects nested deeper than ${MAX} levels: not read\n${summary}`, stderr: "" });
  });

  it("a chain of 3,000 schemas each referencing the next: refused where the references nest too deep", async () => {
    const schemas: Record<string, object> = { S3000: { type: "string" } };
    for (let i = 0; i < 3000; i++) schemas[`S${i}`] = { type: "object", properties: { n: { $ref: `#/components/schemas/S${i + 1}` } } };
    const run = await checkWith("api/deep.json", openapi({ "/w": ok("Chain", { $ref: "#/components/schemas/S0" }) }, { components: { schemas } }));
    const max = LIMITS.api.maxResolvedDepth;
    // The operation's schema is at depth 9; each schema of the chain adds two.
    const at = `components.schemas.S${(max + 1 - 9) / 2}`;
    expect(run).toEqual({ code: 1, stdout: `docs.json:17:20 navigation.groups[2].openapi: API spec api/deep.json: cannot resolve $ref: objects nested deeper than ${max} levels once $refs are replaced (at ${at}): not read\n${summary}`, stderr: "" });
  });

  it("AsyncAPI and Swagger 2.0 nested 600 deep: the same finding", async () => {
    const asyncapi = { asyncapi: "3.0.0", info: { title: "A", version: "1" }, channels: { c: { address: "c", messages: { m: { payload: nested(600) } } } } };
    const swagger = { swagger: "2.0", info: { title: "S", version: "1" }, paths: { "/w": { get: { responses: { "200": { description: "ok", schema: nested(600) } } } } } };
    const a = await checkWith("api/deep.json", asyncapi);
    const s = await checkWith("api/deep.json", swagger);
    const aAt = `channels.c.messages.m.payload${".properties.a".repeat((MAX + 1 - 6) / 2)}`;
    expect(a.stdout).toBe(`docs.json:17:20 navigation.groups[2].openapi: API spec api/deep.json: arrays and objects nested deeper than ${MAX} levels (at ${aAt}.properties): not read\n${summary}`);
    const sAt = `paths./w.get.responses.200.schema${".properties.a".repeat((MAX + 1 - 7) / 2)}`;
    expect(s.stdout).toBe(`docs.json:17:20 navigation.groups[2].openapi: API spec api/deep.json: arrays and objects nested deeper than ${MAX} levels (at ${sAt}): not read\n${summary}`);
    expect([a.code, s.code]).toEqual([1, 1]);
  });

  it("a spec at the limit loads and generates its page (the limit is within what every walker survives)", async () => {
    const run = await checkWith("api/deep.json", openapi({ "/w": ok("Deep", nested((MAX - 9) / 2 - 1)) }));
    expect(run).toEqual({ code: 0, stdout: "checked docs.json and 1 page (+2 generated from API specs): no problems\n", stderr: "" });
  });

  it("served: the site starts, the deep spec's pages are left out, the rest is served and searchable; front matter naming the deep spec leaves its page as written", async () => {
    const root = tempRepo({
      "docs.json": docsJson("api/deep.json", ["index", "w", "s"]),
      "api/good.json": GOOD,
      "api/deep.json": openapi({ "/w": ok("Deep", nested(600)) }, { components: { schemas: { Deep: nested(600) } } }),
      "index.mdx": "# Home\n",
      "w.mdx": '---\ntitle: W\nopenapi: "api/deep.json GET /w"\n---\nWalrus notes.\n',
      "s.mdx": '---\ntitle: S\nopenapi-schema: "api/deep.json Deep"\n---\nWalrus schema.\n',
    });
    const runtime = await DocsRuntime.load({ root, log: () => {} });
    try {
      expect([...runtime.site.pages.keys()].sort()).toEqual(["/api-reference/list-users", "/index", "/s", "/w"]);
      const search = await runCli(["search", "--dir", root, "walrus"]);
      expect([search.code, search.stdout.split("\n").filter((l) => /^\d+\. /.test(l))]).toEqual([0, ["1. S", "2. W"]]);
    } finally {
      await runtime.close();
    }
  });

  it("a stack overflow the limits do not foresee (a library's own recursion) is the spec's finding, not a crash", async () => {
    const overflowing = Object.assign(
      () => {
        throw new RangeError("Maximum call stack size exceeded");
      },
      { errors: null },
    );
    const validator = createOpenapiValidator(() => overflowing as never);
    const result = await buildSpec(JSON.stringify(GOOD), "api/good.json", false, { root: tempRepo({}), ignore: compileIgnoreRules([]), validator });
    expect(result).toEqual({
      ok: false,
      message: `nested too deeply to read (the reader's stack overflowed; specs may nest ${MAX} levels as written, ${LIMITS.api.maxResolvedDepth} with $refs replaced)`,
    });
  });

  it("schemas that hold themselves (allOf, oneOf, anyOf, items: circular once dereferenced) render their pages", async () => {
    const self = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const schemas = {
      A: { allOf: [self("A")] },
      O: { oneOf: [self("O")] },
      N: { anyOf: [self("N"), { type: "string" }] },
      I: { type: "array", items: self("I") },
    };
    const paths = Object.fromEntries(
      Object.keys(schemas).map((k) => [`/${k.toLowerCase()}`, { post: { summary: `S${k}`, requestBody: { content: { "application/json": { schema: self(k) } } }, responses: { "200": { description: "ok" } } } }]),
    );
    const root = tempRepo({ "docs.json": docsJson("api/deep.json"), "api/good.json": GOOD, "api/deep.json": openapi(paths, { components: { schemas } }), "index.mdx": "# Home\n" });
    const pages = await Promise.all(["sa", "so", "sn", "si"].map((p) => runCli(["fs", "--dir", root, `cat /api-reference/${p}.mdx`])));
    expect(pages.map((r) => [r.code, r.stderr, r.stdout.split("\n")[1]])).toEqual(["SA", "SO", "SN", "SI"].map((t) => [0, "", `title: "${t}"`]));
    expect(pages[3]?.stdout.split("\n").filter((l) => l.includes("recursive"))).toEqual(["- `array of … (recursive)`"]);
  });
});
