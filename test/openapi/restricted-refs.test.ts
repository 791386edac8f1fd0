/**
 * What the generated leak test (test/security/leak.generated.test.ts) found in specs, each as
 * its class: text written inside a restricted part (an operation, webhook, AsyncAPI channel or
 * operation with `x-svc`/`x-mint` `metadata.groups`) reaches only that part's readers, whichever
 * way it is pointed at: a kept `$ref` into it, an AsyncAPI 3 operation restricted on its own;
 * and a rule that cannot be read is reported by `check`.
 */
import { rmSync } from "node:fs";
import { load as loadYaml } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneSpec } from "../../src/config/openapi/prune-spec.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ALL_ACCESS, ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { startBridge, userTokens } from "../bridge/harness.js";
import { writeRepo } from "./helpers.js";

const doc = (lines: readonly string[]): Record<string, unknown> => loadYaml(`${lines.join("\n")}\n`) as Record<string, unknown>;

describe("pruneSpec: a kept $ref into a removed part", () => {
  it("goes with the member holding it (it would dangle and name the removed path), also when it points at a holder just removed", () => {
    const d = doc([
      "openapi: 3.0.3",
      "paths:",
      "  /orders:",
      "    get:",
      "      responses:",
      "        '200': { description: ok }",
      "        '409': { $ref: '#/paths/~1vault/get/responses/200' }",
      "        '410': { $ref: '#/paths/~1orders/get/responses/409' }",
      "  /vault:",
      "    get:",
      "      responses:",
      "        '200': { description: SECRET }",
    ]);
    expect(pruneSpec(d, [["paths", "/vault", "get"]]).deletions).toEqual([
      ["paths", "/vault"],
      ["paths", "/orders", "get", "responses", "409"],
      ["paths", "/orders", "get", "responses", "410"],
    ]);
  });

  it("AsyncAPI: an operation restricted on its own goes where it is written (3.x operations, 2.x publish/subscribe); its channel stays", () => {
    const v3 = doc(["asyncapi: 3.0.0", "channels:", "  a: { address: a }", "operations:", "  keep: { action: send, channel: { $ref: '#/channels/a' } }", "  gone: { action: receive, channel: { $ref: '#/channels/a' } }"]);
    expect(pruneSpec(v3, [["operations", "gone"]]).deletions).toEqual([["operations", "gone"]]);
    const v2 = doc(["asyncapi: 2.6.0", "channels:", "  a:", "    publish: { message: { payload: { type: string } } }", "    subscribe: { message: { payload: { type: string } } }"]);
    expect(pruneSpec(v2, [["channels", "a", "subscribe"]]).deletions).toEqual([["channels", "a", "subscribe"]]);
  });
});

describe("a site whose specs point into restricted parts", () => {
  const STORE = [
    "openapi: 3.0.3",
    "info: { title: Store, version: '1' }",
    "paths:",
    "  /orders:",
    "    get:",
    "      summary: List orders",
    "      responses:",
    "        '200': { description: Orders }",
    "        '409': { $ref: '#/paths/~1vault/get/responses/200' }",
    "  /vault:",
    "    get:",
    "      summary: Open vault",
    "      x-svc: { metadata: { groups: [staff] } }",
    "      responses:",
    "        '200': { description: VAULTWORD the vault }",
    "  /broken:",
    "    get:",
    "      summary: Broken BROKENWORD",
    "      x-svc: { metadata: { groups: { staff: true } } }",
    "      responses:",
    "        '200': { description: OK }",
    "",
  ].join("\n");
  const EVENTS = [
    "asyncapi: 3.0.0",
    "info: { title: Events, version: '1' }",
    "channels:",
    "  orders: { address: orders }",
    "operations:",
    "  onOrder: { action: receive, channel: { $ref: '#/channels/orders' } }",
    "  audit:",
    "    action: receive",
    "    summary: Audit AUDITWORD",
    "    x-svc: { metadata: { groups: [staff] } }",
    "    channel: { $ref: '#/channels/orders' }",
    "",
  ].join("\n");
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "Refs", navigation: { groups: [{ group: "API", openapi: "store.yaml" }, { group: "Events", asyncapi: "events.yaml" }] } },
      "store.yaml": STORE,
      "events.yaml": EVENTS,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("check reports the crossing $ref and the unreadable rule", () => {
    expect(runtime.site.diagnostics.map((d) => `${d.file} ${d.code ?? ""}: ${d.message}`)).toEqual([
      "store.yaml api-unreadable-rule: x-svc metadata.groups of paths./broken.get cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed",
      "store.yaml api-restricted-ref: $ref at paths./orders.get.responses.409 points into #/paths/~1vault/get/responses/200, a part restricted by x-svc metadata.groups: left out of the pages (their readers may not read it)",
    ]);
  });

  it("a public operation's page leaves out what its $ref pointed to inside a restricted one, for every reader", async () => {
    for (const reader of [ANONYMOUS, readerWithGroups(["staff"])]) {
      expect(await run(reader, "grep -c VAULTWORD /api-reference/list-orders.mdx")).toBe("0\n");
      expect(await run(reader, "grep -n '^###' /api-reference/list-orders.mdx")).toContain("### 200: Orders\n");
    }
    expect(await run(readerWithGroups(["staff"]), "grep -l VAULTWORD -r /")).toBe("/api-reference/open-vault.mdx\n/store.yaml\n");
  });

  it("the spec file of a reader outside the group has neither the restricted operation nor the $ref into it", async () => {
    expect(await run(ANONYMOUS, "cat /store.yaml")).toBe(
      ["openapi: 3.0.3", "info: { title: Store, version: '1' }", "paths:", "  /orders:", "    get:", "      summary: List orders", "      responses:", "        '200': { description: Orders }", ""].join("\n"),
    );
    expect(await run(readerWithGroups(["staff"]), "cat /store.yaml")).toBe(STORE.replace(/  \/broken:[^]*$/, ""));
  });

  it("an AsyncAPI 3 operation restricted on its own is not on its channel's page, and is in the spec file for its group only", async () => {
    for (const reader of [ANONYMOUS, readerWithGroups(["staff"]), ALL_ACCESS]) {
      expect(await run(reader, "grep -c -e AUDITWORD -e audit /api-reference/orders.mdx")).toBe("0\n");
    }
    expect(await run(ANONYMOUS, "grep -c AUDITWORD /events.yaml")).toBe("0\n");
    expect(await run(readerWithGroups(["partners"]), "grep -c AUDITWORD /events.yaml")).toBe("0\n");
    expect(await run(readerWithGroups(["staff"]), "grep -c AUDITWORD /events.yaml")).toBe("1\n");
  });

  it("the pages for people (HTML) show the same: no crossing $ref's text, no operation restricted on its own", async () => {
    const h = await startBridge({ root, authMode: "partial", apps: true });
    try {
      await h.state.addUser("sam", "sam-password-1", ["staff"]);
      const staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
      for (const token of [undefined, staff]) {
        const get = async (path: string): Promise<string> => {
          const res = await fetch(`${h.origin}${path}`, { headers: { accept: "text/html", ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) } });
          expect(res.status).toBe(200);
          return res.text();
        };
        const channel = await get("/api-reference/orders");
        expect([channel.includes("onOrder"), channel.includes("AUDITWORD"), channel.includes("audit")]).toEqual([true, false, false]);
        const orders = await get("/api-reference/list-orders");
        expect([orders.includes("List orders"), orders.includes("VAULTWORD"), orders.includes("409")]).toEqual([true, false, false]);
      }
    } finally {
      await h.close();
    }
  });

  it("an operation whose rule cannot be read is restricted to no reader but all-access ones", async () => {
    for (const reader of [ANONYMOUS, readerWithGroups(["staff"]), readerWithGroups(["partners"])]) {
      expect(await run(reader, "grep -rc BROKENWORD / | grep -v ':0$'; echo done")).toBe("done\n");
    }
    expect(await run(ALL_ACCESS, "grep -rl BROKENWORD /")).toBe("/api-reference/broken-brokenword.mdx\n/store.yaml\n");
  });
});

describe("a part marked public pointing into one that is not", () => {
  const SPEC = [
    "openapi: 3.0.3",
    "info: { title: Store, version: '1' }",
    "paths:",
    "  /orders:",
    "    get:",
    "      summary: List orders",
    "      x-svc: { metadata: { public: true } }",
    "      responses:",
    "        '200': { description: Orders }",
    "        '409': { $ref: '#/paths/~1vault/get/responses/200' }",
    "        '410': { $ref: '#/paths/~1status/get/responses/200' }",
    "  /vault:",
    "    get:",
    "      summary: Open vault",
    "      responses:",
    "        '200': { description: SIGNEDINWORD the vault }",
    "  /status:",
    "    get:",
    "      summary: Status",
    "      x-svc: { metadata: { public: true } }",
    "      responses:",
    "        '200': { description: STATUSWORD all good }",
    "",
  ].join("\n");
  let root: string;
  let runtime: DocsRuntime;

  beforeAll(async () => {
    root = writeRepo({ "docs.json": { name: "Refs", navigation: { groups: [{ group: "API", openapi: "store.yaml" }] } }, "store.yaml": SPEC });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("leaves the $ref out of the public part's page, whatever the auth setting (anonymous readers read that page where sign-in is required), and says so", async () => {
    expect(runtime.site.diagnostics.map((d) => `${d.file} ${d.code ?? ""}: ${d.message}`)).toEqual([
      "store.yaml api-restricted-ref: $ref at paths./orders.get.responses.409 points into #/paths/~1vault/get/responses/200, a part not marked public: left out of the pages of the public part (where signing in is required, its anonymous readers may not read it)",
    ]);
    const run = async (command: string): Promise<string> => (await runtime.readerState(localContext(ALL_ACCESS)).shell.run(command)).stdout;
    // The page is one file for all its readers: the text is gone from it, a public part's copy stays.
    expect(await run("grep -n '^###' /api-reference/list-orders.mdx")).toBe("16:### 200: Orders\n18:### 410: STATUSWORD all good\n22:### Request\n");
    expect(await run("grep -rl SIGNEDINWORD /")).toBe("/api-reference/open-vault.mdx\n/store.yaml\n");
  });
});
