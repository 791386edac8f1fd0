/**
 * What a reader's copy of a spec leaves out (`pruneSpec`) and how it is written
 * (`prunedSpecText`, `cutMembers`): the class of things that can name a removed part.
 */
import { load as loadYaml } from "js-yaml";
import { describe, expect, it } from "vitest";
import { pruneSpec } from "../../src/config/openapi/prune-spec.js";
import { prunedSpecText } from "../../src/config/openapi/pruned-spec-text.js";
import { cutMembers } from "../../src/config/text-cut/cut-members.js";
import { UnsupportedSource } from "../../src/config/text-cut/source-nodes.js";

const yaml = (lines: readonly string[]): string => `${lines.join("\n")}\n`;
const doc = (text: string): Record<string, unknown> => loadYaml(text) as Record<string, unknown>;
const prune = (text: string, parts: Parameters<typeof pruneSpec>[1]): string => prunedSpecText(text, doc(text), parts);

describe("pruneSpec", () => {
  it("OpenAPI 3.1: an operation in components.pathItems goes where it is written; a path item losing all its operations goes with its component", () => {
    const d = doc(
      yaml([
        "openapi: 3.1.0",
        "paths:",
        "  /a: { $ref: '#/components/pathItems/A' }",
        "  /b: { $ref: '#/components/pathItems/B' }",
        "components:",
        "  pathItems:",
        "    A: { get: { responses: {} }, post: { responses: {} } }",
        "    B: { get: { responses: {} } }",
      ]),
    );
    expect(pruneSpec(d, [["paths", "/a", "post"], ["paths", "/b", "get"]]).deletions).toEqual([
      ["components", "pathItems", "A", "post"],
      ["paths", "/b"],
      ["components", "pathItems", "B"],
    ]);
  });

  it("Swagger 2.0: the top-level definitions, parameters, responses and security definitions only a removed operation used go; shared ones stay", () => {
    const text = yaml([
      "swagger: '2.0'",
      "info: { title: S, version: '1' }",
      "paths:",
      "  /pub:",
      "    get:",
      "      parameters: [{ $ref: '#/parameters/Shared' }]",
      "      security: [{ pubKey: [] }]",
      "      responses: { '200': { $ref: '#/responses/PubResp' } }",
      "  /staff:",
      "    get:",
      "      parameters: [{ $ref: '#/parameters/StaffParam' }, { $ref: '#/parameters/Shared' }]",
      "      security: [{ staffKey: [] }]",
      "      responses: { '200': { $ref: '#/responses/StaffResp' } }",
      "parameters:",
      "  Shared: { name: q, in: query, type: string }",
      "  StaffParam: { name: swStaffParam, in: query, type: string }",
      "responses:",
      "  PubResp: { description: ok }",
      "  StaffResp: { description: SWRESPDESC, schema: { $ref: '#/definitions/StaffDef' } }",
      "definitions:",
      "  StaffDef: { type: object, properties: { swStaffField: { type: string } } }",
      "securityDefinitions:",
      "  pubKey: { type: apiKey, in: header, name: X-PUB }",
      "  staffKey: { type: apiKey, in: header, name: X-SW-STAFF }",
    ]);
    expect(pruneSpec(doc(text), [["paths", "/staff", "get"]]).deletions).toEqual([
      ["paths", "/staff"],
      ["securityDefinitions", "staffKey"],
      ["responses", "StaffResp"],
      ["parameters", "StaffParam"],
      // Left empty, the collection goes whole.
      ["definitions"],
    ]);
  });

  it("links naming a removed operation go (by operationId, by operationRef, through a $ref), unless a kept operation has that id", () => {
    const text = yaml([
      "openapi: 3.0.3",
      "paths:",
      "  /a:",
      "    get:",
      "      operationId: keep",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          links:",
      "            ById: { operationId: gone }",
      "            ByRef: { operationRef: '#/paths/~1b/get' }",
      "            Shared: { $ref: '#/components/links/ToGone' }",
      "            ToKept: { operationId: keep }",
      "  /b:",
      "    get: { operationId: gone, responses: {} }",
      "components:",
      "  links:",
      "    ToGone: { operationId: gone }",
    ]);
    expect(pruneSpec(doc(text), [["paths", "/b", "get"]]).deletions).toEqual([
      ["paths", "/b"],
      ["paths", "/a", "get", "responses", "200", "links", "ById"],
      ["paths", "/a", "get", "responses", "200", "links", "ByRef"],
      ["paths", "/a", "get", "responses", "200", "links", "Shared"],
      ["components"],
    ]);
  });

  it("follows $refs transitively and security and discriminator names; keeps what kept parts or orphans use; drops cycles of removed-only schemas", () => {
    const text = yaml([
      "openapi: 3.0.3",
      "paths:",
      "  /pub:",
      "    get:",
      "      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } } }",
      "  /sec:",
      "    get:",
      "      security: [{ secretKey: [] }]",
      "      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Shared' } } } }",
      "      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Loop1' } } } } }",
      "components:",
      "  securitySchemes:",
      "    secretKey: { type: apiKey, in: header, name: X-Secret }",
      "  schemas:",
      "    Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }], discriminator: { propertyName: kind, mapping: { cat: Cat, dog: '#/components/schemas/Dog' } } }",
      "    Cat: { type: object }",
      "    Dog: { type: object }",
      "    Loop1: { properties: { next: { $ref: '#/components/schemas/Loop2' } } }",
      "    Loop2: { properties: { back: { $ref: '#/components/schemas/Loop1' } } }",
      "    Shared: { type: object }",
      "    Orphan: { properties: { uses: { $ref: '#/components/schemas/Shared' } } }",
    ]);
    expect(pruneSpec(doc(text), [["paths", "/sec", "get"]]).deletions).toEqual([
      ["paths", "/sec"],
      ["components", "schemas", "Loop1"],
      ["components", "schemas", "Loop2"],
      ["components", "securitySchemes"],
    ]);
  });

  it("AsyncAPI 2: a channel takes the servers it names, their security schemes and its tags, when nothing kept uses them", () => {
    const text = yaml([
      "asyncapi: 2.6.0",
      "info: { title: T, version: '1' }",
      "tags: [{ name: pub }, { name: hidden }]",
      "servers:",
      "  open: { url: open.example, protocol: kafka }",
      "  closed: { url: closed.example, protocol: kafka, security: [{ closedAuth: [] }] }",
      "channels:",
      "  public/topic: { servers: [open], subscribe: { tags: [{ name: pub }], message: { $ref: '#/components/messages/M' } } }",
      "  hidden/topic: { servers: [closed], subscribe: { tags: [{ name: hidden }], message: { $ref: '#/components/messages/H' } } }",
      "components:",
      "  securitySchemes: { closedAuth: { type: userPassword } }",
      "  messages: { M: { payload: { type: string } }, H: { payload: { type: string } } }",
    ]);
    expect(prune(text, [["channels", "hidden/topic"]])).toBe(
      yaml([
        "asyncapi: 2.6.0",
        "info: { title: T, version: '1' }",
        "tags: [{ name: pub }]",
        "servers:",
        "  open: { url: open.example, protocol: kafka }",
        "channels:",
        "  public/topic: { servers: [open], subscribe: { tags: [{ name: pub }], message: { $ref: '#/components/messages/M' } } }",
        "components:",
        "  messages: { M: { payload: { type: string } } }",
      ]),
    );
  });

  it("OpenAPI: a servers list every server of which goes is written as the marker wherever an operation reads it (webhooks and components.pathItems too); a callback's goes whole", () => {
    const text = yaml([
      "openapi: 3.1.0",
      "servers: [{ url: /d }]",
      "paths:",
      "  /a: { $ref: '#/components/pathItems/A' }",
      "  /b:",
      "    get:",
      "      servers: [{ url: /s }]",
      "      callbacks: { cb: { '{$url}': { post: { servers: [{ url: /s }], responses: {} } } } }",
      "      responses: {}",
      "webhooks:",
      "  w: { servers: [{ url: /s }], post: { responses: {} } }",
      "components:",
      "  pathItems:",
      "    A: { servers: [{ url: /s }], get: { servers: [{ url: /s }], responses: {} } }",
    ]);
    const cut = [
      ["paths", "/b", "get", "servers", 0],
      ["paths", "/b", "get", "callbacks", "cb", "{$url}", "post", "servers", 0],
      ["webhooks", "w", "servers", 0],
      ["components", "pathItems", "A", "servers", 0],
      ["components", "pathItems", "A", "get", "servers", 0],
    ];
    expect(prune(text, cut)).toBe(
      yaml([
        "openapi: 3.1.0",
        "servers: [{ url: /d }]",
        "paths:",
        "  /a: { $ref: '#/components/pathItems/A' }",
        "  /b:",
        "    get:",
        '      x-svc-servers: "not shown"',
        "      callbacks: { cb: { '{$url}': { post: { responses: {} } } } }",
        "      responses: {}",
        "webhooks:",
        // In a flow mapping the marker's key is quoted, as the cut writes any key it puts there.
        '  w: { "x-svc-servers": "not shown", post: { responses: {} } }',
        "components:",
        "  pathItems:",
        '    A: { "x-svc-servers": "not shown", get: { "x-svc-servers": "not shown", responses: {} } }',
      ]),
    );
    expect(prune(text, [["servers", 0]]).split("\n")[1]).toBe('x-svc-servers: "not shown"');
  });

  it("keeps `paths` (and `channels`) as an empty collection; other emptied collections go", () => {
    const text = yaml(["openapi: 3.0.3", "info: { title: T, version: '1' }", "paths:", "  /only:", "    get:", "      x-svc: { metadata: { groups: [a] } }", "      responses: {}", "tags:", "  - name: unused"]);
    expect(prune(text, [["paths", "/only", "get"]])).toBe(yaml(["openapi: 3.0.3", "info: { title: T, version: '1' }", "paths: {}", "tags:", "  - name: unused"]));
  });
});

describe("cutMembers keeps the author's text", () => {
  it("JSON on one line: a member goes with the comma after it, or before it when last", () => {
    const text = '{"a":1,"b":[1,2,3],"c":{"d":"}"}}';
    expect(cutMembers(text, [["b"]])).toBe('{"a":1,"c":{"d":"}"}}');
    expect(cutMembers(text, [["c"]])).toBe('{"a":1,"b":[1,2,3]}');
    expect(cutMembers(text, [["b", 0], ["b", 2], ["c", "d"]])).toBe('{"a":1,"b":[2],"c":{}}');
  });

  it("YAML: quoted keys, flow collections over several lines, comments and CRLF line ends", () => {
    const text = ["paths:", "  '/a': {x: 1}", '  "/b\\u0021":', "    get: {}", "tags: [", "  one,   # first", "  'two',", "]", ""].join("\r\n");
    expect(cutMembers(text, [["paths", "/b!"], ["tags", 1]])).toBe(["paths:", "  '/a': {x: 1}", "tags: [", "  one,   # first", "]", ""].join("\r\n"));
  });

  it("YAML: a restricted member removed last leaves the bytes of the file written without it (blank lines above it go; nested, commented, CRLF, a sequence)", () => {
    const restricted = ["    get:", "      x-svc: { metadata: { groups: [staff] } }", "      responses: {}"];
    const open = ["    get:", "      responses: {}"];
    // Each case: the lines of the file with the restricted member, and as written without it.
    const cases: readonly (readonly [readonly string[], readonly string[]])[] = [
      // Last in the file.
      [["openapi: 3.0.3", "paths:", "  /a:", ...open, "", "  /b:", ...restricted], ["openapi: 3.0.3", "paths:", "  /a:", ...open]],
      // Last of a nested map, a top-level key after it.
      [["openapi: 3.0.3", "paths:", "  /a:", ...open, "", "  /b:", ...restricted, "", "components: {}"], ["openapi: 3.0.3", "paths:", "  /a:", ...open, "", "components: {}"]],
      // Introduced by a comment, two blank lines above it, blank lines and a comment ending the file.
      [["openapi: 3.0.3", "paths:", "  /a:", ...open, "", "", "  # staff only", "  /b:", ...restricted, "", "# end", ""], ["openapi: 3.0.3", "paths:", "  /a:", ...open, "", "# end", ""]],
      // The last two of three, blank lines between each.
      [["openapi: 3.0.3", "paths:", "  /a:", ...open, "", "  /b:", ...restricted, "", "  /c:", ...restricted], ["openapi: 3.0.3", "paths:", "  /a:", ...open]],
      // The last tag, used only by the restricted operation.
      [["openapi: 3.0.3", "paths:", "  /a:", ...open, "", "  /b:", "    get:", "      tags: [b]", ...restricted.slice(1), "tags:", "  - name: a", "", "  - name: b", "", "x-end: 1"], ["openapi: 3.0.3", "paths:", "  /a:", ...open, "tags:", "  - name: a", "", "x-end: 1"]],
    ];
    const parts = (text: string): Parameters<typeof pruneSpec>[1] => Object.keys((doc(text)["paths"] ?? {}) as object).filter((p) => p !== "/a").map((p) => ["paths", p, "get"]);
    for (const newline of ["\n", "\r\n"]) {
      for (const [withIt, without] of cases) {
        const text = `${withIt.join(newline)}${newline}`;
        expect(JSON.stringify(prune(text, parts(text)))).toBe(JSON.stringify(`${without.join(newline)}${newline}`));
        // Without a final newline (the last line's, a blank one ending the file aside).
        const bare = withIt.at(-1) === "" ? withIt.slice(0, -1) : withIt;
        expect(JSON.stringify(prune(bare.join(newline), parts(text)))).toBe(JSON.stringify((without.at(-1) === "" ? without.slice(0, -1) : without).join(newline)));
      }
    }
    // The only member of its collection, ending a text without a final newline.
    for (const newline of ["\n", "\r\n"]) {
      const only = ["openapi: 3.0.3", "paths:", "", "  /b:", ...restricted].join(newline);
      expect(JSON.stringify(prune(only, [["paths", "/b", "get"]]))).toBe(JSON.stringify(["openapi: 3.0.3", "paths: {}"].join(newline)));
    }
    // A `|+` block scalar keeps its trailing blank lines: they are the kept value's, and stay.
    const kept = yaml(["openapi: 3.0.3", "paths:", "  /a:", "    get:", "      description: |+", "        text", "", "      responses: {}", "", "  /b:", ...restricted]);
    expect(prune(kept, [["paths", "/b", "get"]])).toBe(yaml(["openapi: 3.0.3", "paths:", "  /a:", "    get:", "      description: |+", "        text", "", "      responses: {}"]));
    const keptLast = yaml(["openapi: 3.0.3", "paths:", "  /a:", "    get:", "      responses: {}", "      description: |+", "        text", "", "  /b:", ...restricted]);
    expect(prune(keptLast, [["paths", "/b", "get"]])).toBe(yaml(["openapi: 3.0.3", "paths:", "  /a:", "    get:", "      responses: {}", "      description: |+", "        text", ""]));
  });

  it("refuses what it cannot follow, and the spec text is then written out whole", () => {
    const text = yaml(["openapi: 3.0.3", "x-shared: &s { type: string }", "paths:", "  /a: { get: { responses: {} } }", "  /b:", "    get:", "      x-svc: { metadata: { groups: [a] } }", "      responses: { '200': { description: *s } }"]);
    expect(() => cutMembers(yaml(["- a: 1", "  b: 2"]), [[0, "a"]])).toThrow(UnsupportedSource);
    // The alias in /b stays resolvable only if the anchor stays: here the cut reads back the
    // same, so the text is kept; a cut inside an anchored node is not.
    expect(prune(text, [["paths", "/b", "get"]])).toBe(yaml(["openapi: 3.0.3", "x-shared: &s { type: string }", "paths:", "  /a: { get: { responses: {} } }"]));
    const merged = yaml(["openapi: 3.0.3", "base: &b", "  /a: { get: { responses: {} } }", "paths:", "  <<: *b", "  /b:", "    get: { x-svc: { metadata: { groups: [a] } }, responses: {} }"]);
    expect(prune(merged, [["paths", "/b", "get"]])).toBe(yaml(["openapi: 3.0.3", "base:", "  /a:", "    get:", "      responses: {}", "paths:", "  /a:", "    get:", "      responses: {}"]));
  });
});
