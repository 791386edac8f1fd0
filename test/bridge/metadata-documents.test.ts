import { readFileSync } from "node:fs";
import { type IncomingMessage, type ServerResponse } from "node:http";
import { type Server, createServer } from "node:https";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { join } from "node:path";
import { connect } from "node:tls";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Dial, documentFetcher, freshness } from "../../src/bridge/auth/metadata-document-fetch.js";
import { escapeHtml } from "../../src/bridge/auth/login-page.js";
import type { LookupAll } from "../../src/bridge/playground/relay.js";
import { fixture } from "../helpers/paths.js";
import { FS, type Harness, LOOPBACK_REDIRECT, TestClock, ToolProvider, pkce, postForm, runCli, signIn, startBridge } from "./harness.js";
import { TestClient } from "../helpers/test-client.js";

/**
 * Client ID Metadata Documents against the real bridge: the documents are served over https
 * from a loopback server with a self-signed certificate for `client.test`. The fetcher is the
 * production one; the test injects only DNS (names to addresses) and the TLS connection (the
 * public address `client.test` resolves to is reached on loopback, trusting the test
 * certificate): the address policy runs on every address, unchanged.
 */

const CERT = readFileSync(join(fixture("tls"), "client-test.crt"));
const KEY = readFileSync(join(fixture("tls"), "client-test.key"));
/** What `client.test` resolves to: a global unicast address, so the policy lets it through. */
const PUBLIC_ADDRESS = "93.184.216.34";
const UNREACHABLE_V6 = "2606:2800:220:1:248:1893:25c8:1946";

const NAMES: Readonly<Record<string, readonly { address: string; family: number }[]>> = {
  "client.test": [{ address: PUBLIC_ADDRESS, family: 4 }],
  "intranet.test": [{ address: "10.1.2.3", family: 4 }],
  "rebind.test": [
    { address: PUBLIC_ADDRESS, family: 4 },
    { address: "127.0.0.1", family: 4 },
  ],
  "mapped.test": [{ address: "::ffff:169.254.169.254", family: 6 }],
  // An IPv6 address this machine cannot reach first (a closed port stands in for it), then the IPv4 one.
  "dual.client.test": [
    { address: UNREACHABLE_V6, family: 6 },
    { address: PUBLIC_ADDRESS, family: 4 },
  ],
};
const lookup: LookupAll = async (hostname) => {
  const found = NAMES[hostname];
  if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return found;
};

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The client's web server: a handler per path, and how often each path was fetched. */
class DocumentServer {
  readonly routes = new Map<string, Handler>();
  readonly hits = new Map<string, number>();
  readonly server: Server;
  port = 0;
  closedPort = 0;

  constructor() {
    this.server = createServer({ key: KEY, cert: CERT }, (req, res) => {
      const path = req.url ?? "/";
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const handler = this.routes.get(path);
      if (handler === undefined) {
        res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
        return;
      }
      handler(req, res);
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    this.closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  }

  /** Serve `body` (JSON unless a string) at `path`, with extra headers. */
  json(path: string, body: unknown, headers: Record<string, string> = {}): string {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    this.routes.set(path, (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)), ...headers }).end(text);
    });
    return `https://client.test${path}`;
  }

  /**
   * Reaches this server for the public address only, trusting the test certificate (or not);
   * the unreachable IPv6 address is a loopback port nothing listens on.
   */
  dial(trust = true): Dial {
    return ({ address, servername }) => {
      if (address === UNREACHABLE_V6) return connect({ host: "127.0.0.1", port: this.closedPort, servername });
      if (address !== PUBLIC_ADDRESS) throw new Error(`the policy let ${address} through`);
      return connect({ host: "127.0.0.1", port: this.port, servername, ...(trust ? { ca: CERT } : {}) });
    };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A document as a client publishes it at `https://client.test<path>`. */
function documentFor(path: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    client_id: `https://client.test${path}`,
    client_name: "Example Agent",
    client_uri: "https://client.test",
    redirect_uris: [LOOPBACK_REDIRECT, "http://localhost:3000/callback"],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...extra,
  };
}

const docs = new DocumentServer();
const clock = new TestClock();
let h: Harness;

beforeAll(async () => {
  await docs.start();
  h = await startBridge({ authMode: "partial", mcp: "enabled", clock, bridge: { clientMetadata: { lookup, dial: docs.dial() } } });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
});
afterAll(async () => {
  await h.close();
  await docs.close();
});
// Each test starts at a fresh hour (per-hour counters) and far past any cached document.
beforeEach(() => {
  clock.t = (Math.floor(clock.t / 3_600_000) + 48) * 3_600_000;
});

const challenge = pkce().challenge;
const authorizeParams = (clientId: string, redirectUri = LOOPBACK_REDIRECT) => ({
  response_type: "code",
  client_id: clientId,
  redirect_uri: redirectUri,
  code_challenge: challenge,
  code_challenge_method: "S256",
  state: "s1",
});
async function authorize(clientId: string, redirectUri?: string) {
  const r = await fetch(`${h.urls.authorize}?${new URLSearchParams(authorizeParams(clientId, redirectUri))}`, { redirect: "manual" });
  return { status: r.status, location: r.headers.get("location"), html: await r.text() };
}
/** The error the sign-in page shows for a document that cannot be used. */
const refused = (clientId: string, reason: string) => ({
  status: 400,
  location: null,
  html: expect.stringContaining(`<p class="error" role="alert">${escapeHtml(`This tool cannot sign in: the client metadata document ${clientId} cannot be used: ${reason}.`)}</p>`),
});

describe("a client named by its metadata document", () => {
  it("signs a person in: the page names the client, the code is exchanged with the URL alone, the token works", async () => {
    const id = docs.json("/oauth/agent.json", documentFor("/oauth/agent.json"));
    const page = await authorize(id);
    expect(page.status).toBe(200);
    expect(page.html).toContain("<strong>Example Agent</strong> wants to read the documentation as you. After signing in you return to <strong>127.0.0.1:8976</strong>.");
    expect(page.html).toContain(
      '<p class="notice">It returns to a program on this computer (127.0.0.1:8976). Its description comes from client.test. Continue only if you started this sign-in yourself.</p>',
    );

    const { verifier, challenge: c } = pkce();
    const login = await signIn(h, { ...authorizeParams(id), code_challenge: c }, "sam", "sam-password-1");
    expect(login.status).toBe(302);
    const back = new URL(login.headers.get("location") as string);
    expect(Object.fromEntries(back.searchParams)).toEqual({ code: expect.stringMatching(/^mcpac_/), state: "s1", iss: h.urls.issuer });

    const token = await postForm(h.urls.token, {
      grant_type: "authorization_code",
      code: back.searchParams.get("code") as string,
      redirect_uri: LOOPBACK_REDIRECT,
      client_id: id,
      code_verifier: verifier,
    });
    expect(token).toMatchObject({ status: 200, body: { token_type: "Bearer", scope: "mcp:search", expires_in: 3600 } });
    const { access_token, refresh_token } = token.body as { access_token: string; refresh_token: string };
    const mcp = await fetch(h.urls.authedMcp, {
      method: "POST",
      headers: { Authorization: `Bearer ${access_token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    expect(mcp.status).toBe(200);
    const refreshed = await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token, client_id: id });
    expect(refreshed.status).toBe(200);
    // The document was fetched once: the page, the sign-in and both token requests used the cache.
    expect(docs.hits.get("/oauth/agent.json")).toBe(1);
  });

  it("accepts any port on the document's loopback redirect URIs, localhost included (RFC 8252 7.3)", async () => {
    const id = docs.json("/oauth/ports.json", documentFor("/oauth/ports.json", { redirect_uris: [LOOPBACK_REDIRECT, "http://localhost:3000/callback", "http://[::1]/callback"] }));
    expect((await authorize(id, "http://127.0.0.1:49152/callback")).status).toBe(200);
    expect((await authorize(id, "http://localhost:61000/callback")).status).toBe(200);
    expect((await authorize(id, "http://[::1]:40000/callback")).status).toBe(200);
    // Any port, nothing else: not another loopback host, not another path.
    expect(await authorize(id, "http://127.0.0.2:8976/callback")).toMatchObject({ status: 400 });
    expect(await authorize(id, "http://[::1]:8976/other")).toMatchObject({ status: 400 });
    expect(await authorize(id, "http://127.0.0.1:49152/other")).toMatchObject({
      status: 400,
      html: expect.stringContaining("redirect_uri http://127.0.0.1:49152/other is not one the tool registered."),
    });
  });

  it("is refused a secret at the token endpoint (a document's client has none), without a fetch", async () => {
    const id = "https://client.test/oauth/never-fetched.json";
    const r = await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: "mcprt_x", client_id: id, client_secret: "mcps_guess" });
    expect(r).toMatchObject({ status: 401, body: { error: "invalid_client", error_description: "unknown client_id or wrong client_secret" } });
    expect(docs.hits.get("/oauth/never-fetched.json")).toBeUndefined();
  });

  it("answers the token endpoint with invalid_client when the document has become unusable", async () => {
    const id = docs.json("/oauth/changing.json", documentFor("/oauth/changing.json"), { "Cache-Control": "max-age=60" });
    const { verifier, challenge: c } = pkce();
    const login = await signIn(h, { ...authorizeParams(id), code_challenge: c }, "sam", "sam-password-1");
    const code = new URL(login.headers.get("location") as string).searchParams.get("code") as string;
    docs.json("/oauth/changing.json", documentFor("/oauth/changing.json", { client_id: "https://client.test/oauth/other.json" }));
    clock.advance(61_000);
    const r = await postForm(h.urls.token, { grant_type: "authorization_code", code, redirect_uri: LOOPBACK_REDIRECT, client_id: id, code_verifier: verifier });
    expect(r).toMatchObject({
      status: 401,
      body: {
        error: "invalid_client",
        error_description: `the client metadata document ${id} cannot be used: its client_id ("https://client.test/oauth/other.json") is not the URL it was fetched from`,
      },
    });
    expect(r.headers.get("www-authenticate")).toBeNull();
  });

  it("completes the MCP SDK client's own CIMD flow (no registration request)", async () => {
    const id = docs.json("/oauth/sdk.json", documentFor("/oauth/sdk.json", { client_name: "SDK test tool" }));
    const provider = new ToolProvider(id);
    const first = new StreamableHTTPClientTransport(new URL(h.urls.authedMcp), { authProvider: provider });
    await expect(new TestClient({ name: "tool", version: "1" }).connect(first)).rejects.toThrow(UnauthorizedError);
    const url = provider.authorizationUrl as URL;
    expect(url.searchParams.get("client_id")).toBe(id);
    const login = await postForm(h.urls.authorize, { ...Object.fromEntries(url.searchParams), username: "sam", password: "sam-password-1", action: "login" });
    expect(login.status).toBe(302);
    await first.finishAuth(new URL(login.headers.get("location") as string).searchParams.get("code") as string);
    const client = new TestClient({ name: "tool", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.urls.authedMcp), { authProvider: provider }));
    const r = await client.callTool({ name: FS, arguments: { command: "ls /" } });
    expect((r.content as { text: string }[])[0]?.text).toBe("api\nguides\nindex.mdx\ninternal\npartners\nquickstart.mdx\nskill.md\n");
    await client.close();
  });
});

describe("caching", () => {
  /** Sign-in pages shown for `id`, and how often its document was fetched after each. */
  async function fetchesAfter(id: string, path: string, steps: readonly number[]): Promise<number[]> {
    const counts: number[] = [];
    for (const ms of steps) {
      clock.advance(ms);
      expect((await authorize(id)).status).toBe(200);
      counts.push(docs.hits.get(path) ?? 0);
    }
    return counts;
  }

  it("reuses a document for its max-age, then fetches it again", async () => {
    const id = docs.json("/c/max-age.json", documentFor("/c/max-age.json"), { "Cache-Control": "public, max-age=120" });
    expect(await fetchesAfter(id, "/c/max-age.json", [0, 119_999, 1])).toEqual([1, 1, 2]);
  });

  it("counts the Age the answer already has", async () => {
    const id = docs.json("/c/age.json", documentFor("/c/age.json"), { "Cache-Control": "max-age=120", Age: "100" });
    expect(await fetchesAfter(id, "/c/age.json", [0, 19_999, 1])).toEqual([1, 1, 2]);
  });

  it("fetches at each use what says no-store or no-cache", async () => {
    const a = docs.json("/c/no-store.json", documentFor("/c/no-store.json"), { "Cache-Control": "no-store" });
    expect(await fetchesAfter(a, "/c/no-store.json", [0, 0, 0])).toEqual([1, 2, 3]);
    const b = docs.json("/c/no-cache.json", documentFor("/c/no-cache.json"), { "Cache-Control": "no-cache" });
    expect(await fetchesAfter(b, "/c/no-cache.json", [0, 0])).toEqual([1, 2]);
  });

  it("keeps a document that says nothing for 5 minutes, and none longer than a day", async () => {
    const a = docs.json("/c/silent.json", documentFor("/c/silent.json"));
    expect(await fetchesAfter(a, "/c/silent.json", [0, 299_999, 1])).toEqual([1, 1, 2]);
    const b = docs.json("/c/year.json", documentFor("/c/year.json"), { "Cache-Control": "max-age=31536000" });
    expect(await fetchesAfter(b, "/c/year.json", [0, 86_399_999, 1])).toEqual([1, 1, 2]);
  });

  it("does not keep a failure: a fixed document works at once", async () => {
    const id = docs.json("/c/fixed.json", documentFor("/c/fixed.json", { redirect_uris: [] }));
    expect(await authorize(id)).toEqual(refused(id, "redirect_uris: must list at least one redirect URI"));
    docs.json("/c/fixed.json", documentFor("/c/fixed.json"));
    expect((await authorize(id)).status).toBe(200);
  });
});

describe("refusals", () => {
  const bad = (name: string) => `https://client.test/bad/${name}.json`;
  const serve = (name: string, extra: Record<string, unknown>) => docs.json(`/bad/${name}.json`, documentFor(`/bad/${name}.json`, extra));

  const urlCases: [string, string, string][] = [
    ["an http URL", "http://client.test/oauth/agent.json", "a client_id URL must use https"],
    ["a URL without a path", "https://client.test", "a client_id URL must have a path (the document's own, such as /oauth/client.json)"],
    ["a URL of the root", "https://client.test/", "a client_id URL must have a path (the document's own, such as /oauth/client.json)"],
    ["a dot segment", "https://client.test/oauth/../agent.json", "a client_id URL must not contain . or .. path segments"],
    ["an escaped dot segment", "https://client.test/oauth/%2e%2E/agent.json", "a client_id URL must not contain . or .. path segments"],
    ["a fragment", "https://client.test/oauth/agent.json#x", "a client_id URL must not contain a fragment"],
    ["user info", "https://user:pw@client.test/oauth/agent.json", "a client_id URL must not contain a user name or password"],
    ["something that is not a URL", "urn:example:agent", "a client_id URL must use https"],
    ["a loopback address in another notation", "https://0x7f000001/agent.json", "cannot fetch it: 127.0.0.1 is a loopback address; documents are fetched only from public addresses"],
    ["a local name with a trailing dot", "https://api.localhost./agent.json", "cannot fetch it: api.localhost. is a local name; documents are fetched only from public addresses"],
    ["a loopback address", "https://127.0.0.1/agent.json", "cannot fetch it: 127.0.0.1 is a loopback address; documents are fetched only from public addresses"],
    ["a private IPv6 address", "https://[fd00::1]/agent.json", "cannot fetch it: [fd00::1] is a unique-local address; documents are fetched only from public addresses"],
    ["localhost", "https://localhost/agent.json", "cannot fetch it: localhost is a local name; documents are fetched only from public addresses"],
    ["a name of a private address", "https://intranet.test/agent.json", "cannot fetch it: intranet.test does not resolve to a public address; documents are fetched only from public addresses"],
    [
      "a name with one loopback address among public ones",
      "https://rebind.test/agent.json",
      "cannot fetch it: rebind.test does not resolve to a public address; documents are fetched only from public addresses",
    ],
    [
      "a name of cloud metadata in IPv6 form",
      "https://mapped.test/agent.json",
      "cannot fetch it: mapped.test does not resolve to a public address; documents are fetched only from public addresses",
    ],
    ["a name that does not resolve", "https://nowhere.test/agent.json", "cannot fetch it: nowhere.test does not resolve to a public address; documents are fetched only from public addresses"],
  ];
  it.each(urlCases)("refuses %s", async (_name, id, reason) => {
    expect(await authorize(id)).toEqual(refused(id, reason));
  });

  it("refuses a redirect without following it", async () => {
    docs.json("/bad/target.json", documentFor("/bad/moved.json"));
    docs.routes.set("/bad/moved.json", (_req, res) => res.writeHead(302, { Location: "https://client.test/bad/target.json" }).end());
    expect(await authorize(bad("moved"))).toEqual(refused(bad("moved"), "cannot fetch it: it answered 302 (a redirect to https://client.test/bad/target.json); redirects are not followed"));
    expect(docs.hits.get("/bad/target.json")).toBeUndefined();
  });

  it("refuses other statuses, types and bodies that are not a JSON object", async () => {
    expect(await authorize(bad("missing"))).toEqual(refused(bad("missing"), "cannot fetch it: it answered 404, not 200"));
    docs.routes.set("/bad/html.json", (_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<p>hi</p>"));
    expect(await authorize(bad("html"))).toEqual(refused(bad("html"), 'cannot fetch it: its Content-Type is "text/html", not application/json'));
    docs.json("/bad/broken.json", "{");
    expect(await authorize(bad("broken"))).toEqual(refused(bad("broken"), "it is not valid JSON"));
    docs.json("/bad/array.json", []);
    expect(await authorize(bad("array"))).toEqual(refused(bad("array"), "it is not a JSON object"));
    docs.routes.set("/bad/typed.json", (_req, res) => res.writeHead(200, { "Content-Type": "application/vnd.example+json; charset=utf-8" }).end(JSON.stringify(documentFor("/bad/typed.json"))));
    expect((await authorize(bad("typed"))).status).toBe(200);
  });

  it("refuses a document over 5 KiB, declared or streamed", async () => {
    docs.json("/bad/large.json", documentFor("/bad/large.json", { padding: "x".repeat(6000) }));
    expect(await authorize(bad("large"))).toEqual(refused(bad("large"), "cannot fetch it: it is 6327 bytes; at most 5120 are read"));
    docs.routes.set("/bad/stream.json", (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      for (let i = 0; i < 6; i++) res.write(" ".repeat(1024));
      res.end("{}");
    });
    expect(await authorize(bad("stream"))).toEqual(refused(bad("stream"), "cannot fetch it: it is over 5120 bytes; at most 5120 are read"));
  });

  const documentCases: [string, Record<string, unknown>, string][] = [
    ["a client_id that is not its URL", { client_id: "https://client.test/other.json" }, 'its client_id ("https://client.test/other.json") is not the URL it was fetched from'],
    ["no client_id", { client_id: undefined }, "its client_id (null) is not the URL it was fetched from"],
    ["no client_name", { client_name: undefined }, "client_name: must be a string"],
    ["no redirect_uris", { redirect_uris: undefined }, "redirect_uris: must be an array of URIs"],
    ["a client_secret", { client_secret: "s3cret" }, "it must not contain client_secret or client_secret_expires_at"],
    ["a shared-secret auth method", { token_endpoint_auth_method: "client_secret_basic" }, "token_endpoint_auth_method client_secret_basic needs a shared secret, which a metadata document cannot carry; use none"],
    ["private_key_jwt", { token_endpoint_auth_method: "private_key_jwt" }, "token_endpoint_auth_method private_key_jwt is not supported here; use none (the sign-in is bound by PKCE)"],
    ["another auth method", { token_endpoint_auth_method: "tls_client_auth" }, "token_endpoint_auth_method: must be none"],
    ["the client_credentials grant", { grant_types: ["client_credentials"] }, "grant_types.0: only authorization_code and refresh_token are allowed"],
    ["an http redirect URI off loopback", { redirect_uris: ["http://tool.example/cb"] }, 'redirect URI "http://tool.example/cb" uses http://, which is allowed only for loopback addresses'],
    ["a javascript: redirect URI", { redirect_uris: [LOOPBACK_REDIRECT, "javascript:alert(1)"] }, "javascript: redirect URIs are always refused"],
    ["a lax loopback redirect URI", { redirect_uris: ["http://0x7f000001/cb"] }, 'redirect URI "http://0x7f000001/cb" is not written in its standard form; write it as http://127.0.0.1/cb'],
    ["another scope", { scope: "admin" }, "scope: the only scope is mcp:search"],
  ];
  it.each(documentCases)("refuses a document with %s", async (_name, extra, reason) => {
    const name = _name.replace(/\W+/g, "-");
    const id = serve(name, extra);
    expect(await authorize(id)).toEqual(refused(id, reason));
  });

  it("sends nobody to a redirect URI outside the redirect-domain rules, and accepts it once the owner adds the domain", async () => {
    const id = serve("web", { redirect_uris: ["https://agent.example/oauth/callback"] });
    const r = await authorize(id, "https://agent.example/oauth/callback");
    expect(r).toMatchObject({ status: 400, location: null });
    expect(r.html).toContain(
      escapeHtml('This tool cannot sign in: redirect URI "https://agent.example/oauth/callback": domain agent.example is not on this documentation\'s list of redirect domains. The documentation owner can add the domain.'),
    );
    await runCli(["redirect-domains", "add", "agent.example", "--state", h.stateDir]);
    const ok = await authorize(id, "https://agent.example/oauth/callback");
    expect(ok.status).toBe(200);
    expect(ok.html).toContain('<p class="notice">Its description comes from client.test.</p>');
    await runCli(["redirect-domains", "remove", "agent.example", "--state", h.stateDir]);
  });
});

describe("the fetcher", () => {
  it("stops at its deadline when the server never answers", async () => {
    docs.routes.set("/slow.json", () => {});
    const fetchDoc = documentFetcher({ lookup, dial: docs.dial(), timeoutMs: 200, userAgent: "test" });
    await expect(fetchDoc(new URL("https://client.test/slow.json"))).rejects.toThrow("client.test did not answer within 200 ms");
  });

  it("trusts only what the system trusts: a self-signed certificate is refused", async () => {
    docs.json("/trusted.json", documentFor("/trusted.json"));
    const fetchDoc = documentFetcher({ lookup, dial: docs.dial(false), userAgent: "test" });
    await expect(fetchDoc(new URL("https://client.test/trusted.json"))).rejects.toThrow("cannot reach client.test (DEPTH_ZERO_SELF_SIGNED_CERT)");
  });

  it("tries each checked address in turn", async () => {
    docs.json("/dual.json", { ok: true });
    const fetchDoc = documentFetcher({ lookup, dial: docs.dial(), userAgent: "test" });
    expect(await fetchDoc(new URL("https://dual.client.test/dual.json"))).toEqual({ text: '{"ok":true}', freshForMs: undefined });
    const none = documentFetcher({ lookup: async () => [{ address: UNREACHABLE_V6, family: 6 }], dial: docs.dial(), userAgent: "test" });
    await expect(none(new URL("https://dual.client.test/dual.json"))).rejects.toThrow("cannot reach dual.client.test (ECONNREFUSED)");
  });

  it("sends Accept and its User-Agent, and nothing of the person's", async () => {
    let seen: Record<string, string | string[] | undefined> = {};
    docs.routes.set("/headers.json", (req, res) => {
      seen = req.headers;
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
    const fetchDoc = documentFetcher({ lookup, dial: docs.dial(), userAgent: "svc-mcp/test" });
    expect(await fetchDoc(new URL("https://client.test/headers.json"))).toEqual({ text: "{}", freshForMs: undefined });
    expect(seen).toEqual({ accept: "application/json", "user-agent": "svc-mcp/test", host: "client.test", connection: "close" });
  });

  const cacheHeaders: [Record<string, string>, number | undefined][] = [
    [{}, undefined],
    [{ "cache-control": "max-age=60" }, 60_000],
    [{ "cache-control": "private, max-age=60", age: "15" }, 45_000],
    [{ "cache-control": "max-age=60", age: "90" }, 0],
    [{ "cache-control": "max-age=60, no-cache" }, 0],
    [{ "cache-control": "no-store" }, 0],
    [{ "cache-control": 'max-age="30"' }, 30_000],
    [{ "cache-control": "max-age=soon" }, undefined],
    [{ expires: "Thu, 01 Jan 2030 00:10:00 GMT", date: "Thu, 01 Jan 2030 00:00:00 GMT" }, 600_000],
    [{ expires: "0", date: "Thu, 01 Jan 2030 00:00:00 GMT" }, 0],
    [{ expires: "Thu, 01 Jan 2030 00:10:00 GMT" }, undefined],
    [{ "cache-control": "max-age=5", expires: "Thu, 01 Jan 2030 00:10:00 GMT", date: "Thu, 01 Jan 2030 00:00:00 GMT" }, 5_000],
  ];
  it.each(cacheHeaders)("reads freshness from %j as %s ms", (headers, ms) => {
    expect(freshness(headers)).toBe(ms);
  });
});
