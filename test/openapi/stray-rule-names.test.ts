/**
 * Adversary F6 (Low, confidentiality): a server or security scheme restricted by a stray
 * `x-svc`/`x-mint` rule left every reader's copy of the spec file, but where the rest of the
 * document names it by key (a security requirement, an AsyncAPI 2 channel's `servers`, a
 * discriminator mapping) the name stayed. Now each such entry goes with it, in OpenAPI 3,
 * Swagger 2.0 and AsyncAPI 2 copies (AsyncAPI 3 names by `$ref`, already cut), and no page or
 * search hit names it.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const O3 = [
  "openapi: 3.0.3",
  "info: {title: T, version: '1'}",
  "servers:",
  "  - url: https://public.example.com",
  "  - url: https://staffhost.example.com",
  "    description: STAFFSERVER",
  "    x-svc: {metadata: {groups: [staff]}}",
  "paths:",
  "  /pub:",
  "    get:",
  "      summary: Pub",
  "      security: [{StaffKey: []}, {PubKey: []}, {PubKey: [], StaffKey: []}]",
  "      responses:",
  "        '200':",
  "          description: ok",
  "          content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}",
  "components:",
  "  schemas:",
  "    Pet:",
  "      type: object",
  "      properties: {kind: {type: string}}",
  "      discriminator: {propertyName: kind, mapping: {cat: Cat, dog: StaffDog, fish: '#/components/schemas/StaffFish'}}",
  "    Cat: {type: object}",
  "    StaffDog: {type: object, x-svc: {metadata: {groups: [staff]}}}",
  "    StaffFish: {type: object, x-mint: {metadata: {groups: [staff]}}}",
  "  securitySchemes:",
  "    PubKey: {type: apiKey, in: header, name: X-Pub}",
  "    StaffKey:",
  "      type: apiKey",
  "      in: header",
  "      name: X-STAFFHEADER",
  "      x-svc: {metadata: {groups: [staff]}}",
  "security: [{StaffKey: []}]",
  "",
].join("\n");

// The same requirement list written twice by a YAML alias: each place is cut.
const S2 = [
  "swagger: '2.0'",
  "info: {title: T, version: '1'}",
  "host: api.example.com",
  "paths:",
  "  /pub:",
  "    get:",
  "      summary: Pub",
  "      security: &sec [{StaffKey: []}, {PubKey: []}]",
  "      responses: {'200': {description: ok}}",
  "  /other:",
  "    get:",
  "      summary: Other",
  "      security: *sec",
  "      responses: {'200': {description: ok}}",
  "securityDefinitions:",
  "  PubKey: {type: apiKey, in: header, name: X-Pub}",
  "  StaffKey: {type: apiKey, in: header, name: X-STAFFHEADER, x-svc: {metadata: {groups: [staff]}}}",
  "security: [{StaffKey: []}]",
  "",
].join("\n");

const A2 = [
  "asyncapi: 2.6.0",
  "info: {title: T, version: '1'}",
  "servers:",
  "  pub: {url: pub.example.com, protocol: mqtt, security: [{PubKey: []}, {StaffKey: []}]}",
  "  staffsrv:",
  "    url: staffhost.example.com",
  "    protocol: mqtt",
  "    x-svc: {metadata: {groups: [staff]}}",
  "channels:",
  "  a:",
  "    servers: [pub, staffsrv]",
  "    subscribe: {message: {payload: {type: string}}}",
  "  b:",
  "    servers: [staffsrv]",
  "    subscribe: {message: {payload: {type: string}}}",
  "components:",
  "  securitySchemes:",
  "    PubKey: {type: httpApiKey, in: header, name: X-Pub}",
  "    StaffKey: {type: httpApiKey, in: header, name: X-STAFFHEADER, x-svc: {metadata: {groups: [staff]}}}",
  "",
].join("\n");

const A3 = [
  "asyncapi: 3.0.0",
  "info: {title: T, version: '1'}",
  "servers:",
  "  pub:",
  "    host: pub.example.com",
  "    protocol: mqtt",
  "    security: [{$ref: '#/components/securitySchemes/PubKey'}, {$ref: '#/components/securitySchemes/StaffKey'}]",
  "  staffsrv:",
  "    host: staffhost.example.com",
  "    protocol: mqtt",
  "    x-svc: {metadata: {groups: [staff]}}",
  "channels:",
  "  a:",
  "    address: a",
  "    servers: [{$ref: '#/servers/pub'}, {$ref: '#/servers/staffsrv'}]",
  "    messages: {m: {payload: {type: string}}}",
  "operations:",
  "  recv:",
  "    action: receive",
  "    channel: {$ref: '#/channels/a'}",
  "    security: [{$ref: '#/components/securitySchemes/StaffKey'}]",
  "components:",
  "  securitySchemes:",
  "    PubKey: {type: httpApiKey, in: header, name: X-Pub}",
  "    StaffKey: {type: httpApiKey, in: header, name: X-STAFFHEADER, x-svc: {metadata: {groups: [staff]}}}",
  "",
].join("\n");

describe("the names of servers and security schemes a stray rule restricts", () => {
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;
  const staff = readerWithGroups(["staff"]);

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": {
        name: "N",
        navigation: {
          groups: [
            { group: "O3", openapi: "o3.yaml" },
            // Swagger 2.0 is refused (a check error): no pages, but its file is mounted.
            { group: "S2", openapi: "s2.yaml" },
            { group: "A2", asyncapi: "a2.yaml" },
            { group: "A3", asyncapi: "a3.yaml" },
          ],
        },
      },
      "o3.yaml": O3,
      "s2.yaml": S2,
      "a2.yaml": A2,
      "a3.yaml": A3,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("OpenAPI 3: the security requirements and discriminator mappings naming them go", async () => {
    expect(await run(ANONYMOUS, "cat /o3.yaml")).toBe(
      [
        "openapi: 3.0.3",
        "info: {title: T, version: '1'}",
        "servers:",
        "  - url: https://public.example.com",
        "paths:",
        "  /pub:",
        "    get:",
        "      summary: Pub",
        "      security: [{PubKey: []}]",
        "      responses:",
        "        '200':",
        "          description: ok",
        "          content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}",
        "components:",
        "  schemas:",
        "    Pet:",
        "      type: object",
        "      properties: {kind: {type: string}}",
        "      discriminator: {propertyName: kind, mapping: {cat: Cat}}",
        "    Cat: {type: object}",
        "  securitySchemes:",
        "    PubKey: {type: apiKey, in: header, name: X-Pub}",
        // The document's only requirement went: its operations that say nothing of their own
        // require authentication not shown (`security-not-shown.test.ts`).
        'x-svc-security: "required (not shown)"',
        "",
      ].join("\n"),
    );
  });

  it("Swagger 2.0: every place a requirement list is written (the alias makes the copy written out)", async () => {
    expect(await run(ANONYMOUS, "cat /s2.yaml")).toBe(
      [
        "swagger: '2.0'",
        "info:",
        "  title: T",
        "  version: '1'",
        "host: api.example.com",
        "paths:",
        "  /pub:",
        "    get:",
        "      summary: Pub",
        "      security:",
        "        - PubKey: []",
        "      responses:",
        "        '200':",
        "          description: ok",
        "  /other:",
        "    get:",
        "      summary: Other",
        "      security:",
        "        - PubKey: []",
        "      responses:",
        "        '200':",
        "          description: ok",
        "securityDefinitions:",
        "  PubKey:",
        "    type: apiKey",
        "    in: header",
        "    name: X-Pub",
        "x-svc-security: required (not shown)",
        "",
      ].join("\n"),
    );
  });

  it("AsyncAPI 2: server security and channel servers naming them go", async () => {
    expect(await run(ANONYMOUS, "cat /a2.yaml")).toBe(
      [
        "asyncapi: 2.6.0",
        "info: {title: T, version: '1'}",
        "servers:",
        "  pub: {url: pub.example.com, protocol: mqtt, security: [{PubKey: []}]}",
        "channels:",
        "  a:",
        "    servers: [pub]",
        "    subscribe: {message: {payload: {type: string}}}",
        "  b:",
        // Every server it named went: not on every server (`servers-not-shown.test.ts`).
        '    x-svc-servers: "not shown"',
        "    subscribe: {message: {payload: {type: string}}}",
        "components:",
        "  securitySchemes:",
        "    PubKey: {type: httpApiKey, in: header, name: X-Pub}",
        "",
      ].join("\n"),
    );
  });

  it("AsyncAPI 3: the references go (as before); a list left with none says authentication is required", async () => {
    expect(await run(ANONYMOUS, "cat /a3.yaml")).toBe(
      [
        "asyncapi: 3.0.0",
        "info: {title: T, version: '1'}",
        "servers:",
        "  pub:",
        "    host: pub.example.com",
        "    protocol: mqtt",
        "    security: [{$ref: '#/components/securitySchemes/PubKey'}]",
        "channels:",
        "  a:",
        "    address: a",
        "    servers: [{$ref: '#/servers/pub'}]",
        "    messages: {m: {payload: {type: string}}}",
        "operations:",
        "  recv:",
        "    action: receive",
        "    channel: {$ref: '#/channels/a'}",
        '    x-svc-security: "required (not shown)"',
        "components:",
        "  securitySchemes:",
        "    PubKey: {type: httpApiKey, in: header, name: X-Pub}",
        "",
      ].join("\n"),
    );
  });

  it("nothing a reader outside the group may not read is in any file or search hit; the group's readers keep every file as written", async () => {
    expect(await run(ANONYMOUS, "grep -ric staff / | grep -v ':0$'; echo done")).toBe("done\n");
    for (const query of ["StaffKey", "staffsrv", "StaffDog", "STAFFHEADER", "staffhost"]) {
      const hits = await runtime.search(localContext(ANONYMOUS), { query });
      expect(hits.filter((h) => h.page.file.text.toLowerCase().includes("staff")).map((h) => h.page.path)).toEqual([]);
    }
    expect(await run(ANONYMOUS, "grep -rh '^\\*\\*\\(Authentication\\|Servers\\|Base URL\\):' /api-reference")).toBe(
      ["**Servers:** `pub` (`mqtt pub.example.com`)", "**Servers:** `pub` (`mqtt pub.example.com`)", "**Servers:** not shown", "**Base URL:** `https://public.example.com`", "**Authentication:** API key in header `X-Pub`", ""].join("\n"),
    );
    expect(await run(staff, "cat /o3.yaml")).toBe(O3);
    expect(await run(staff, "cat /s2.yaml")).toBe(S2);
    expect(await run(staff, "cat /a2.yaml")).toBe(A2);
    expect(await run(staff, "cat /a3.yaml")).toBe(A3);
  });
});
