import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRelayApp } from "../../src/bridge/playground/relay.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import type { Site } from "../../src/vfs/site.js";
import { load } from "../openapi/helpers.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const MP3 = Buffer.from("494433030000000000", "hex");
const MP4 = Buffer.from("000000186674797069736f6d", "hex");

let upstream: Server;
let upstreamPort: number;
let relay: ServerType;
let relayUrl: string;
let site: Site;
const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const path = (req.url ?? "").split("?")[0];
      if (path === "/v1/users") {
        res.writeHead(201, { "content-type": "application/json", "x-request-id": "r1" });
        res.end(JSON.stringify({ id: "u1", echo: body === "" ? null : JSON.parse(body) }));
      } else if (path === "/v1/avatar.png") {
        res.writeHead(200, { "content-type": "image/png" });
        res.end(PNG);
      } else if (path === "/v1/hello.mp3") {
        res.writeHead(200, { "content-type": "audio/mpeg" });
        res.end(MP3);
      } else if (path === "/v1/clip.mp4") {
        res.writeHead(200, { "content-type": "video/mp4" });
        res.end(MP4);
      } else if (path === "/v1/big") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("x".repeat(5000));
      } else if (path === "/v1/slow") {
        setTimeout(() => res.end("late"), 2000);
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
      }
    });
  });
  upstreamPort = await listen(upstream);
  const op = (summary: string) => ({ summary, tags: ["T"], responses: { "200": { description: "OK" } } });
  site = await load({
    "docs.json": {
      navigation: {
        groups: [
          { group: "Local", openapi: "local.json", pages: ["GET /users", "GET /avatar.png", "GET /hello.mp3", "GET /clip.mp4", "GET /big", "GET /slow"] },
          { group: "Public", openapi: "public.json", pages: ["GET /users"] },
          { group: "Members", openapi: "members.json", pages: ["auth"] },
        ],
      },
    },
    "local.json": {
      openapi: "3.0.3",
      info: { title: "Local", version: "1" },
      servers: [{ url: `http://127.0.0.1:${upstreamPort}/v1` }],
      paths: {
        "/users": { get: op("List users"), post: op("Create user") },
        "/avatar.png": { get: op("Avatar") },
        "/hello.mp3": { get: op("Hello") },
        "/clip.mp4": { get: op("Clip") },
        "/big": { get: op("Big") },
        "/slow": { get: op("Slow") },
      },
    },
    "public.json": {
      openapi: "3.0.3",
      info: { title: "Public", version: "1" },
      servers: [{ url: "https://api.example.test/v1" }],
      paths: { "/users": { get: op("Public users") } },
    },
    "members.json": { openapi: "3.0.3", info: { title: "M", version: "1" }, servers: [{ url: `http://127.0.0.1:${upstreamPort}/v1` }], paths: { "/users": { post: op("Member create") } } },
    "auth.mdx": "---\nopenapi: POST /users\nplayground: auth\ngroups: [staff]\npublic: true\n---\n",
  });
  const app = createRelayApp({
    lookupPage: (p) => site.api?.pages.get(p),
    // api.example.test "resolves" to loopback: a public-looking name that must still be refused.
    lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    readerOf: (req) => readerWithGroups((req.headers.get("x-test-groups") ?? "").split(",").filter((g) => g !== "")),
    authConfigured: true,
    limits: { maxResponseBytes: 4096, timeoutMs: 500, maxRequestBytes: 2048 },
  });
  relay = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => relay.once("listening", () => resolve()));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/_svc/api/request`;
});

afterAll(async () => {
  await new Promise((r) => relay.close(r));
  await new Promise((r) => upstream.close(r));
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted whole
async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(relayUrl, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

const local = (path: string) => `http://127.0.0.1:${upstreamPort}/v1${path}`;

describe("POST /_svc/api/request", () => {
  it("relays a JSON request with query and headers, and returns status, headers, body and kind code", async () => {
    const r = await post({ page: "/api-reference/t/list-users", method: "POST", url: local("/users"), query: { limit: "2", tag: ["a", "b"] }, headers: { "X-Api-Key": "k", Host: "evil" }, body: { name: "Ada" } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      status: 201,
      statusText: "Created",
      headers: { "content-type": "application/json", "x-request-id": "r1", date: expect.any(String) },
      contentType: "application/json",
      kind: "code",
      body: '{"id":"u1","echo":{"name":"Ada"}}',
      encoding: "utf8",
    });
    const last = seen.at(-1);
    expect(last?.url).toBe("/v1/users?limit=2&tag=a&tag=b");
    expect(last?.headers["x-api-key"]).toBe("k");
    expect(last?.headers.host).toBe(`127.0.0.1:${upstreamPort}`);
    expect(last?.headers["content-type"]).toBe("application/json");
  });

  it.each([
    ["/avatar.png", "image", "image/png", PNG],
    ["/hello.mp3", "audio", "audio/mpeg", MP3],
    ["/clip.mp4", "video", "video/mp4", MP4],
  ])("renders %s as %s (base64 body)", async (path, kind, type, bytes) => {
    const r = await post({ page: "/api-reference/t/list-users", method: "GET", url: local(path) });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 200, kind, contentType: type, encoding: "base64", body: bytes.toString("base64") });
  });

  it("passes upstream errors through as data (status 404, body text)", async () => {
    const r = await post({ page: "/api-reference/t/list-users", method: "GET", url: local("/nowhere") });
    expect(r.json).toMatchObject({ status: 404, kind: "code", body: "not found", encoding: "utf8" });
  });

  it("refuses a target that is not under a server declared by the page's spec", async () => {
    const r = await post({ page: "/api-reference/t/list-users", method: "GET", url: "https://attacker.example/v1/users" });
    expect(r).toEqual({ status: 403, json: { error: { code: "target_not_allowed", message: `https://attacker.example/v1/users is not under a server declared for /api-reference/t/list-users (http://127.0.0.1:${upstreamPort}/v1)` } } });
    const sibling = await post({ page: "/api-reference/t/list-users", method: "GET", url: `http://127.0.0.1:${upstreamPort}/v10/users` });
    expect(sibling.json.error.code).toBe("target_not_allowed");
  });

  it("refuses private and loopback addresses unless the spec's server is one (here: a public name resolving to 127.0.0.1)", async () => {
    const r = await post({ page: "/api-reference/t/public-users", method: "GET", url: "https://api.example.test/v1/users" });
    expect(r).toEqual({
      status: 403,
      json: { error: { code: "private_address", message: "api.example.test resolves to 127.0.0.1, a private or loopback address; the relay only calls them when the spec's server is one" } },
    });
  });

  it("enforces the response size and time limits", async () => {
    expect((await post({ page: "/api-reference/t/list-users", method: "GET", url: local("/big") })).json).toEqual({
      error: { code: "response_too_large", message: `the response of 127.0.0.1:${upstreamPort} is over the relay's 4096-byte limit` },
    });
    const slow = await post({ page: "/api-reference/t/list-users", method: "GET", url: local("/slow") });
    expect(slow).toEqual({ status: 504, json: { error: { code: "upstream_timeout", message: `127.0.0.1:${upstreamPort} did not answer within 500 ms` } } });
  });

  it("rejects bad input with 400/413 and a message naming the field", async () => {
    expect(await post({ page: "/api-reference/t/list-users", method: "get", url: local("/users") })).toEqual({
      status: 400,
      json: { error: { code: "invalid_request", message: expect.stringMatching(/^"method": /) } },
    });
    expect(await post("{nope")).toEqual({ status: 400, json: { error: { code: "invalid_request", message: "the body is not valid JSON" } } });
    expect(await post({ page: "/x", method: "GET", url: local("/users"), body: "y".repeat(3000) })).toEqual({
      status: 413,
      json: { error: { code: "request_too_large", message: "the request is over the relay's 2048-byte limit" } },
    });
    expect(await post({ page: "/intro", method: "GET", url: local("/users") })).toEqual({ status: 404, json: { error: { code: "unknown_page", message: "/intro is not an API page of this site" } } });
  });

  it("applies the page's playground setting: auth + groups", async () => {
    const body = { page: "/auth", method: "POST", url: local("/users"), body: {} };
    expect(await post(body)).toEqual({ status: 401, json: { error: { code: "sign_in_required", message: "the playground of /auth is for signed-in readers" } } });
    expect(await post(body, { "x-test-groups": "sales" })).toEqual({ status: 403, json: { error: { code: "playground_forbidden", message: "the playground of /auth is limited to the groups staff" } } });
    expect((await post(body, { "x-test-groups": "staff" })).json.status).toBe(201);
  });

  it("only POST is served: a reverse proxy that allows only GET breaks the playground", async () => {
    const res = await fetch(relayUrl);
    expect(res.status).toBe(404);
  });
});
