import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeRepo } from "../openapi/helpers.js";
import { type Harness, credentialTokens, startBridge, userTokens } from "./harness.js";

/**
 * The playground relay serves only pages the caller may read, over the real bridge as
 * `serve --http` mounts it: a page they may not read is answered exactly as a page that does
 * not exist (status, code, message, headers), before its playground rule could confirm it.
 */

let upstream: Server;
let upstreamPort = 0;
let h: Harness;
let staff = "";
let sales = "";
let credential = "";

const op = (summary: string, metadata?: Record<string, unknown>) => ({
  summary,
  tags: ["Vault"],
  responses: { "200": { description: "OK" } },
  ...(metadata !== undefined ? { "x-svc": { metadata } } : {}),
});

beforeAll(async () => {
  upstream = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ reached: req.url }));
  });
  upstreamPort = await new Promise<number>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve((upstream.address() as AddressInfo).port)));
  const root = writeRepo({
    "docs.json": {
      name: "Vault Docs",
      navigation: {
        groups: [
          { group: "Start", pages: ["index", "ledger", "admin", "partners"] },
          { group: "API", openapi: "vault.json", pages: ["GET /open", "GET /vault", "POST /vault", "GET /mint"] },
        ],
      },
    },
    "index.mdx": "---\ntitle: Home\n---\n\nWelcome.\n",
    // A hand-written API page restricted by its own front matter.
    "ledger.mdx": "---\ntitle: Ledger\nopenapi: vault.json GET /ledger\ngroups: [finance]\n---\n",
    // Pages whose own rule does not keep to the operation's (x-svc metadata.groups [staff]): the
    // reference is not shown, so the relay must not answer for the operation either.
    "admin.mdx": '---\ntitle: Admin\nopenapi: "api/internal.yaml GET /admin"\n---\n',
    "partners.mdx": '---\ntitle: Partners\nopenapi: "api/internal.yaml GET /admin"\ngroups: [partners]\n---\n',
    "api/internal.yaml": [
      "openapi: 3.0.3",
      "info: {title: Internal, version: '1'}",
      "servers: [{url: 'https://public-api.example.com'}]",
      "paths:",
      "  /admin:",
      "    get:",
      `      servers: [{url: 'http://127.0.0.1:${upstreamPort}/SECRETHOST-staff'}]`,
      "      x-svc: {metadata: {groups: [staff]}}",
      "      responses: {'200': {description: OK}}",
      "",
    ].join("\n"),
    "vault.json": {
      openapi: "3.0.3",
      info: { title: "Vault", version: "1" },
      servers: [{ url: `http://127.0.0.1:${upstreamPort}/v1` }],
      paths: {
        "/open": { get: op("Open door") },
        "/vault": { get: op("Read vault", { groups: ["staff"] }), post: op("Fill vault", { groups: ["staff"], playground: "auth" }) },
        "/mint": { get: { ...op("Mint"), "x-mint": { metadata: { groups: ["staff"] } } } },
        "/ledger": { get: op("Ledger") },
      },
    },
  });
  h = await startBridge({ root, authMode: "partial", mcp: "enabled", apps: true });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  await h.state.addUser("sue", "sue-password-1", ["sales"]);
  staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
  sales = (await userTokens(h, "sue", "sue-password-1")).access_token;
  credential = (await credentialTokens(h)).access_token;
});
afterAll(async () => {
  await h.close();
  await new Promise((resolve) => upstream.close(resolve));
});
beforeEach(async () => {
  await h.state.setAuthMode("partial");
});

const page = (name: string) => `/api-reference/vault/${name}`;
const url = (path: string) => `http://127.0.0.1:${upstreamPort}/v1${path}`;

/** POST to the relay; the answer's status, body and headers (without the date, and the length,
 *  which follows the page path in the message). */
async function relay(body: Record<string, unknown>, token?: string) {
  const res = await fetch(`${h.origin}/_svc/api/request`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    if (key !== "date" && key !== "content-length") headers[key] = value;
  });
  return { status: res.status, body: (await res.json()) as unknown, headers };
}

/** What the relay answers for a page that does not exist at `pagePath`. */
function unknownPage(pagePath: string) {
  return { status: 404, body: { error: { code: "unknown_page", message: `${pagePath} is not an API page of this site` } } };
}

describe("the relay answers a page the caller may not read as one that does not exist", () => {
  it.each([
    ["an operation restricted by x-svc metadata.groups", page("read-vault"), "GET", "/vault"],
    ["an operation restricted by x-mint metadata.groups", page("mint"), "GET", "/mint"],
    ["an operation whose playground is auth (no sign_in_required that would confirm it)", page("fill-vault"), "POST", "/vault"],
    ["a front-matter API page restricted by groups", "/ledger", "GET", "/ledger"],
  ])("%s: 404 unknown_page for anonymous and other groups, the upstream answer for its group", async (_what, pagePath, method, path) => {
    const request = { page: pagePath, method, url: url(path) };
    const missing = await relay({ ...request, page: `${pagePath}-missing` });
    for (const token of [undefined, sales, "mcpat_not-a-valid-token"]) {
      const refused = await relay(request, token);
      expect({ status: refused.status, body: refused.body }).toEqual(unknownPage(pagePath));
      expect(refused.headers).toEqual(missing.headers);
    }
    const allowed = pagePath === "/ledger" ? credential : staff;
    const ok = await relay(request, allowed);
    expect([ok.status, (ok.body as { status: number; body: string }).status, (ok.body as { body: string }).body]).toEqual([200, 200, JSON.stringify({ reached: `/v1${path}` })]);
  });

  it.each([
    ["an open page documenting a staff operation", "/admin"],
    ["a partners page documenting a staff operation", "/partners"],
  ])("%s: unknown_page for every caller, the operation's server never named nor called", async (_what, pagePath) => {
    const missing = await relay({ page: `${pagePath}-missing`, method: "GET", url: "https://example.org/" });
    for (const target of ["https://example.org/", `http://127.0.0.1:${upstreamPort}/SECRETHOST-staff/admin`]) {
      for (const token of [undefined, sales, staff, credential]) {
        const refused = await relay({ page: pagePath, method: "GET", url: target }, token);
        expect({ status: refused.status, body: refused.body }).toEqual(unknownPage(pagePath));
        expect(refused.headers).toEqual(missing.headers);
      }
    }
  });

  it("applies the page's playground rule only to readers of the page", async () => {
    // A group member who reads the page meets its rule; here they pass it.
    expect((await relay({ page: page("fill-vault"), method: "POST", url: url("/vault"), body: {} }, staff)).status).toBe(200);
    // A client credential reads every page and passes every playground rule.
    expect((await relay({ page: page("fill-vault"), method: "POST", url: url("/vault"), body: {} }, credential)).status).toBe(200);
  });

  it("on a fully authenticated site, anonymous callers get no ungrouped API page; signed-in ones do", async () => {
    await h.state.setAuthMode("full");
    const request = { page: page("open-door"), method: "GET", url: url("/open") };
    expect(await relay(request)).toMatchObject(unknownPage(page("open-door")));
    expect((await relay(request, sales)).status).toBe(200);
    await h.state.setAuthMode("partial");
    expect((await relay(request)).status).toBe(200);
  });
});
