import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRelayApp } from "../../src/bridge/playground/relay.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { requestContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "../openapi/helpers.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const MP3 = Buffer.from("494433030000000000", "hex");
const MP4 = Buffer.from("000000186674797069736f6d", "hex");

let upstream: Server;
let upstreamPort: number;
let relay: ServerType;
let relayUrl: string;
// A second relay with a short upstream time limit, only for the time-limit case: on a busy
// machine a loopback answer can take longer than 500 ms, so every other case gets a long one.
let shortRelay: ServerType;
let shortRelayUrl: string;
// Upstream requests to /slow are held unanswered until the suite ends (no timer stands in).
const held: ServerResponse[] = [];
let runtime: DocsRuntime;
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
      // Decoded, as most servers route: `/%76%31/users` is `/v1/users`.
      const path = decodeURIComponent((req.url ?? "").split("?")[0] ?? "");
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
      } else if (path.startsWith("/v1/doors/") || path.startsWith("/v1/files/") || path === "/v2/pub") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ reached: req.url }));
      } else if (path === "/v1/slow") {
        held.push(res);
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
      }
    });
  });
  upstreamPort = await listen(upstream);
  const op = (summary: string) => ({ summary, tags: ["T"], responses: { "200": { description: "OK" } } });
  const root = writeRepo({
    "docs.json": {
      navigation: {
        groups: [
          { group: "Local", openapi: "local.json", pages: ["GET /users", "POST /users", "GET /avatar.png", "GET /hello.mp3", "GET /clip.mp4", "GET /big", "GET /slow", "GET /nowhere"] },
          { group: "Public", openapi: "public.json", pages: ["GET /users"] },
          { group: "Members", openapi: "members.json", pages: ["auth"] },
          { group: "Odd", openapi: "odd.json", pages: ["GET /users", "GET /hosts"] },
          { group: "Ops", openapi: "ops.json", pages: ["GET /pub", "DELETE /admin/vault", "GET /doors/{door}/keys/{key}", "webhook door.opened", "GET /files/{path}", "GET /files/{dir}/secret"] },
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
        "/nowhere": { get: op("Nowhere") },
      },
    },
    "public.json": {
      openapi: "3.0.3",
      info: { title: "Public", version: "1" },
      servers: [{ url: "https://api.example.test/v1" }],
      paths: { "/users": { get: op("Public users") } },
    },
    "members.json": { openapi: "3.0.3", info: { title: "M", version: "1" }, servers: [{ url: `http://127.0.0.1:${upstreamPort}/v1` }], paths: { "/users": { post: { ...op("Member create"), "x-svc": { metadata: { public: true } } } } } },
    // A public page (its groups limit only its playground) may document only a public operation.
    "auth.mdx": "---\nopenapi: members.json POST /users\nplayground: auth\ngroups: [staff]\npublic: true\n---\n",
    // Servers with variables in the port, a host label and the whole host.
    "odd.json": {
      openapi: "3.0.3",
      info: { title: "Odd", version: "1" },
      servers: [{ url: "http://localhost:{port}/v1" }, { url: "https://{tenant}.api.example.test/v{version}" }, { url: "https://{host}/base" }],
      paths: { "/users": { get: op("Ping") }, "/hosts": { get: op("Hosts") } },
    },
    // The adversary's spec (round 56, F1): a public operation beside a staff-only one, a
    // templated path, a webhook, and a second server declared with a trailing "/".
    "ops.json": {
      openapi: "3.1.0",
      info: { title: "Ops", version: "1" },
      servers: [{ url: `http://127.0.0.1:${upstreamPort}/v1` }, { url: `http://127.0.0.1:${upstreamPort}/v2/` }],
      paths: {
        "/pub": { get: op("Public op") },
        "/admin/vault": { delete: { ...op("Wipe the vault"), "x-svc": { metadata: { groups: ["staff"] } } } },
        "/doors/{door}/keys/{key}": { get: op("Door key") },
        // A file path as one parameter, and a staff-only operation an API that decodes "%2F"
        // before it routes would read `/files/a%2Fsecret` as.
        "/files/{path}": { get: op("Read file") },
        "/files/{dir}/secret": { get: { ...op("Staff file"), "x-svc": { metadata: { groups: ["staff"] } } } },
      },
      webhooks: { "door.opened": { post: op("Door opened") } },
    },
    // An operation page only staff may read: to everyone else it does not exist.
    "vault.mdx": "---\nopenapi: members.json POST /users\ngroups: [staff]\n---\n",
  });
  runtime = await DocsRuntime.load({ root });
  const start = async (timeoutMs: number): Promise<[ServerType, string]> => {
    const app = createRelayApp({
      lookupPage: (p, context) => runtime.apiPage(p, context),
      // api.example.test "resolves" to loopback: a public-looking name that must still be refused.
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
      contextOf: (req) => requestContext(readerWithGroups((req.headers.get("x-test-groups") ?? "").split(",").filter((g) => g !== "")), "partial"),
      limits: { maxResponseBytes: 4096, timeoutMs, maxRequestBytes: 256 * 1024 },
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    return [server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/_svc/api/request`];
  };
  [relay, relayUrl] = await start(60_000);
  [shortRelay, shortRelayUrl] = await start(500);
});

afterAll(async () => {
  for (const res of held) res.end("late");
  await new Promise((r) => relay.close(r));
  await new Promise((r) => shortRelay.close(r));
  await new Promise((r) => upstream.close(r));
  await runtime.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted whole
async function post(body: unknown, headers: Record<string, string> = {}, url = relayUrl): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

const local = (path: string) => `http://127.0.0.1:${upstreamPort}/v1${path}`;

describe("POST /_svc/api/request", () => {
  it("relays a JSON request with query and headers, and returns status, headers, body and kind code", async () => {
    const r = await post({ page: "/api-reference/t/create-user", method: "POST", url: local("/users"), query: { limit: "2", tag: ["a", "b"] }, headers: { "X-Api-Key": "k", Host: "evil" }, body: { name: "Ada" } });
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
    const r = await post({ page: `/api-reference/t/${path.slice(1, path.indexOf("."))}`, method: "GET", url: local(path) });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 200, kind, contentType: type, encoding: "base64", body: bytes.toString("base64") });
  });

  it("passes upstream errors through as data (status 404, body text)", async () => {
    const r = await post({ page: "/api-reference/t/nowhere", method: "GET", url: local("/nowhere") });
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
      json: {
        error: {
          code: "private_address",
          message: "api.example.test does not resolve to a public address; the relay calls loopback, private and other special-purpose addresses only when the spec's server is one",
        },
      },
    });
  });

  it("enforces the response size and time limits", async () => {
    expect((await post({ page: "/api-reference/t/big", method: "GET", url: local("/big") })).json).toEqual({
      error: { code: "response_too_large", message: `the response of 127.0.0.1:${upstreamPort} is over the relay's 4096-byte limit` },
    });
    const slow = await post({ page: "/api-reference/t/slow", method: "GET", url: local("/slow") }, {}, shortRelayUrl);
    expect(slow).toEqual({ status: 504, json: { error: { code: "upstream_timeout", message: `127.0.0.1:${upstreamPort} did not answer within 500 ms` } } });
  });

  it("rejects bad input with 400/413 and a message naming the field", async () => {
    expect(await post({ page: "/api-reference/t/list-users", method: "get", url: local("/users") })).toEqual({
      status: 400,
      json: { error: { code: "invalid_request", message: expect.stringMatching(/^"method": /) } },
    });
    expect(await post("{nope")).toEqual({ status: 400, json: { error: { code: "invalid_request", message: "the body is not valid JSON" } } });
    expect(await post({ page: "/x", method: "GET", url: local("/users"), body: "y".repeat(300_000) })).toEqual({
      status: 413,
      json: { error: { code: "request_too_large", message: "the request is over the relay's 262144-byte limit" } },
    });
    expect(await post({ page: "/intro", method: "GET", url: local("/users") })).toEqual({ status: 404, json: { error: { code: "unknown_page", message: "/intro is not an API page of this site" } } });
  });

  it("applies the page's playground setting: auth + groups", async () => {
    const body = { page: "/auth", method: "POST", url: local("/users"), body: {} };
    expect(await post(body)).toEqual({ status: 401, json: { error: { code: "sign_in_required", message: "the playground of /auth is for signed-in readers" } } });
    expect(await post(body, { "x-test-groups": "sales" })).toEqual({ status: 403, json: { error: { code: "playground_forbidden", message: "the playground of /auth is limited to the groups staff" } } });
    expect((await post(body, { "x-test-groups": "staff" })).json.status).toBe(201);
  });

  it.each([
    ["a CR/LF in a value", { "X-Note": "a\r\nX-Injected: 1" }, '"headers.X-Note": header X-Note: the value holds U+000D; a value is one line of Latin-1 text (no CR, LF or other control characters, nothing past U+00FF)'],
    ["a space in a name", { "X Note": "a" }, `"headers.X Note": header name "X Note" is not a token (letters, digits and !#$%&'*+-.^_\`|~ only)`],
    ["a colon in a name", { "X-Note:": "a" }, `"headers.X-Note:": header name "X-Note:" is not a token (letters, digits and !#$%&'*+-.^_\`|~ only)`],
    ["an empty name", { "": "a" }, `"headers.": header name "" is not a token (letters, digits and !#$%&'*+-.^_\`|~ only)`],
    ["a value past Latin-1", { "X-Name": "Zoë 日本" }, '"headers.X-Name": header X-Name: the value holds U+65E5; a value is one line of Latin-1 text (no CR, LF or other control characters, nothing past U+00FF)'],
    ["a lone surrogate", { "X-Name": "a\ud800" }, '"headers.X-Name": header X-Name: the value holds U+D800; a value is one line of Latin-1 text (no CR, LF or other control characters, nothing past U+00FF)'],
    ["a NUL", { "X-Name": "a\u0000b" }, '"headers.X-Name": header X-Name: the value holds U+0000; a value is one line of Latin-1 text (no CR, LF or other control characters, nothing past U+00FF)'],
  ])("refuses a header HTTP cannot carry (%s) with 400 invalid_request naming it", async (_what, headers, message) => {
    const before = seen.length;
    expect(await post({ page: "/api-reference/t/list-users", method: "GET", url: local("/users"), headers })).toEqual({ status: 400, json: { error: { code: "invalid_request", message } } });
    expect(seen.length).toBe(before);
  });

  it("forwards Latin-1 and tab in header values as HTTP carries them", async () => {
    const r = await post({ page: "/api-reference/t/list-users", method: "GET", url: local("/users"), headers: { "X-Name": "Zoë\tÅ" } });
    expect(r.status).toBe(200);
    expect(Buffer.from(seen.at(-1)?.headers["x-name"] as string, "latin1").toString("latin1")).toBe("Zoë\tÅ");
  });

  it("matches the server's path case-sensitively, host and scheme case-insensitively, in one normal form", async () => {
    const refused = (shown: string) => ({
      status: 403,
      json: { error: { code: "target_not_allowed", message: `${shown} is not under a server declared for /api-reference/t/list-users (http://127.0.0.1:${upstreamPort}/v1)` } },
    });
    const at = (url: string) => post({ page: "/api-reference/t/list-users", method: "GET", url });
    expect(await at(`http://127.0.0.1:${upstreamPort}/V1/users`)).toEqual(refused(`http://127.0.0.1:${upstreamPort}/V1/users`));
    // Dot segments are resolved before the comparison, as the request will be sent.
    expect(await at(`http://127.0.0.1:${upstreamPort}/v1/../admin`)).toEqual(refused(`http://127.0.0.1:${upstreamPort}/admin`));
    expect(await at(`http://127.0.0.1:${upstreamPort}/v1/%2e%2e/admin`)).toEqual(refused(`http://127.0.0.1:${upstreamPort}/admin`));
    expect(await at(`http://127.0.0.1:${upstreamPort}//v1/users`)).toEqual(refused(`http://127.0.0.1:${upstreamPort}//v1/users`));
    expect(await at(`http://127.0.0.1:${upstreamPort}/v1%2Fusers`)).toEqual(refused(`http://127.0.0.1:${upstreamPort}/v1%2Fusers`));
    // The same place spelt otherwise: upper-case scheme and host, an escaped unreserved character,
    // the address in decimal, a backslash (read as "/").
    for (const url of [
      `HTTP://127.0.0.1:${upstreamPort}/v1/users`,
      `http://127.0.0.1:${upstreamPort}/%76%31/users`,
      `http://2130706433:${upstreamPort}/v1/users`,
      `http://0x7f.0.0.1:${upstreamPort}/v1/users`,
      `http://127.0.0.1:${upstreamPort}/v1\\users`,
    ]) {
      expect([url, (await at(url)).json.status]).toEqual([url, 201]);
    }
  });

  it.each([
    ["an escaped slash before ..", "/v1/a%2F..%2F..%2Fadmin"],
    ["an escaped backslash", "/v1/a%5C..%5Cadmin"],
    ["a double-escaped slash", "/v1/a%252F..%252Fadmin"],
    ["a ;-parameter on ..", "/v1/..;/admin"],
    ["an escaped ..;", "/v1/%2e%2e;x/admin"],
  ])("refuses a path that hides a dot segment (%s)", async (_what, path) => {
    const r = await post({ page: "/api-reference/t/list-users", method: "GET", url: `http://127.0.0.1:${upstreamPort}${path}` });
    expect(r).toEqual({
      status: 403,
      json: {
        error: {
          code: "target_not_allowed",
          message: `http://127.0.0.1:${upstreamPort}${new URL(path, "http://x").pathname} hides a "." or ".." segment in percent-escapes or ";" parameters, which the API could resolve out of its server's path`,
        },
      },
    });
  });

  it("matches servers with variables in the port, a host label and the whole host", async () => {
    const at = (url: string) => post({ page: "/api-reference/t/ping", method: "GET", url });
    // `http://localhost:{port}/v1`: any port of localhost, and localhost is allowed since the server is local.
    expect((await at(`http://localhost:${upstreamPort}/v1/users`)).json.status).toBe(201);
    expect((await at(`http://LOCALHOST:${upstreamPort}/v1/users`)).json.status).toBe(201);
    // `https://{tenant}.api.example.test/v{version}`: a public server; its name resolves to loopback here.
    expect(await at("https://acme.api.example.test/v2/users")).toEqual({
      status: 403,
      json: {
        error: {
          code: "private_address",
          message: "acme.api.example.test does not resolve to a public address; the relay calls loopback, private and other special-purpose addresses only when the spec's server is one",
        },
      },
    });
    const declared = "(http://localhost:{port}/v1, https://{tenant}.api.example.test/v{version}, https://{host}/base)";
    const notUnder = (shown: string) => ({ status: 403, json: { error: { code: "target_not_allowed", message: `${shown} is not under a server declared for /api-reference/t/ping ${declared}` } } });
    expect(await at("https://a.b.api.example.test/v2/users")).toEqual(notUnder("https://a.b.api.example.test/v2/users"));
    expect(await at("https://acme.api.example.test/V2/users")).toEqual(notUnder("https://acme.api.example.test/V2/users"));
    // `https://{host}/base`: one label, so never an IP address; a local name is refused by name.
    expect(await at("https://localhost/base/users")).toEqual({
      status: 403,
      json: { error: { code: "private_address", message: "localhost is a local name; the relay calls loopback, private and other special-purpose addresses only when the spec's server is one" } },
    });
    expect(await at("https://2130706433/base/x")).toEqual(notUnder("https://127.0.0.1/base/x"));
    expect(await at("https://[::1]/base/x")).toEqual(notUnder("https://[::1]/base/x"));
  });

  it("refuses a base64 body that is not base64, and a number JSON cannot carry, naming where in body; the API receives nothing (adversary round 58, F6)", async () => {
    const base = `"page":"/api-reference/t/create-user","method":"POST","url":"${local("/users")}"`;
    const sent = seen.length;
    const refusals: [string, string][] = [
      // Node's decoder sent the first as nothing, the second as "hello".
      ['"body":"%%%","bodyEncoding":"base64"', '"body": not base64 (bodyEncoding is base64): "%" at character 0 is not in its alphabet (A-Z, a-z, 0-9, + and /, with = padding at the end)'],
      ['"body":"aGVsbG8=!!!!garbage","bodyEncoding":"base64"', '"body": not base64 (bodyEncoding is base64): "!" at character 8 is not in its alphabet (A-Z, a-z, 0-9, + and /, with = padding at the end)'],
      ['"body":"aGVs=G8=","bodyEncoding":"base64"', '"body": not base64 (bodyEncoding is base64): "=" at character 4 is padding, which only ends the text (one or two)'],
      ['"body":"aGVsbG8","bodyEncoding":"base64"', '"body": not base64 (bodyEncoding is base64): 7 characters, where base64 comes in groups of 4 (pad the last group with =)'],
      ['"body":"aGVs bG8=","bodyEncoding":"base64"', '"body": not base64 (bodyEncoding is base64): " " at character 4 is not in its alphabet (A-Z, a-z, 0-9, + and /, with = padding at the end)'],
      ['"body":{"name":"Ada"},"bodyEncoding":"base64"', '"body": must be a base64 string when bodyEncoding is base64 (got object)'],
      // Sent as null before: JSON.parse reads 1e999 as Infinity, and JSON.stringify writes that as null.
      ['"body":1e999', '"body": a number out of range (it reads as Infinity, which JSON cannot carry, and would be sent as null); send the body as a string to send it as written'],
      ['"body":{"a":[1,-1e999]}', '"body.a.1": a number out of range (it reads as Infinity, which JSON cannot carry, and would be sent as null); send the body as a string to send it as written'],
      [`"body":${"[".repeat(20)}1e400${"]".repeat(20)}`, `"body.${"0.".repeat(16)}... (20 levels deep)": a number out of range (it reads as Infinity, which JSON cannot carry, and would be sent as null); send the body as a string to send it as written`],
    ];
    const answers = [];
    for (const [fields] of refusals) answers.push(await post(`{${base},${fields}}`));
    expect(answers).toEqual(refusals.map(([, message]) => ({ status: 400, json: { error: { code: "invalid_request", message } } })));
    expect(seen.length).toBe(sent);
    // Real base64 (padded, of any length, empty) and large finite numbers are sent as before.
    const ok = [
      ['"body":"eyJuYW1lIjoiQWRhIn0=","bodyEncoding":"base64","headers":{"content-type":"application/json"}', '{"name":"Ada"}'],
      ['"body":"","bodyEncoding":"base64"', ""],
      ['"body":{"big":1.7976931348623157e308,"small":-5e-324}', '{"big":1.7976931348623157e+308,"small":-5e-324}'],
    ];
    for (const [fields, upstream] of ok) {
      expect((await post(`{${base},${fields}}`)).status).toBe(200);
      expect(seen.at(-1)?.body).toBe(upstream);
    }
  });

  it("refuses a JSON body nested deeper than it can be sent, before parsing it (400, not 500)", async () => {
    const deep = `{"page":"/api-reference/t/create-user","method":"POST","url":"${local("/users")}","body":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const res = await fetch(relayUrl, { method: "POST", headers: { "content-type": "application/json" }, body: deep });
    expect([res.status, await res.json()]).toEqual([400, { error: { code: "invalid_request", message: "the body nests arrays and objects more than 64 levels deep" } }]);
  });

  it("answers a page the caller may not read exactly as one that does not exist, before any playground rule", async () => {
    const body = (page: string) => ({ page, method: "POST", url: local("/users"), body: {} });
    const missing = { status: 404, json: { error: { code: "unknown_page", message: "/nowhere is not an API page of this site" } } };
    expect(await post(body("/nowhere"))).toEqual(missing);
    expect(await post(body("/vault"))).toEqual({ status: 404, json: { error: { code: "unknown_page", message: "/vault is not an API page of this site" } } });
    expect(await post(body("/vault"), { "x-test-groups": "sales" })).toEqual({ status: 404, json: { error: { code: "unknown_page", message: "/vault is not an API page of this site" } } });
    expect((await post(body("/vault"), { "x-test-groups": "staff" })).json.status).toBe(201);
  });

  it("sends only the page's own operation: a staff-only operation is not reached through a public page of its spec", async () => {
    const before = seen.length;
    // The staff page itself does not exist for an anonymous caller...
    expect(await post({ page: "/api-reference/t/wipe-the-vault", method: "DELETE", url: local("/admin/vault") })).toEqual({
      status: 404,
      json: { error: { code: "unknown_page", message: "/api-reference/t/wipe-the-vault is not an API page of this site" } },
    });
    // ...and its request through the public page is refused, before anything is sent.
    expect(await post({ page: "/api-reference/t/public-op", method: "DELETE", url: local("/admin/vault") })).toEqual({
      status: 403,
      json: { error: { code: "not_page_operation", message: "the method DELETE is not the one of /api-reference/t/public-op's operation (GET /pub); the relay sends only the page's own operation" } },
    });
    // The method right, the path the staff operation's: the same answer as a path nobody documents.
    const notThePath = (path: string) => ({
      status: 403,
      json: { error: { code: "not_page_operation", message: `the path ${path} is not the one of /api-reference/t/public-op's operation (GET /pub); the relay sends only the page's own operation` } },
    });
    expect(await post({ page: "/api-reference/t/public-op", method: "GET", url: local("/admin/vault") })).toEqual(notThePath("/admin/vault"));
    expect(await post({ page: "/api-reference/t/public-op", method: "GET", url: local("/admin/nothing") })).toEqual(notThePath("/admin/nothing"));
    // A trailing "/" counts; so does the server's root.
    expect(await post({ page: "/api-reference/t/public-op", method: "GET", url: local("/pub/") })).toEqual(notThePath("/pub/"));
    expect(await post({ page: "/api-reference/t/public-op", method: "GET", url: local("") })).toEqual(notThePath("/"));
    expect(seen.length).toBe(before);
    // Staff may use the staff page.
    expect((await post({ page: "/api-reference/t/wipe-the-vault", method: "DELETE", url: local("/admin/vault") }, { "x-test-groups": "staff" })).json).toMatchObject({ status: 404, body: "not found" });
    expect(seen.at(-1)).toMatchObject({ method: "DELETE", url: "/v1/admin/vault" });
  });

  it("matches the page's path template: each {param} one non-empty segment, the query free, any declared server", async () => {
    const page = "/api-reference/t/door-key";
    const reached = (url: string) => ({ status: 200, statusText: "OK", headers: { "content-type": "application/json", date: expect.any(String) }, contentType: "application/json", kind: "code", body: JSON.stringify({ reached: url }), encoding: "utf8" });
    expect((await post({ page, method: "GET", url: local("/doors/front/keys/k%201?x=1"), query: { y: "2" } })).json).toEqual(reached("/v1/doors/front/keys/k%201?x=1&y=2"));
    // The second server, declared as `/v2/` (read without its trailing "/", as the form joins it).
    expect((await post({ page: "/api-reference/t/public-op", method: "GET", url: `http://127.0.0.1:${upstreamPort}/v2/pub` })).json).toEqual(reached("/v2/pub"));
    const before = seen.length;
    const refused = (message: string) => ({ status: 403, json: { error: { code: "not_page_operation", message: `${message}; the relay sends only the page's own operation` } } });
    const operation = `${page}'s operation (GET /doors/{door}/keys/{key})`;
    expect(await post({ page, method: "POST", url: local("/doors/front/keys/k") })).toEqual(refused(`the method POST is not the one of ${operation}`));
    // Another public operation's path through this page.
    expect(await post({ page, method: "GET", url: local("/pub") })).toEqual(refused(`the path /pub is not the one of ${operation}`));
    for (const path of ["/doors//keys/k", "/doors/front/keys/", "/doors/front/keys/k/", "/doors/front/keys/k/extra", "/doors/a/b/keys/k", "/Doors/front/keys/k"]) {
      expect([path, await post({ page, method: "GET", url: local(path) })]).toEqual([path, refused(`the path ${path} is not the one of ${operation}`)]);
    }
    expect(seen.length).toBe(before);
  });

  it("sends an escaped slash in a {param} as written: one segment, the upstream gets the bytes the caller wrote", async () => {
    const page = "/api-reference/t/read-file";
    const reached = (url: string) => ({ status: 200, statusText: "OK", headers: { "content-type": "application/json", date: expect.any(String) }, contentType: "application/json", kind: "code", body: JSON.stringify({ reached: url }), encoding: "utf8" });
    for (const path of ["/files/a%2Fb.txt", "/files/docs%2Fguides%2Fsetup.md", "/files/a%2fb.txt", "/files/a%5Cb.txt", "/files/a%252Fb.txt"]) {
      expect([path, (await post({ page, method: "GET", url: local(path) })).json]).toEqual([path, reached(`/v1${path}`)]);
      expect(seen.at(-1)?.url).toBe(`/v1${path}`);
    }
    expect((await post({ page: "/api-reference/t/door-key", method: "GET", url: local("/doors/a%2Fb/keys/k%5Cc") })).json).toEqual(reached("/v1/doors/a%2Fb/keys/k%5Cc"));
    expect(seen.at(-1)?.url).toBe("/v1/doors/a%2Fb/keys/k%5Cc");
  });

  it("refuses a path that reaches another operation through a {param}: raw slashes, .., %2e%2e, an escaped or double-escaped slash read as another operation's path", async () => {
    const page = "/api-reference/t/read-file";
    const refused = (path: string) => ({
      status: 403,
      json: { error: { code: "not_page_operation", message: `the path ${path} is not the one of ${page}'s operation (GET /files/{path}); the relay sends only the page's own operation` } },
    });
    const before = seen.length;
    for (const [path, shown] of [
      // Raw slashes: more segments than the template has.
      ["/files/a/b.txt", "/files/a/b.txt"],
      ["/files/a/secret", "/files/a/secret"],
      // Dot segments are resolved as the request would be sent: the staff operation, the public one.
      ["/files/x/../../admin/vault", "/admin/vault"],
      ["/files/%2e%2e/pub", "/pub"],
      ["/files/x/%2E%2E/%2e%2e/admin/vault", "/admin/vault"],
      // One segment as written, the staff operation's path to an API that decodes "%2F" (once, twice, three times) or "%5C".
      ["/files/a%2Fsecret", "/files/a%2Fsecret"],
      ["/files/a%2fsecret", "/files/a%2Fsecret"],
      ["/files/a%5Csecret", "/files/a%5Csecret"],
      ["/files/a%252Fsecret", "/files/a%252Fsecret"],
      ["/files/a%25252Fsecret", "/files/a%25252Fsecret"],
    ] as const) {
      expect([path, await post({ page, method: "GET", url: local(path) })]).toEqual([path, refused(shown)]);
    }
    // The same answer to staff, who may read the operation: the relay sends it through its own page only.
    expect(await post({ page, method: "GET", url: local("/files/a%2Fsecret") }, { "x-test-groups": "staff" })).toEqual(refused("/files/a%2Fsecret"));
    expect(seen.length).toBe(before);
    expect((await post({ page: "/api-reference/t/staff-file", method: "GET", url: local("/files/a/secret") }, { "x-test-groups": "staff" })).json.status).toBe(200);
  });

  it("sends nothing in a webhook page's name: the API sends a webhook", async () => {
    expect(await post({ page: "/api-reference/t/door-opened", method: "POST", url: local("/pub") })).toEqual({
      status: 403,
      json: { error: { code: "not_page_operation", message: "/api-reference/t/door-opened documents a webhook, which the API sends; the relay sends no request in its name" } },
    });
  });

  it("only POST is served: a reverse proxy that allows only GET breaks the playground", async () => {
    const res = await fetch(relayUrl);
    expect(res.status).toBe(404);
  });
});
