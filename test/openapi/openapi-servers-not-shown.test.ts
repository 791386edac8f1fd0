/**
 * Security row 217 (adversary round 65 F2): an OpenAPI path-level or operation-level `servers`
 * list every entry of which a stray `x-svc` rule restricts was cut whole, and the operation then
 * read as on the document's servers: the reader's copy named no servers for it, its page said
 * `**Base URL:**` the document's server for every reader (staff included), and the playground
 * relay sent its request there, a server the author never declared for it. Now the emptied list
 * is written as `x-svc-servers: "not shown"` (as an AsyncAPI channel's is), the page says
 * `**Base URL:** not shown` and the relay refuses the operation. The document's own list emptied
 * the same way says the same for every operation that names no servers of its own.
 *
 * Through the SDK client (anonymous and staff), the HTML pages and the relay over the real
 * bridge, with a loopback upstream that records what reached it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readerWithGroups } from "../../src/vfs/access.js";
import { type Harness, startBridge, userTokens } from "../bridge/harness.js";
import { connect } from "../helpers/mcp.js";
import { writeRepo } from "./helpers.js";

const FS = "query_docs_filesystem_osrv";

let upstream: Server;
let port = 0;
let h: Harness;
let staff = "";
const reached: string[] = [];

/** The operations' spec: the document's server is public; some lists hold only a staff server. */
const opsSpec = (): string =>
  [
    "openapi: 3.1.0",
    "info: {title: Ops, version: '1'}",
    "servers:",
    `  - url: http://127.0.0.1:${port}/pub`,
    "paths:",
    "  /items:",
    "    # the staff gateway only",
    "    servers:",
    `      - url: http://127.0.0.1:${port}/pathstaff`,
    "        x-svc: {metadata: {groups: [staff]}}",
    "    get:",
    "      operationId: listItems",
    "      summary: List items",
    "      responses:",
    "        '200': {description: ok}",
    "  /things:",
    "    get:",
    "      operationId: listThings",
    "      summary: List things",
    "      servers:",
    `        - url: http://127.0.0.1:${port}/opstaff`,
    "          x-svc: {metadata: {groups: [staff]}}",
    "      responses:",
    "        '200': {description: ok}",
    "  /mixed:",
    "    get:",
    "      summary: Mixed",
    `      servers: [{url: 'http://127.0.0.1:${port}/open'}, {url: 'http://127.0.0.1:${port}/mixstaff', x-svc: {metadata: {groups: [staff]}}}]`,
    "      responses:",
    "        '200': {description: ok}",
    "  /plain:",
    "    get:",
    "      summary: Plain",
    "      responses:",
    "        '200': {description: ok}",
    "",
  ].join("\n");

/** A spec whose document-level servers are all restricted. */
const docSpec = (): string =>
  [
    "openapi: 3.0.3",
    "info: {title: Doc, version: '1'}",
    "servers:",
    `  - url: http://127.0.0.1:${port}/docstaff`,
    "    x-svc: {metadata: {groups: [staff]}}",
    "paths:",
    "  /bare:",
    "    get:",
    "      summary: Bare",
    "      responses:",
    "        '200': {description: ok}",
    "  /own:",
    "    get:",
    "      summary: Own",
    "      servers:",
    `        - url: http://127.0.0.1:${port}/own`,
    "      responses:",
    "        '200': {description: ok}",
    "",
  ].join("\n");

beforeAll(async () => {
  upstream = createServer((req, res) => {
    reached.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ reached: req.url }));
  });
  port = await new Promise<number>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve((upstream.address() as AddressInfo).port)));
  const root = writeRepo({
    "docs.json": { name: "Osrv", navigation: { groups: [{ group: "Ops", openapi: "ops.yaml" }, { group: "Doc", openapi: "doc.yaml" }] } },
    "ops.yaml": opsSpec(),
    "doc.yaml": docSpec(),
  });
  h = await startBridge({ root, authMode: "partial", apps: true });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
});
afterAll(async () => {
  await h.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe("an OpenAPI servers list every entry of which the reader may not see", () => {
  it("the anonymous copy of each file says its servers are not shown, not the document's", async () => {
    const anon = await connect(h.runtime);
    expect(anon.text(await anon.call(FS, { command: "cat /ops.yaml" }))).toBe(
      [
        "openapi: 3.1.0",
        "info: {title: Ops, version: '1'}",
        "servers:",
        `  - url: http://127.0.0.1:${port}/pub`,
        "paths:",
        "  /items:",
        // The list's comment goes with it, as the list's other lines do.
        '    x-svc-servers: "not shown"',
        "    get:",
        "      operationId: listItems",
        "      summary: List items",
        "      responses:",
        "        '200': {description: ok}",
        "  /things:",
        "    get:",
        "      operationId: listThings",
        "      summary: List things",
        '      x-svc-servers: "not shown"',
        "      responses:",
        "        '200': {description: ok}",
        "  /mixed:",
        "    get:",
        "      summary: Mixed",
        `      servers: [{url: 'http://127.0.0.1:${port}/open'}]`,
        "      responses:",
        "        '200': {description: ok}",
        "  /plain:",
        "    get:",
        "      summary: Plain",
        "      responses:",
        "        '200': {description: ok}",
        "",
      ].join("\n"),
    );
    expect(anon.text(await anon.call(FS, { command: "cat /doc.yaml" }))).toBe(
      [
        "openapi: 3.0.3",
        "info: {title: Doc, version: '1'}",
        'x-svc-servers: "not shown"',
        "paths:",
        "  /bare:",
        "    get:",
        "      summary: Bare",
        "      responses:",
        "        '200': {description: ok}",
        "  /own:",
        "    get:",
        "      summary: Own",
        "      servers:",
        `        - url: http://127.0.0.1:${port}/own`,
        "      responses:",
        "        '200': {description: ok}",
        "",
      ].join("\n"),
    );
    await anon.close();
  });

  it("the group's readers keep each file as written", async () => {
    const c = await connect(h.runtime, readerWithGroups(["staff"]));
    expect(c.text(await c.call(FS, { command: "cat /ops.yaml" }))).toBe(opsSpec());
    expect(c.text(await c.call(FS, { command: "cat /doc.yaml" }))).toBe(docSpec());
    await c.close();
  });

  it("the pages say the servers are not shown, for every reader (a page is one file for all)", async () => {
    for (const reader of [undefined, readerWithGroups(["staff"])]) {
      const c = reader === undefined ? await connect(h.runtime) : await connect(h.runtime, reader);
      expect(c.text(await c.call(FS, { command: "grep -r '^\\*\\*Base URL' /api-reference | sort" }))).toBe(
        [
          "/api-reference/bare.mdx:**Base URL:** not shown",
          "/api-reference/list-items.mdx:**Base URL:** not shown",
          "/api-reference/list-things.mdx:**Base URL:** not shown",
          `/api-reference/mixed.mdx:**Base URL:** \`http://127.0.0.1:${port}/open\``,
          `/api-reference/own.mdx:**Base URL:** \`http://127.0.0.1:${port}/own\``,
          `/api-reference/plain.mdx:**Base URL:** \`http://127.0.0.1:${port}/pub\``,
          "",
        ].join("\n"),
      );
      await c.close();
    }
    const anon = await connect(h.runtime);
    expect(anon.text(await anon.call(FS, { command: "cat /api-reference/list-things.mdx" }))).toBe(
      [
        "---",
        'title: "List things"',
        'openapi: "ops.yaml GET /things"',
        'playground: "interactive"',
        "---",
        "",
        "# List things",
        "",
        "`GET /things`",
        "",
        "**Base URL:** not shown",
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
        "  --url '<base-url>/things'",
        "```",
        "",
        "```python Python",
        "import requests",
        "",
        'url = "<base-url>/things"',
        "",
        'response = requests.request("GET", url)',
        "",
        "print(response.text)",
        "```",
        "",
        "```javascript JavaScript",
        'const response = await fetch("<base-url>/things", {',
        '  method: "GET",',
        "});",
        "",
        "console.log(await response.text());",
        "```",
        "",
        "## Source",
        "",
        "Generated from `/ops.yaml`: `yq '.[\"paths\"][\"/things\"][\"get\"]' /ops.yaml`",
        "",
      ].join("\n"),
    );
    await anon.close();
  });

  it("the HTML pages say the same", async () => {
    const lines = async (path: string): Promise<string[]> => (await (await fetch(`${h.origin}${path}`, { headers: { accept: "text/html" } })).text()).split("\n").filter((l) => l.includes("Base URL"));
    expect(await lines("/api-reference/list-things")).toEqual(['<p class="meta">Base URL: not shown</p>']);
    expect(await lines("/api-reference/list-items")).toEqual(['<p class="meta">Base URL: not shown</p>']);
    expect(await lines("/api-reference/bare")).toEqual(['<p class="meta">Base URL: not shown</p>']);
    expect(await lines("/api-reference/plain")).toEqual([`<p class="meta">Base URL: <code>http://127.0.0.1:${port}/pub</code></p>`]);
  });
});

describe("the playground relay and an operation whose servers are not shown", () => {
  /** POST to the relay as `serve --http` mounts it: the answer's status and body. */
  async function relay(body: Record<string, unknown>, token?: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${h.origin}/_svc/api/request`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  }
  const notShown = (page: string) => ({
    status: 403,
    body: { error: { code: "target_not_allowed", message: `the servers of ${page}'s operation are not shown on its page (restricted to some readers); the relay calls no other server in their place` } },
  });

  it.each([
    ["an operation's own list", "/api-reference/list-things", "/things", ["pub", "opstaff"]],
    ["a path item's list", "/api-reference/list-items", "/items", ["pub", "pathstaff"]],
    ["the document's list", "/api-reference/bare", "/bare", ["docstaff"]],
  ])("%s: refused for every reader, whatever server the request names; nothing reaches the upstream", async (_what, page, path, bases) => {
    const before = reached.length;
    for (const base of bases) {
      for (const token of [undefined, staff]) {
        expect(await relay({ page, method: "GET", url: `http://127.0.0.1:${port}/${base}${path}` }, token)).toEqual(notShown(page));
      }
    }
    expect(reached.slice(before)).toEqual([]);
  });

  it("an operation with servers the reader sees is relayed to them", async () => {
    const ok = await relay({ page: "/api-reference/plain", method: "GET", url: `http://127.0.0.1:${port}/pub/plain` });
    expect([ok.status, (ok.body as { status: number }).status, (ok.body as { body: string }).body]).toEqual([200, 200, JSON.stringify({ reached: "/pub/plain" })]);
    const own = await relay({ page: "/api-reference/own", method: "GET", url: `http://127.0.0.1:${port}/own/own` });
    expect([own.status, (own.body as { body: string }).body]).toEqual([200, JSON.stringify({ reached: "/own/own" })]);
  });
});
