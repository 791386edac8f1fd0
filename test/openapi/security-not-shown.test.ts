/**
 * Security row 207's residue: when every requirement of a `security` list named a scheme a stray
 * rule restricts, the reader's copy cut the list whole, so the operation read as inheriting the
 * document's security (or as public, where the document's went too), and its page said nothing
 * of authentication. Now the list is written as `x-svc-security: "required (not shown)"` in the
 * reader's copy of the file, and the page says `**Authentication:** required (not shown)`.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const YAML = [
  "openapi: 3.0.3",
  "info: {title: T, version: '1'}",
  "servers: [{url: https://api.example.com}]",
  "paths:",
  "  /only:",
  "    get:",
  "      summary: Only",
  "      # staff key only",
  "      security:",
  "        - StaffKey: []",
  "",
  "      responses: {'200': {description: ok}}",
  "  /either:",
  "    get:",
  "      summary: Either",
  "      security: [{StaffKey: []}, {PubKey: []}]",
  "      responses: {'200': {description: ok}}",
  "  /inherits:",
  "    get:",
  "      summary: Inherits",
  "      responses: {'200': {description: ok}}",
  "  /open:",
  "    get:",
  "      summary: Open",
  "      security: []",
  "      responses: {'200': {description: ok}}",
  "components:",
  "  securitySchemes:",
  "    PubKey: {type: apiKey, in: header, name: X-Pub}",
  "    StaffKey: {type: apiKey, in: header, name: X-Staff, x-svc: {metadata: {groups: [staff]}}}",
  "security: [{StaffKey: []}]",
  "",
].join("\n");

const JSON_SPEC = `${JSON.stringify(
  {
    openapi: "3.0.3",
    info: { title: "J", version: "1" },
    servers: [{ url: "https://json.example.com" }],
    paths: {
      "/jonly": { get: { summary: "Jonly", security: [{ StaffKey: [] }], responses: { "200": { description: "ok" } } } },
      "/jpub": { get: { summary: "Jpub", security: [{ PubKey: [] }], responses: { "200": { description: "ok" } } } },
    },
    components: {
      securitySchemes: {
        PubKey: { type: "apiKey", in: "header", name: "X-Pub" },
        StaffKey: { type: "apiKey", in: "header", name: "X-Staff", "x-svc": { metadata: { groups: ["staff"] } } },
      },
    },
  },
  null,
  2,
)}\n`;

const ONLY_PAGE = [
  "---",
  "title: \"Only\"",
  "openapi: \"y.yaml GET /only\"",
  "playground: \"interactive\"",
  "---",
  "",
  "# Only",
  "",
  "`GET /only`",
  "",
  "**Base URL:** `https://api.example.com`",
  "**Authentication:** required (not shown)",
  "**Playground:** interactive, for every reader; requests are relayed by POST /_svc/api/request",
  "",
  "## Responses",
  "",
  "### 200: ok",
  "",
  "## Examples",
  "",
  "### Request",
  "",
  "```bash cURL",
  "curl --request GET \\",
  "  --url 'https://api.example.com/only'",
  "```",
  "",
  "```python Python",
  "import requests",
  "",
  "url = \"https://api.example.com/only\"",
  "",
  "response = requests.request(\"GET\", url)",
  "",
  "print(response.text)",
  "```",
  "",
  "```javascript JavaScript",
  "const response = await fetch(\"https://api.example.com/only\", {",
  "  method: \"GET\",",
  "});",
  "",
  "console.log(await response.text());",
  "```",
  "",
  "## Source",
  "",
  "Generated from `/y.yaml`: `yq '.[\"paths\"][\"/only\"][\"get\"]' /y.yaml`",
  "",
].join("\n");

describe("a security list every requirement of which names a scheme the reader may not see", () => {
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "N", navigation: { groups: [{ group: "Y", openapi: "y.yaml" }, { group: "J", openapi: "j.json" }] } },
      "y.yaml": YAML,
      "j.json": JSON_SPEC,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("the reader's copy of the file says authentication is required, neither public nor inheriting", async () => {
    expect(await run(ANONYMOUS, "cat /y.yaml")).toBe(
      [
        "openapi: 3.0.3",
        "info: {title: T, version: '1'}",
        "servers: [{url: https://api.example.com}]",
        "paths:",
        "  /only:",
        "    get:",
        "      summary: Only",
        '      x-svc-security: "required (not shown)"',
        "",
        "      responses: {'200': {description: ok}}",
        "  /either:",
        "    get:",
        "      summary: Either",
        "      security: [{PubKey: []}]",
        "      responses: {'200': {description: ok}}",
        "  /inherits:",
        "    get:",
        "      summary: Inherits",
        "      responses: {'200': {description: ok}}",
        "  /open:",
        "    get:",
        "      summary: Open",
        "      security: []",
        "      responses: {'200': {description: ok}}",
        "components:",
        "  securitySchemes:",
        "    PubKey: {type: apiKey, in: header, name: X-Pub}",
        'x-svc-security: "required (not shown)"',
        "",
      ].join("\n"),
    );
    expect(await run(ANONYMOUS, "cat /j.json")).toBe(
      [
        "{",
        '  "openapi": "3.0.3",',
        '  "info": {',
        '    "title": "J",',
        '    "version": "1"',
        "  },",
        '  "servers": [',
        "    {",
        '      "url": "https://json.example.com"',
        "    }",
        "  ],",
        '  "paths": {',
        '    "/jonly": {',
        '      "get": {',
        '        "summary": "Jonly",',
        '        "x-svc-security": "required (not shown)",',
        '        "responses": {',
        '          "200": {',
        '            "description": "ok"',
        "          }",
        "        }",
        "      }",
        "    },",
        '    "/jpub": {',
        '      "get": {',
        '        "summary": "Jpub",',
        '        "security": [',
        "          {",
        '            "PubKey": []',
        "          }",
        "        ],",
        '        "responses": {',
        '          "200": {',
        '            "description": "ok"',
        "          }",
        "        }",
        "      }",
        "    }",
        "  },",
        '  "components": {',
        '    "securitySchemes": {',
        '      "PubKey": {',
        '        "type": "apiKey",',
        '        "in": "header",',
        '        "name": "X-Pub"',
        "      }",
        "    }",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("the pages say authentication is required and not shown, for every reader (a page is one file for all)", async () => {
    for (const reader of [ANONYMOUS, readerWithGroups(["staff"])]) {
      expect(await run(reader, "grep -r '^\\*\\*Authentication:' /api-reference | sort")).toBe(
        [
          "/api-reference/either.mdx:**Authentication:** API key in header `X-Pub`",
          "/api-reference/inherits.mdx:**Authentication:** required (not shown)",
          "/api-reference/jonly.mdx:**Authentication:** required (not shown)",
          "/api-reference/jpub.mdx:**Authentication:** API key in header `X-Pub`",
          "/api-reference/only.mdx:**Authentication:** required (not shown)",
          "",
        ].join("\n"),
      );
    }
    expect(await run(ANONYMOUS, "cat /api-reference/only.mdx")).toBe(ONLY_PAGE);
  });

  it("the group's readers keep each file as written", async () => {
    const staff = readerWithGroups(["staff"]);
    expect(await run(staff, "cat /y.yaml")).toBe(YAML);
    expect(await run(staff, "cat /j.json")).toBe(JSON_SPEC);
  });
});
