/**
 * The bytes of a file are the reader's own: a spec file leaves out the operations, webhooks and
 * channels a reader may not read (and the schemas, tags, security schemes, examples, links and
 * servers only they used), and a page leaves out imports of files the reader may not read.
 * Every command sees the reader's variant: cat, jq, rg, wc, ls -l, stat, find -size.
 * Fixture: fixtures/restricted-parts (every restricted part carries a marker word).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { ShellResult } from "../../src/engine/shell/shell.js";
import { ALL_ACCESS, ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext, requestContext } from "../../src/vfs/request-context.js";
import { credentialTokens, type Harness, mcpClient, startBridge, userTokens } from "../bridge/harness.js";
import { fixture } from "../helpers/paths.js";

const READERS = { anonymous: ANONYMOUS, staff: readerWithGroups(["staff"]), partners: readerWithGroups(["partners"]), all: ALL_ACCESS } as const;
type Name = keyof typeof READERS;
const NAMES = Object.keys(READERS) as Name[];

/** The fixture in a temp folder, every file dated 2024-03-05 (for `ls -l`). */
function copyFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-mcp-variants-"));
  cpSync(fixture("restricted-parts"), dir, { recursive: true });
  const when = new Date("2024-03-05T08:00:00Z");
  const touch = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) touch(p);
      else utimesSync(p, when, when);
    }
  };
  touch(dir);
  return dir;
}

let dir: string;
let runtime: DocsRuntime;
const run = (reader: Reader, command: string): Promise<ShellResult> => runtime.readerState(localContext(reader)).shell.run(command);
const ok = (stdout: string): ShellResult => ({ stdout, stderr: "", exitCode: 0, truncated: false });
const disk = (rel: string): string => readFileSync(join(dir, rel), "utf8");

beforeAll(async () => {
  dir = copyFixture();
  runtime = await DocsRuntime.load({ root: dir });
});
afterAll(async () => {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

const STORE_ANONYMOUS = `openapi: 3.0.3
info:
  title: Store API
  version: 1.0.0
servers:
  - url: https://api.vault.example/v1
# Tags, in the order the reference shows them.
tags:
  - name: Orders
    description: Customer orders
x-tagGroups:
  - name: Shop
    tags: [Orders]
security:
  - apiKey: []
paths:
  /orders:
    get:
      summary: List orders
      operationId: listOrders
      tags: [Orders]
      responses:
        "200":
          description: Orders
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/OrderList"
components:
  securitySchemes:
    apiKey: { type: apiKey, in: header, name: X-Api-Key }
  schemas:
    Money:
      type: object
      properties:
        amount: { type: integer }
        currency: { type: string }
    Order:
      type: object
      properties:
        id: { type: string }
        total: { $ref: "#/components/schemas/Money" }
    OrderList:
      type: array
      items: { $ref: "#/components/schemas/Order" }
    Unused:
      type: string
      description: Kept although nothing uses it.
`;

const STORE_PARTNERS = `openapi: 3.0.3
info:
  title: Store API
  version: 1.0.0
servers:
  - url: https://api.vault.example/v1
# Tags, in the order the reference shows them.
tags:
  - name: Orders
    description: Customer orders
  - name: Partners
    description: PARTNER-TAG-88 rates for resellers
x-tagGroups:
  - name: Shop
    tags: [Orders]
  - name: Back office
    tags: [Partners]
security:
  - apiKey: []
paths:
  /orders:
    get:
      summary: List orders
      operationId: listOrders
      tags: [Orders]
      responses:
        "200":
          description: Orders
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/OrderList"

  /partners/rates:
    get:
      summary: Partner rates PARTNER-RATES-64
      tags: [Partners]
      x-svc:
        metadata:
          groups: [partners]
      responses:
        "200":
          description: Rates
          content:
            application/json:
              schema: { $ref: "#/components/schemas/PartnerRate" }
components:
  securitySchemes:
    apiKey: { type: apiKey, in: header, name: X-Api-Key }
  schemas:
    Money:
      type: object
      properties:
        amount: { type: integer }
        currency: { type: string }
    Order:
      type: object
      properties:
        id: { type: string }
        total: { $ref: "#/components/schemas/Money" }
    OrderList:
      type: array
      items: { $ref: "#/components/schemas/Order" }
    PartnerRate:
      type: object
      properties:
        discount: { type: number, description: PARTNER-DISCOUNT-33 }
    Unused:
      type: string
      description: Kept although nothing uses it.
`;

describe("an OpenAPI 3.0 YAML spec with operations restricted by x-svc and x-mint", () => {
  it("is, for a reader outside every group, the public operations and only what they use, cut from the author's text", async () => {
    expect(await run(ANONYMOUS, "cat /api/store.yaml")).toEqual(ok(STORE_ANONYMOUS));
  });

  it("keeps, for partners, their operation with its tag, tag group entry and schema, and nothing of staff's", async () => {
    expect(await run(READERS.partners, "cat /api/store.yaml")).toEqual(ok(STORE_PARTNERS));
  });

  it("is, for staff, the file without the partners' operation, tag and schema", async () => {
    const staff = disk("api/store.yaml")
      .replace("  - name: Partners\n    description: PARTNER-TAG-88 rates for resellers\n", "")
      .replace("tags: [Vault, Partners]", "tags: [Vault]")
      .replace(/ {2}\/partners\/rates:\n[\s\S]*?(?=components:)/, "")
      .replace(/ {4}PartnerRate:\n[\s\S]*?(?= {4}Unused:)/, "");
    expect(staff).not.toBe(disk("api/store.yaml"));
    expect(await run(READERS.staff, "cat /api/store.yaml")).toEqual(ok(staff));
  });

  it("is the file as written, byte for byte, for a reader who may read everything", async () => {
    expect(await run(ALL_ACCESS, "cat /api/store.yaml")).toEqual(ok(disk("api/store.yaml")));
  });
});

describe("an OpenAPI 3.1 JSON spec (x-mint on an operation, x-svc on a webhook, a restricted MDX page documenting an operation)", () => {
  const SUMMARY = "jq -c '[(.paths | keys), (.webhooks | keys), (.components.schemas | keys), [.tags[].name]]' /api/admin.json";
  it("answers jq with each reader's own paths, webhooks, schemas and tags", async () => {
    const expected: Record<Name, string> = {
      anonymous: '[["/users"],["userCreated"],["User"],["Users"]]\n',
      staff: '[["/admin/keys","/users"],["keyRotated","userCreated"],["KeyPair","PrivateKey","User"],["Users","Keys"]]\n',
      partners: '[["/users","/users/{id}/notes"],["userCreated"],["User","UserNote"],["Users"]]\n',
      all: '[["/admin/keys","/users","/users/{id}/notes"],["keyRotated","userCreated"],["KeyPair","PrivateKey","User","UserNote"],["Users","Keys"]]\n',
    };
    for (const name of NAMES) expect(await run(READERS[name], SUMMARY), name).toEqual(ok(expected[name]));
  });

  it("stays JSON as written, the separators of removed members gone", async () => {
    expect(await run(READERS.partners, "cat /api/admin.json")).toEqual(
      ok(`{
  "openapi": "3.1.0",
  "info": { "title": "Admin API", "version": "2.0.0" },
  "servers": [{ "url": "https://admin.vault.example" }],
  "tags": [
    { "name": "Users" }
  ],
  "paths": {
    "/users": {
      "get": {
        "summary": "List users",
        "tags": ["Users"],
        "responses": {
          "200": {
            "description": "Users",
            "content": { "application/json": { "schema": { "$ref": "#/components/schemas/User" } } }
          }
        }
      }
    },
    "/users/{id}/notes": {
      "get": {
        "summary": "User notes NOTES-OP-14",
        "tags": ["Users"],
        "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
        "responses": {
          "200": {
            "description": "Notes",
            "content": { "application/json": { "schema": { "$ref": "#/components/schemas/UserNote" } } }
          }
        }
      }
    }
  },
  "webhooks": {
    "userCreated": {
      "post": {
        "summary": "User created",
        "requestBody": { "content": { "application/json": { "schema": { "$ref": "#/components/schemas/User" } } } },
        "responses": { "200": { "description": "Received" } }
      }
    }
  },
  "components": {
    "schemas": {
      "User": { "type": "object", "properties": { "id": { "type": "string" } } },
      "UserNote": { "type": "object", "description": "USER-NOTE-SCHEMA-45" }
    }
  }
}
`),
    );
    expect(await run(ALL_ACCESS, "cat /api/admin.json")).toEqual(ok(disk("api/admin.json")));
  });
});

describe("an AsyncAPI 3 spec with a channel restricted by x-svc", () => {
  it("leaves out the channel, its operations, its message, its tag and the server only it used", async () => {
    expect(await run(ANONYMOUS, "cat /api/events.yaml")).toEqual(
      ok(`asyncapi: 3.0.0
info:
  title: Vault events
  version: 1.0.0
  tags:
    - name: orders
servers:
  public:
    host: events.vault.example
    protocol: kafka
channels:
  orderPlaced:
    address: orders.placed
    servers:
      - $ref: "#/servers/public"
    tags:
      - name: orders
    messages:
      orderPlaced:
        $ref: "#/components/messages/OrderPlaced"
operations:
  onOrderPlaced:
    action: receive
    channel:
      $ref: "#/channels/orderPlaced"
components:
  messages:
    OrderPlaced:
      payload:
        $ref: "#/components/schemas/Money"
  schemas:
    Money:
      type: object
      properties:
        amount: { type: integer }
`),
    );
    expect(await run(READERS.partners, "cat /api/events.yaml")).toEqual(await run(ANONYMOUS, "cat /api/events.yaml"));
    for (const name of ["staff", "all"] as const) expect(await run(READERS[name], "cat /api/events.yaml"), name).toEqual(ok(disk("api/events.yaml")));
  });

  it("restricts the channel's generated page like an operation's", async () => {
    expect((await run(ANONYMOUS, "ls /api-reference")).stdout).toBe("orderplaced.mdx\norders\nservice-status.mdx\nuser-created.mdx\nusers\n");
    expect((await run(READERS.staff, "head -3 /api-reference/vaultopened.mdx")).stdout).toBe('---\ntitle: "vaultOpened"\nasyncapi: "api/events.yaml vaultOpened"\n');
  });
});

describe("sizes, lines and searches follow each reader's variant", () => {
  it("rg finds no restricted word anywhere for an anonymous reader, and only their own for each group", async () => {
    const pattern = "rg -n 'VAULT|PARTNER|KEY|NOTE|SNIPPET|RUNBOOK|PURGE|EVENT'";
    expect(await run(ANONYMOUS, `${pattern} /`)).toEqual({ stdout: "", stderr: "", exitCode: 1, truncated: false });
    expect(await run(READERS.partners, `${pattern} /api`)).toEqual(
      ok(
        [
          '/api/admin.json:23:        "summary": "User notes NOTES-OP-14",',
          '/api/admin.json:47:      "UserNote": { "type": "object", "description": "USER-NOTE-SCHEMA-45" }',
          "/api/store.yaml:12:    description: PARTNER-TAG-88 rates for resellers",
          "/api/store.yaml:36:      summary: Partner rates PARTNER-RATES-64",
          "/api/store.yaml:67:        discount: { type: number, description: PARTNER-DISCOUNT-33 }",
          "",
        ].join("\n"),
      ),
    );
    expect(await run(READERS.staff, `${pattern} /api`)).toEqual(
      ok(
        [
          '/api/admin.json:7:    { "name": "Keys", "description": "KEYS-TAG-62 key management" }',
          '/api/admin.json:24:        "summary": "Rotate keys KEYS-ROTATE-27",',
          '/api/admin.json:46:        "summary": "Key rotated KEY-HOOK-71",',
          '/api/admin.json:61:      "PrivateKey": { "type": "string", "description": "PRIVATE-KEY-SCHEMA-90" }',
          "/api/events.yaml:8:      description: EVENT-VAULT-TAG-36",
          "/api/events.yaml:14:    host: VAULT-BROKER-HOST-52.internal",
          "/api/events.yaml:27:    address: VAULT-ADDRESS-17.opened",
          "/api/events.yaml:45:    summary: VAULT-EVENT-OP-83",
          "/api/events.yaml:56:        description: VAULT-EVENT-PAYLOAD-29",
          "/api/store.yaml:12:    description: VAULT-TAG-51 internal vault operations",
          "/api/store.yaml:36:              description: VAULT-LINK-12 opens the vault of an order",
          "/api/store.yaml:38:      summary: Purge orders VAULT-PURGE-40",
          "/api/store.yaml:53:  # VAULT-COMMENT-77: everything below is for staff.",
          "/api/store.yaml:56:      summary: Open the vault VAULT-OPEN-93",
          "/api/store.yaml:57:      description: Returns the VAULT-SECRET-DESC-21 contents.",
          "/api/store.yaml:86:      name: X-VAULT-KEY-HEADER-5",
          "/api/store.yaml:104:        before: { type: string, description: PURGE-FIELD-19 }",
          "/api/store.yaml:113:      description: VAULT-AUDIT-SCHEMA-08",
          "/api/store.yaml:119:      value: { balance: { amount: 1, currency: VAULT-EXAMPLE-CUR } }",
          "",
        ].join("\n"),
      ),
    );
  });

  it("wc -c -l, ls -l, stat, find -size and du report the variant's bytes and lines", async () => {
    const expected: Record<Name, string[]> = {
      anonymous: [
        "  36  916 /api/admin.json\n  35  661 /api/events.yaml\n  14  228 /api/status.yaml\n  48 1086 /api/store.yaml\n   6   75 /guides/runbook-tour.mdx\n  17  210 /guides/setup.mdx\n 156 3176 total\n",
        "total 16\n-r--r--r-- 1 root root  916 Mar  5  2024 admin.json\n-r--r--r-- 1 root root  661 Mar  5  2024 events.yaml\n-r--r--r-- 1 root root  228 Mar  5  2024 status.yaml\n-r--r--r-- 1 root root 1086 Mar  5  2024 store.yaml\n",
        "/api/store.yaml 1086 8\n/api/admin.json 916 8\n/api/events.yaml 661 8\n",
        "/api\n/api/admin.json\n/api/store.yaml\n/guides\n",
        "1086\t/api/store.yaml\n6987\t/api\n",
      ],
      staff: [
        "  64 1996 /api/admin.json\n  64 1361 /api/events.yaml\n  14  228 /api/status.yaml\n 119 3031 /api/store.yaml\n  14  209 /guides/runbook-tour.mdx\n  20  299 /guides/setup.mdx\n 295 7124 total\n",
        "total 16\n-r--r--r-- 1 root root 1996 Mar  5  2024 admin.json\n-r--r--r-- 1 root root 1361 Mar  5  2024 events.yaml\n-r--r--r-- 1 root root  228 Mar  5  2024 status.yaml\n-r--r--r-- 1 root root 3031 Mar  5  2024 store.yaml\n",
        "/api/store.yaml 3031 8\n/api/admin.json 1996 8\n/api/events.yaml 1361 8\n",
        "/api\n/api/admin.json\n/api/events.yaml\n/api/store.yaml\n/guides\n",
        "3031\t/api/store.yaml\n10712\t/api\n",
      ],
      partners: [
        "  50 1434 /api/admin.json\n  35  661 /api/events.yaml\n  14  228 /api/status.yaml\n  70 1658 /api/store.yaml\n   6   75 /guides/runbook-tour.mdx\n  17  210 /guides/setup.mdx\n 192 4266 total\n",
        "total 16\n-r--r--r-- 1 root root 1434 Mar  5  2024 admin.json\n-r--r--r-- 1 root root  661 Mar  5  2024 events.yaml\n-r--r--r-- 1 root root  228 Mar  5  2024 status.yaml\n-r--r--r-- 1 root root 1658 Mar  5  2024 store.yaml\n",
        "/api/store.yaml 1658 8\n/api/admin.json 1434 8\n/api/events.yaml 661 8\n",
        "/api\n/api/admin.json\n/api/store.yaml\n/guides\n",
        "1658\t/api/store.yaml\n8077\t/api\n",
      ],
      all: [
        "  78 2514 /api/admin.json\n  64 1361 /api/events.yaml\n  14  228 /api/status.yaml\n 138 3569 /api/store.yaml\n  14  209 /guides/runbook-tour.mdx\n  20  299 /guides/setup.mdx\n 328 8180 total\n",
        "total 16\n-r--r--r-- 1 root root 2514 Mar  5  2024 admin.json\n-r--r--r-- 1 root root 1361 Mar  5  2024 events.yaml\n-r--r--r-- 1 root root  228 Mar  5  2024 status.yaml\n-r--r--r-- 1 root root 3569 Mar  5  2024 store.yaml\n",
        "/api/store.yaml 3569 8\n/api/admin.json 2514 8\n/api/events.yaml 1361 8\n",
        "/api\n/api/admin.json\n/api/events.yaml\n/api/store.yaml\n/guides\n",
        "3569\t/api/store.yaml\n11768\t/api\n",
      ],
    };
    const commands = ["wc -c -l /api/* /guides/*", "ls -l /api", "stat -c '%n %s %b' /api/store.yaml /api/admin.json /api/events.yaml", "find /api /guides -size +800c", "du -b /api/store.yaml /api"];
    for (const name of NAMES) {
      for (const [i, command] of commands.entries()) expect(await run(READERS[name], command), `${name}: ${command}`).toEqual(ok(expected[name][i] as string));
    }
  });

  it("a spec with no restricted part is the file as written for every reader, and has no variants", async () => {
    for (const name of NAMES) expect(await run(READERS[name], "cat /api/status.yaml"), name).toEqual(ok(disk("api/status.yaml")));
    expect([...(runtime.site.variants?.keys() ?? [])].sort()).toEqual(["/api/admin.json", "/api/events.yaml", "/api/store.yaml", "/guides/runbook-tour.mdx", "/guides/setup.mdx"]);
  });

  it("readers with the same outcome share one variant object (one copy per access class, not per reader)", async () => {
    const a = runtime.readerState(localContext(readerWithGroups(["partners", "sales"]))).view.fileAt("/api/store.yaml");
    const b = runtime.readerState(localContext(readerWithGroups(["partners"]))).view.fileAt("/api/store.yaml");
    const c = runtime.readerState(localContext(readerWithGroups(["sales"]))).view.fileAt("/api/store.yaml");
    expect(a).toBe(b);
    expect(c).toBe(runtime.readerState(localContext(ANONYMOUS)).view.fileAt("/api/store.yaml"));
    expect(runtime.readerState(localContext(ALL_ACCESS)).view.fileAt("/api/store.yaml")).toBe(runtime.site.files.get("/api/store.yaml"));
  });
});

describe("a public page importing a restricted snippet or page", () => {
  const SETUP_WITHOUT = `---
title: Setup
---
import Note from "/snippets/note.mdx"

# Setup

<Note />

Install the client.

Then run \`vault init\`. The step is optional.

\`\`\`mdx
import Secret from '/snippets/secret.mdx'
<Secret />
\`\`\`
`;
  // As written without the import: the body starts right after the front matter, as it did.
  const TOUR_WITHOUT = "---\ntitle: Runbook tour\n---\n# Runbook tour\n\nQuestions go to the help desk.\n";

  it("is, for a reader who may not read the import, the page without the import statement and the tags that use it", async () => {
    for (const name of ["anonymous", "partners"] as const) {
      expect(await run(READERS[name], "cat /guides/setup.mdx"), name).toEqual(ok(SETUP_WITHOUT));
      expect(await run(READERS[name], "cat /guides/runbook-tour.mdx"), name).toEqual(ok(TOUR_WITHOUT));
      expect(await run(READERS[name], "rg -c 'Secret|<Runbook|internal/runbook' /guides"), name).toEqual(ok("/guides/setup.mdx:2\n"));
    }
  });

  it("is the page as written for readers who may read the import", async () => {
    for (const name of ["staff", "all"] as const) {
      expect(await run(READERS[name], "cat /guides/setup.mdx"), name).toEqual(ok(disk("guides/setup.mdx")));
      expect(await run(READERS[name], "cat /guides/runbook-tour.mdx"), name).toEqual(ok(disk("guides/runbook-tour.mdx")));
    }
  });

  it("follows an edit of the snippet's groups on reload", async () => {
    const path = join(dir, "snippets/secret.mdx");
    const before = readFileSync(path, "utf8");
    try {
      writeFileSync(path, before.replace("groups: [staff]", "groups: [partners]"));
      await runtime.applyChanges(["snippets/secret.mdx"]);
      expect((await run(READERS.partners, "head -5 /guides/setup.mdx")).stdout).toBe("---\ntitle: Setup\n---\nimport Secret from '/snippets/secret.mdx';\nimport Note from \"/snippets/note.mdx\"\n");
      expect(await run(READERS.staff, "cat /guides/setup.mdx")).toEqual(ok(SETUP_WITHOUT));
    } finally {
      writeFileSync(path, before);
      await runtime.applyChanges(["snippets/secret.mdx"]);
    }
    expect(await run(READERS.staff, "cat /guides/setup.mdx")).toEqual(ok(disk("guides/setup.mdx")));
  });
});

describe("on a site where every page needs sign-in", () => {
  it("a public page importing a snippet without public: true is, for an anonymous reader, the page without it", async () => {
    const d = mkdtempSync(join(tmpdir(), "svc-mcp-variants-full-"));
    try {
      writeFileSync(join(d, "welcome.mdx"), "---\npublic: true\n---\nimport Members from '/members.mdx'\n\nHello.\n\n<Members />\n");
      writeFileSync(join(d, "members.mdx"), "MEMBERS-ONLY-58\n");
      const rt = await DocsRuntime.load({ root: d });
      expect(await rt.readerState(requestContext(ANONYMOUS, "full")).shell.run("ls / && cat /welcome.mdx")).toEqual(ok("welcome.mdx\n---\npublic: true\n---\nHello.\n"));
      expect((await rt.readerState(requestContext(readerWithGroups(["any"]), "full")).shell.run("cat /welcome.mdx")).stdout).toBe(readFileSync(join(d, "welcome.mdx"), "utf8"));
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe("specs the API reference could not load fail closed", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  const repo = (files: Record<string, string>): string => {
    const d = mkdtempSync(join(tmpdir(), "svc-mcp-variants-bad-"));
    made.push(d);
    cpSync(fixture("restricted-parts/index.mdx"), join(d, "index.mdx"));
    for (const [rel, text] of Object.entries(files)) writeFileSync(join(d, rel), text);
    return d;
  };
  const docsJson = JSON.stringify({ name: "Bad", navigation: { groups: [{ group: "API", openapi: "spec.yaml", pages: ["index"] }] } });

  it("an invalid spec is still pruned from what it says (x-svc read from the document as written)", async () => {
    const spec = [
      "openapi: 3.0.3",
      "info: {}", // invalid: title and version are required
      "paths:",
      "  /open:",
      "    get: { summary: Open, responses: {} }",
      "  /hidden:",
      "    get:",
      "      summary: HIDDEN-OP-11",
      "      x-svc: { metadata: { groups: [staff] } }",
      "      responses: {}",
      "",
    ].join("\n");
    const rt = await DocsRuntime.load({ root: repo({ "docs.json": docsJson, "spec.yaml": spec }) });
    expect((await rt.readerState(localContext(ANONYMOUS)).shell.run("cat /spec.yaml")).stdout).toBe("openapi: 3.0.3\ninfo: {}\npaths:\n  /open:\n    get: { summary: Open, responses: {} }\n");
    expect((await rt.readerState(localContext(readerWithGroups(["staff"]))).shell.run("cat /spec.yaml")).stdout).toBe(spec);
  });

  // A text that does not parse is no spec: mounted for no one (adversary round 59 F1; before, an
  // all-access reader got it as written).
  it("a spec that cannot be parsed (mentioning x-svc or not) is mounted for no reader", async () => {
    const spec = "openapi: 3.0.3\npaths:\n  /hidden:\n    get: { summary: HIDDEN-OP-12, x-svc: { metadata: { groups: [staff] } }\n  bad: [\n";
    const rt = await DocsRuntime.load({ root: repo({ "docs.json": docsJson, "spec.yaml": spec }) });
    for (const reader of [ANONYMOUS, readerWithGroups(["staff"]), ALL_ACCESS]) {
      expect(await rt.readerState(localContext(reader)).shell.run("ls /")).toEqual(ok("index.mdx\nskill.md\n"));
    }
  });
});

describe("over real HTTP, through the MCP SDK client (the shell runs in its worker)", () => {
  let h: Harness;
  let root: string;
  beforeAll(async () => {
    root = copyFixture();
    h = await startBridge({ root, authMode: "partial", mcp: "enabled" });
    await h.state.addUser("sam", "sam-password-1", ["staff"]);
  });
  afterAll(async () => {
    await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("each reader's filesystem tool reads that reader's spec and page", async () => {
    const FS = "query_docs_filesystem_vault";
    const anonymous = await mcpClient(h.urls.mcp);
    const staff = await mcpClient(h.urls.authedMcp, { token: (await userTokens(h, "sam", "sam-password-1")).access_token });
    const credential = await mcpClient(h.urls.authedMcp, { token: (await credentialTokens(h)).access_token });
    try {
      expect(await anonymous.text(FS, { command: "cat /api/store.yaml" })).toBe(STORE_ANONYMOUS);
      expect(await anonymous.text(FS, { command: "wc -c /api/store.yaml /guides/runbook-tour.mdx" })).toBe("1086 /api/store.yaml\n  75 /guides/runbook-tour.mdx\n1161 total\n");
      expect(await anonymous.text(FS, { command: "cat /guides/runbook-tour.mdx" })).toBe("---\ntitle: Runbook tour\n---\n# Runbook tour\n\nQuestions go to the help desk.\n");
      expect(await staff.text(FS, { command: "yq -o json '.paths | keys' /api/store.yaml" })).toBe('[\n  "/orders",\n  "/vault/{id}"\n]\n');
      expect(await credential.text(FS, { command: "cat /api/store.yaml" })).toBe(readFileSync(join(root, "api/store.yaml"), "utf8"));
    } finally {
      await Promise.all([anonymous.close(), staff.close(), credential.close()]);
    }
  });
});
