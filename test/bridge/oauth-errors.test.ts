import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearerReaderOf } from "../../src/bridge/auth/bearer.js";
import { createBridge } from "../../src/bridge/bridge.js";
import { listen } from "../../src/bridge/http-server.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import {
  type Harness,
  INIT,
  LOOPBACK_REDIRECT,
  TestClock,
  credentialTokens,
  pkce,
  postForm,
  postJson,
  registerClient,
  runCli,
  signIn,
  startBridge,
  userTokens,
} from "./harness.js";

/** Every OAuth error case and token lifecycle by raw HTTP, with an injected clock. */

let h: Harness;
const clock = new TestClock();

beforeAll(async () => {
  h = await startBridge({ authMode: "partial", mcp: "enabled", clock });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
});
afterAll(() => h.close());
// Each test starts at the start of a fresh hour, so per-hour counters never carry over.
beforeEach(() => {
  clock.t = (Math.floor(clock.t / 3_600_000) + 1) * 3_600_000;
});

const oauthError = (error: string, description: string) => ({ error, error_description: description });

/** Status of an MCP request with a bearer token, and its body. */
async function useToken(token: string) {
  const r = await postJson(h.urls.authedMcp, INIT, { Authorization: `Bearer ${token}` });
  return { status: r.status, body: r.body, challenge: r.headers.get("www-authenticate") };
}

describe("discovery", () => {
  it("publishes RFC 9728 protected-resource metadata at the path-inserted and root URLs", async () => {
    const expected = {
      resource: h.urls.resource,
      authorization_servers: [h.urls.issuer],
      scopes_supported: ["mcp:search"],
      bearer_methods_supported: ["header"],
      resource_name: "Nimbus Storage documentation (MCP)",
      resource_documentation: "https://docs.nimbus.example",
    };
    for (const url of [h.urls.protectedResourceMetadata, `${h.origin}/.well-known/oauth-protected-resource`]) {
      const r = await fetch(url);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual(expected);
    }
  });

  it("publishes RFC 8414 authorization-server metadata", async () => {
    const r = await fetch(h.urls.authorizationServerMetadata);
    const methods = ["client_secret_basic", "client_secret_post", "none"];
    expect(await r.json()).toEqual({
      issuer: h.urls.issuer,
      authorization_endpoint: h.urls.authorize,
      token_endpoint: h.urls.token,
      registration_endpoint: h.urls.register,
      revocation_endpoint: h.urls.revoke,
      scopes_supported: ["mcp:search"],
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      token_endpoint_auth_methods_supported: methods,
      revocation_endpoint_auth_methods_supported: methods,
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
    const post = await fetch(h.urls.authorizationServerMetadata, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("challenges a request without a token with WWW-Authenticate naming the metadata (no error code)", async () => {
    const r = await postJson(h.urls.authedMcp, INIT);
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${h.urls.protectedResourceMetadata}", scope="mcp:search"`);
    expect(r.body).toEqual(oauthError("unauthorized", "This endpoint requires an access token: Authorization: Bearer <token>"));
  });

  it("answers a bad token with invalid_token, and a malformed header with 400 invalid_request", async () => {
    const bad = await useToken("mcpat_nope");
    expect(bad.status).toBe(401);
    expect(bad.challenge).toBe(
      `Bearer resource_metadata="${h.urls.protectedResourceMetadata}", scope="mcp:search", error="invalid_token", error_description="The access token is invalid or was revoked"`,
    );
    const malformed = await postJson(h.urls.authedMcp, INIT, { Authorization: "Bearer" });
    expect(malformed).toMatchObject({ status: 400, body: oauthError("invalid_request", "The Authorization header must be: Bearer <token>") });
    const basic = await postJson(h.urls.authedMcp, INIT, { Authorization: "Basic dTpw" });
    expect(basic.status).toBe(401);
  });
});

describe("readers for mounted apps", () => {
  it("resolves the reader of a request's bearer token (anonymous without a valid one)", async () => {
    const readerOf = bearerReaderOf(h.state);
    const t = await userTokens(h, "sam", "sam-password-1");
    const req = (authorization?: string) => new Request(`${h.origin}/_svc/api/request`, { headers: authorization === undefined ? {} : { authorization } });
    expect(await readerOf(req(`Bearer ${t.access_token}`))).toEqual({ authenticated: true, groups: new Set(["staff"]), allGroups: false });
    expect(await readerOf(req())).toBe(ANONYMOUS);
    expect(await readerOf(req("Bearer mcpat_nope"))).toBe(ANONYMOUS);
    expect(await readerOf(req("Basic dTpw"))).toBe(ANONYMOUS);
  });
});

describe("token endpoint: client credentials", () => {
  let id = "";
  let secret = "";
  beforeAll(async () => {
    const c = await h.state.createCredential("errors");
    id = c.info.clientId;
    secret = c.clientSecret;
  });
  const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${encodeURIComponent(user)}:${encodeURIComponent(pass)}`).toString("base64")}`;

  it("issues the spec's token response with the secret in the body or by HTTP Basic", async () => {
    for (const r of [
      await postForm(h.urls.token, { grant_type: "client_credentials", client_id: id, client_secret: secret }),
      await postForm(h.urls.token, { grant_type: "client_credentials", scope: "mcp:search", resource: h.urls.resource }, { Authorization: basic(id, secret) }),
    ]) {
      expect(r.status).toBe(200);
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(r.headers.get("pragma")).toBe("no-cache");
      expect(r.body).toEqual({
        access_token: expect.stringMatching(/^mcpat_[0-9A-Za-z]{40}$/),
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: expect.stringMatching(/^mcprt_[0-9A-Za-z]{40}$/),
        scope: "mcp:search",
      });
    }
  });

  const cases: [string, () => Promise<Awaited<ReturnType<typeof postForm>>>, number, object, string | null][] = [
    [
      "a JSON body",
      async () => {
        const res = await fetch(h.urls.token, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
        return { status: res.status, headers: res.headers, body: await res.json(), text: "" };
      },
      400,
      oauthError("invalid_request", "Content-Type must be application/x-www-form-urlencoded"),
      null,
    ],
    [
      "a repeated parameter",
      async () => {
        const res = await fetch(h.urls.token, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: "grant_type=client_credentials&grant_type=client_credentials",
        });
        return { status: res.status, headers: res.headers, body: await res.json(), text: "" };
      },
      400,
      oauthError("invalid_request", 'parameter "grant_type" is repeated'),
      null,
    ],
    ["no grant_type", () => postForm(h.urls.token, { client_id: "x" }), 400, oauthError("invalid_request", 'parameter "grant_type" is required'), null],
    [
      "an unsupported grant",
      () => postForm(h.urls.token, { grant_type: "password", username: "sam", password: "x" }),
      400,
      oauthError("unsupported_grant_type", 'grant_type "password" is not supported; use authorization_code, refresh_token or client_credentials'),
      null,
    ],
    [
      "no client authentication",
      () => postForm(h.urls.token, { grant_type: "client_credentials" }),
      401,
      oauthError("invalid_client", "client authentication is required (HTTP Basic, or client_id and client_secret)"),
      'Basic realm="svc-mcp"',
    ],
    [
      "a wrong secret in the body",
      () => postForm(h.urls.token, { grant_type: "client_credentials", client_id: id, client_secret: "mcps_wrong" }),
      401,
      oauthError("invalid_client", "unknown client_id or wrong client_secret"),
      null,
    ],
    [
      "a wrong secret by Basic",
      () => postForm(h.urls.token, { grant_type: "client_credentials" }, { Authorization: basic(id, "wrong") }),
      401,
      oauthError("invalid_client", "unknown client_id or wrong client_secret"),
      'Basic realm="svc-mcp"',
    ],
    [
      "a malformed Basic header",
      () => postForm(h.urls.token, { grant_type: "client_credentials" }, { Authorization: "Basic !!!" }),
      401,
      oauthError("invalid_client", "the Basic authorization header is malformed"),
      'Basic realm="svc-mcp"',
    ],
    [
      "both Basic and a body secret",
      () => postForm(h.urls.token, { grant_type: "client_credentials", client_secret: secret }, { Authorization: basic(id, secret) }),
      400,
      oauthError("invalid_request", "use one client authentication method: HTTP Basic or client_secret in the body, not both"),
      null,
    ],
    [
      "an unknown scope",
      () => postForm(h.urls.token, { grant_type: "client_credentials", client_id: id, client_secret: secret, scope: "mcp:search admin" }),
      400,
      oauthError("invalid_scope", 'unknown scope "admin"; the only scope is mcp:search'),
      null,
    ],
    [
      "another resource",
      () => postForm(h.urls.token, { grant_type: "client_credentials", client_id: id, client_secret: secret, resource: "https://other.example/mcp" }),
      400,
      oauthError("invalid_target", "resource must be __resource__ (got https://other.example/mcp)"),
      null,
    ],
  ];
  it.each(cases)("refuses %s", async (_name, send, status, body, challenge) => {
    const r = await send();
    expect(r.status).toBe(status);
    // The resource URL has the test server's port: filled in here.
    expect(r.body).toEqual(JSON.parse(JSON.stringify(body).replace("__resource__", h.urls.resource)));
    expect(r.headers.get("www-authenticate")).toBe(challenge);
  });

  it("refuses client_credentials to a dynamically registered client (registration is open to anyone)", async () => {
    const reg = await postJson(h.urls.register, { redirect_uris: [LOOPBACK_REDIRECT], token_endpoint_auth_method: "client_secret_post" });
    const { client_id, client_secret } = reg.body as { client_id: string; client_secret: string };
    const r = await postForm(h.urls.token, { grant_type: "client_credentials", client_id, client_secret });
    expect(r).toMatchObject({ status: 400, body: oauthError("unauthorized_client", "only client credentials created by the documentation owner may use the client_credentials grant") });
  });

  it("refreshes a credential's tokens only with its secret", async () => {
    const t = await credentialTokens(h, "refresher");
    const noSecret = await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.clientId });
    expect(noSecret).toMatchObject({ status: 401, body: oauthError("invalid_client", "unknown client_id, or the client must authenticate with its client_secret") });
    const ok = await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.clientId, client_secret: t.clientSecret });
    expect(ok.status).toBe(200);
  });
});

describe("token endpoint: authorization code", () => {
  /** A fresh code for sam, with its verifier and client. */
  async function code(redirectUri = LOOPBACK_REDIRECT) {
    const clientId = await registerClient(h);
    const { verifier, challenge } = pkce();
    const login = await signIn(
      h,
      { response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256" },
      "sam",
      "sam-password-1",
    );
    expect(login.status).toBe(302);
    return { clientId, verifier, code: new URL(login.headers.get("location") as string).searchParams.get("code") as string };
  }
  const exchange = (c: { clientId: string; verifier: string; code: string }, extra: Record<string, string> = {}) =>
    postForm(h.urls.token, { grant_type: "authorization_code", code: c.code, redirect_uri: LOOPBACK_REDIRECT, client_id: c.clientId, code_verifier: c.verifier, ...extra });

  it("refuses a missing, malformed or wrong code_verifier", async () => {
    const c = await code();
    const missing = await postForm(h.urls.token, { grant_type: "authorization_code", code: c.code, redirect_uri: LOOPBACK_REDIRECT, client_id: c.clientId });
    expect(missing).toMatchObject({ status: 400, body: oauthError("invalid_request", 'parameter "code_verifier" is required') });
    expect(await exchange(c, { code_verifier: "short" })).toMatchObject({
      status: 400,
      body: oauthError("invalid_request", "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636)"),
    });
    expect(await exchange(c, { code_verifier: pkce().verifier })).toMatchObject({ status: 400, body: oauthError("invalid_grant", "code_verifier does not match the code_challenge") });
    // A failed attempt used the code up: it is single-use. No token was issued, so none is said to be revoked.
    expect(await exchange(c).then(({ status, body }) => ({ status, body }))).toEqual({ status: 400, body: oauthError("invalid_grant", "the authorization code was already presented once, by an attempt that got no token; start the sign-in again") });
  });

  it("revokes the tokens of a code presented twice", async () => {
    const c = await code();
    const first = await exchange(c);
    expect(first.status).toBe(200);
    const { access_token } = first.body as { access_token: string };
    expect((await useToken(access_token)).status).toBe(200);
    expect(await exchange(c)).toMatchObject({ status: 400, body: oauthError("invalid_grant", "the authorization code was already used; the tokens issued for it are revoked") });
    expect((await useToken(access_token)).status).toBe(401);
  });

  it("refuses an expired code (one minute), another client's code, a different redirect_uri and unknown codes", async () => {
    const expired = await code();
    clock.advance(61_000);
    expect(await exchange(expired)).toMatchObject({ status: 400, body: oauthError("invalid_grant", "the authorization code expired; sign in again") });
    const c = await code();
    const other = await registerClient(h);
    expect(await exchange(c, { client_id: other })).toMatchObject({ status: 400, body: oauthError("invalid_grant", "the authorization code was issued to another client") });
    // Another client's attempt used the code up for its own client too.
    expect(await exchange(c).then(({ status, body }) => ({ status, body }))).toEqual({ status: 400, body: oauthError("invalid_grant", "the authorization code was already presented once, by an attempt that got no token; start the sign-in again") });
    const d = await code();
    expect(await exchange(d, { redirect_uri: "http://127.0.0.1:9999/other" })).toMatchObject({
      status: 400,
      body: oauthError("invalid_grant", "redirect_uri differs from the one in the authorization request"),
    });
    expect(await exchange({ ...d, code: "mcpac_unknown" })).toMatchObject({ status: 400, body: oauthError("invalid_grant", "the authorization code is invalid") });
  });

  it("refuses a client credential on the authorization_code grant", async () => {
    const { info, clientSecret } = await h.state.createCredential("wrong grant");
    const r = await postForm(h.urls.token, { grant_type: "authorization_code", code: "x", redirect_uri: LOOPBACK_REDIRECT, client_id: info.clientId, client_secret: clientSecret });
    expect(r).toMatchObject({ status: 400, body: oauthError("unauthorized_client", "client credentials use the client_credentials grant, not authorization_code") });
  });
});

describe("token lifecycle", () => {
  it("expires access tokens after expires_in seconds, exactly", async () => {
    const t = await userTokens(h, "sam", "sam-password-1");
    clock.advance(3599_999);
    expect((await useToken(t.access_token)).status).toBe(200);
    clock.advance(1);
    const r = await useToken(t.access_token);
    expect(r.status).toBe(401);
    expect(r.body).toEqual(oauthError("invalid_token", "The access token expired; use the refresh token to get a new one"));
  });

  it("rotates refresh tokens; reuse of a rotated one revokes the whole grant", async () => {
    const t = await userTokens(h, "sam", "sam-password-1");
    const refreshed = await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.clientId });
    expect(refreshed.status).toBe(200);
    const next = refreshed.body as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(t.refresh_token);
    expect((await useToken(next.access_token)).status).toBe(200);
    const reuse = await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.clientId });
    expect(reuse).toMatchObject({ status: 400, body: oauthError("invalid_grant", "the refresh token was already used; every token of this grant is now revoked") });
    expect((await useToken(next.access_token)).status).toBe(401);
    const after = await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: next.refresh_token, client_id: t.clientId });
    expect(after).toMatchObject({ status: 400, body: oauthError("invalid_grant", "the refresh token is invalid or was revoked") });
  });

  it("refuses an expired refresh token, another client's, and a missing one", async () => {
    const t = await userTokens(h, "sam", "sam-password-1");
    const other = await registerClient(h);
    expect(await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: other })).toMatchObject({
      status: 400,
      body: oauthError("invalid_grant", "the refresh token was issued to another client"),
    });
    expect(await postForm(h.urls.token, { grant_type: "refresh_token", client_id: t.clientId })).toMatchObject({
      status: 400,
      body: oauthError("invalid_request", 'parameter "refresh_token" is required'),
    });
    clock.advance(30 * 24 * 3600 * 1000);
    expect(await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: t.clientId })).toMatchObject({
      status: 400,
      body: oauthError("invalid_grant", "the refresh token expired; sign in again"),
    });
  });

  it("revokes by RFC 7009: an access token alone, a refresh token with its grant; 200 for unknown tokens", async () => {
    const a = await userTokens(h, "sam", "sam-password-1");
    const r1 = await postForm(h.urls.revoke, { token: a.access_token, client_id: a.clientId });
    expect(r1.status).toBe(200);
    expect((await useToken(a.access_token)).status).toBe(401);
    expect((await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: a.refresh_token, client_id: a.clientId })).status).toBe(200);

    const b = await userTokens(h, "sam", "sam-password-1");
    expect((await postForm(h.urls.revoke, { token: b.refresh_token, client_id: b.clientId })).status).toBe(200);
    expect((await useToken(b.access_token)).status).toBe(401);

    expect((await postForm(h.urls.revoke, { token: "mcpat_unknown", client_id: b.clientId })).status).toBe(200);
    const c = await userTokens(h, "sam", "sam-password-1");
    const other = await registerClient(h);
    expect(await postForm(h.urls.revoke, { token: c.access_token, client_id: other })).toMatchObject({
      status: 400,
      body: oauthError("unauthorized_client", "the token was issued to another client"),
    });
    expect((await useToken(c.access_token)).status).toBe(200);
  });

  it("ends a person's tokens when `users remove` runs, even while the server runs", async () => {
    await h.state.addUser("temp", "temp-password-1", ["staff"]);
    const t = await userTokens(h, "temp", "temp-password-1");
    expect((await useToken(t.access_token)).status).toBe(200);
    const r = await runCli(["users", "remove", "temp", "--state", h.stateDir]);
    expect(r).toEqual({ code: 0, stdout: "Removed user temp; their tokens stopped working.\n", stderr: "" });
    expect((await useToken(t.access_token)).status).toBe(401);
  });
});

describe("client registration (RFC 7591)", () => {
  it("registers a public client and echoes its metadata", async () => {
    const r = await postJson(h.urls.register, { redirect_uris: [LOOPBACK_REDIRECT], token_endpoint_auth_method: "none", client_name: "Tool", unknown_field: 1 });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      client_id: expect.stringMatching(/^mcpd_[0-9A-Za-z]{20}$/),
      client_id_issued_at: Math.floor(clock.t / 1000),
      redirect_uris: [LOOPBACK_REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // Not declared: a loopback callback shows a native application (OpenID Connect Registration).
      application_type: "native",
      client_name: "Tool",
    });
  });

  it("reads the metadata in the charset its Content-Type declares, as every JSON body (issue 25)", async () => {
    // Before, the registration body alone was read as UTF-8 whatever it declared: UTF-16 was "not valid JSON".
    const send = (bytes: Uint8Array, type: string) =>
      fetch(h.urls.register, { method: "POST", headers: { "content-type": type }, body: Buffer.from(bytes) }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));
    const utf16 = Buffer.from(JSON.stringify({ redirect_uris: [LOOPBACK_REDIRECT], token_endpoint_auth_method: "none", client_name: "Outil é" }), "utf16le");
    const ok = await send(utf16, "application/json; charset=utf-16le");
    expect(ok).toMatchObject({ status: 201, body: { client_name: "Outil é", redirect_uris: [LOOPBACK_REDIRECT] } });
    expect(await send(utf16, "application/json; charset=shift_jis")).toEqual({
      status: 400,
      body: oauthError("invalid_client_metadata", 'charset "shift_jis" is not supported; send the body as UTF-8 (or UTF-16)'),
    });
    expect(await send(utf16.subarray(1), "application/json; charset=utf-16le")).toEqual({ status: 400, body: oauthError("invalid_client_metadata", "the body is not valid UTF-16") });
  });

  it("gives a confidential client a secret (client_secret_basic is the RFC default)", async () => {
    const r = await postJson(h.urls.register, { redirect_uris: [LOOPBACK_REDIRECT] });
    expect(r.body).toMatchObject({ token_endpoint_auth_method: "client_secret_basic", client_secret: expect.stringMatching(/^mcps_/), client_secret_expires_at: 0 });
  });

  const cases: [string, unknown, string, string][] = [
    ["no redirect_uris", { client_name: "x" }, "invalid_redirect_uri", "redirect_uris: must be an array of URIs"],
    ["an empty redirect_uris", { redirect_uris: [] }, "invalid_redirect_uri", "redirect_uris: must list at least one redirect URI"],
    [
      "an unlisted domain",
      { redirect_uris: ["https://tool.example/cb"] },
      "invalid_redirect_uri",
      `redirect URI "https://tool.example/cb": domain tool.example is not on this documentation's list of redirect domains`,
    ],
    ["a javascript: URI", { redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri", "javascript: redirect URIs are always refused"],
    ["an http non-loopback URI", { redirect_uris: ["http://tool.example/cb"] }, "invalid_redirect_uri", 'redirect URI "http://tool.example/cb" uses http://, which is allowed only for loopback addresses'],
    // Lax spellings a URL parser repairs into a loopback URI: only the canonical form is accepted (issue 25).
    ...(
      [
        ["http:/127.0.0.1/cb", "http://127.0.0.1/cb"],
        ["http://0x7f000001/cb", "http://127.0.0.1/cb"],
        ["http://127.0.0.1\\@evil.example/cb", "http://127.0.0.1/@evil.example/cb"],
        ["http://127.1:3000/cb", "http://127.0.0.1:3000/cb"],
        ["http://[0:0:0:0:0:0:0:1]/cb", "http://[::1]/cb"],
        ["HTTP://LOCALHOST/cb", "http://localhost/cb"],
        ["http://127.0.0.1:80/cb", "http://127.0.0.1/cb"],
        ["http://127.0.0.1/a/../cb", "http://127.0.0.1/cb"],
        ["http://127.0.0.1\\tab/cb", "http://127.0.0.1/tab/cb"],
        [" http://127.0.0.1/cb", "http://127.0.0.1/cb"],
      ] as const
    ).map(([uri, canonical]): [string, unknown, string, string] => [
      `the lax loopback URI ${uri}`,
      { redirect_uris: [uri] },
      "invalid_redirect_uri",
      `redirect URI ${JSON.stringify(uri)} is not written in its standard form; write it as ${canonical}`,
    ]),
    // A stray % the URL serializer keeps as written (adversary round 66).
    ...(["http://127.0.0.1:1/%ZZ", "http://127.0.0.1/cb?x=100%", "http://127.0.0.1/a%2"] as const).map((uri): [string, unknown, string, string] => [
      `the URI ${uri} with a stray %`,
      { redirect_uris: [uri] },
      "invalid_redirect_uri",
      `redirect URI "${uri}" holds a % not followed by two hex digits (RFC 3986 2.1); write a literal % as %25`,
    ]),
    ["the client_credentials grant", { redirect_uris: [LOOPBACK_REDIRECT], grant_types: ["client_credentials"] }, "invalid_client_metadata", "grant_types.0: only authorization_code and refresh_token are allowed"],
    ["an unknown auth method", { redirect_uris: [LOOPBACK_REDIRECT], token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata", "token_endpoint_auth_method: must be none, client_secret_basic or client_secret_post"],
    ["another scope", { redirect_uris: [LOOPBACK_REDIRECT], scope: "admin" }, "invalid_client_metadata", "scope: the only scope is mcp:search"],
    ["an array body", [], "invalid_client_metadata", "the body must be a JSON object"],
    ["invalid JSON", "{", "invalid_client_metadata", `the body is not valid JSON (${jsonMessage("{")})`],
  ];
  it.each(cases)("refuses %s", async (_name, body, error, description) => {
    const r = await postJson(h.urls.register, body);
    expect(r).toMatchObject({ status: 400, body: oauthError(error, description) });
  });

  // A name shown at sign-in that hides or reorders text, and a client page that is a script (adversary round 56, F2).
  const pretence: [string, unknown, string][] = [
    ...(
      [
        ["a right-to-left override", "Claude \u202eedoC", "202E"],
        ["a left-to-right isolate", "Claude \u2066x", "2066"],
        ["a right-to-left mark", "a\u200fb", "200F"],
        ["a zero-width space", "Clau\u200bde", "200B"],
        ["a tag character", "Claude\u{E0041}", "E0041"],
        ["a newline", "Claude\nCode", "000A"],
      ] as const
    ).map(([what, name, code]): [string, unknown, string] => [
      `a client_name holding ${what}`,
      { redirect_uris: [LOOPBACK_REDIRECT], client_name: name },
      `client_name: holds U+${code}, a control or invisible formatting character; a client's name is shown at sign-in as it is written, and such characters can make it read as another name`,
    ]),
    // Half a surrogate pair (adversary round 66).
    ...(
      [
        ["a lone high surrogate", "Claude\ud800", "D800"],
        ["a lone low surrogate", "\udc00Claude", "DC00"],
      ] as const
    ).map(([what, name, code]): [string, unknown, string] => [
      `a client_name holding ${what}`,
      { redirect_uris: [LOOPBACK_REDIRECT], client_name: name },
      `client_name: holds U+${code}, half of a UTF-16 surrogate pair without its other half, which is no character`,
    ]),
    ...(["client_uri", "logo_uri", "policy_uri", "tos_uri"] as const).flatMap((member): [string, unknown, string][] =>
      ["javascript:alert(1)", "data:text/html,x", "//example.com", "ftp://example.com/"].map((uri) => [`${member} ${uri}`, { redirect_uris: [LOOPBACK_REDIRECT], [member]: uri }, `${member}: must be an http or https URL`]),
    ),
  ];
  it.each(pretence)("refuses %s (invalid_client_metadata, the whole body)", async (_name, body, description) => {
    const r = await postJson(h.urls.register, body);
    expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: oauthError("invalid_client_metadata", description) });
  });

  it("takes a name with the joiners scripts and emoji need, and http(s) pages of the client", async () => {
    const name = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \u{1F469}\u200d\u{1F4BB}";
    const r = await postJson(h.urls.register, { redirect_uris: [LOOPBACK_REDIRECT], token_endpoint_auth_method: "none", client_name: name, client_uri: "https://agent.example/", logo_uri: "http://agent.example/logo.png", tos_uri: "https://agent.example/tos" });
    const b = r.body as Record<string, unknown>;
    expect([r.status, b.client_name, b.client_uri, b.logo_uri, b.tos_uri]).toEqual([201, name, "https://agent.example/", "http://agent.example/logo.png", undefined]);
  });

  it("holds redirect URIs to the declared application_type, and records the type the URIs show when none is declared", async () => {
    await runCli(["redirect-domains", "add", "app.example", "--state", h.stateDir]);
    await runCli(["redirect-domains", "add", "myagent://", "--state", h.stateDir]);
    const register = async (body: Record<string, unknown>) => {
      const r = await postJson(h.urls.register, { token_endpoint_auth_method: "none", ...body });
      return r.status === 201 ? { status: 201, application_type: (r.body as { application_type?: string }).application_type } : { status: r.status, body: r.body };
    };
    const web = "https://app.example/oauth/cb";
    const custom = "myagent://oauth/cb";
    expect(await register({ redirect_uris: [web], application_type: "web" })).toEqual({ status: 201, application_type: "web" });
    expect(await register({ redirect_uris: [LOOPBACK_REDIRECT, custom], application_type: "native" })).toEqual({ status: 201, application_type: "native" });
    expect(await register({ redirect_uris: [web, LOOPBACK_REDIRECT], application_type: "web" })).toEqual({
      status: 400,
      body: oauthError(
        "invalid_redirect_uri",
        `redirect_uris.1: a web application's redirect URI must be https on a host that is not loopback ("${LOOPBACK_REDIRECT}"); register loopback and custom-scheme callbacks with application_type "native"`,
      ),
    });
    expect(await register({ redirect_uris: ["http://localhost:3000/cb"], application_type: "web" })).toMatchObject({ status: 400, body: { error: "invalid_redirect_uri" } });
    expect(await register({ redirect_uris: [custom, web], application_type: "native" })).toEqual({
      status: 400,
      body: oauthError(
        "invalid_redirect_uri",
        `redirect_uris.1: a native application's redirect URI must be a loopback URL or a custom scheme ("${web}"); register https callbacks with application_type "web"`,
      ),
    });
    expect(await register({ redirect_uris: [web], application_type: "desktop" })).toEqual({
      status: 400,
      body: oauthError("invalid_client_metadata", 'application_type: must be "web" or "native"'),
    });
    // Not declared: what the URIs show, and nothing for a mix (accepted, as before the rule).
    expect(await register({ redirect_uris: [web] })).toEqual({ status: 201, application_type: "web" });
    expect(await register({ redirect_uris: [custom, "http://[::1]:9/cb"] })).toEqual({ status: 201, application_type: "native" });
    expect(await register({ redirect_uris: [web, LOOPBACK_REDIRECT] })).toEqual({ status: 201, application_type: undefined });
  });

  it("accepts a web tool once its domain is listed, and a custom scheme written in full", async () => {
    expect((await runCli(["redirect-domains", "add", "tool.example", "--state", h.stateDir])).stdout).toBe("Added redirect domain https://tool.example.\n");
    expect((await postJson(h.urls.register, { redirect_uris: ["https://tool.example/cb"], token_endpoint_auth_method: "none" })).status).toBe(201);
    expect((await postJson(h.urls.register, { redirect_uris: ["myapp://callback/done"], token_endpoint_auth_method: "none" })).status).toBe(400);
    await runCli(["redirect-domains", "add", "myapp://callback", "--state", h.stateDir]);
    expect((await postJson(h.urls.register, { redirect_uris: ["myapp://callback/done"], token_endpoint_auth_method: "none" })).status).toBe(201);
  });
});

describe("authorization endpoint and login page", () => {
  let clientId = "";
  const challenge = pkce().challenge;
  const base = () => ({ response_type: "code", client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "s1" });
  const get = async (params: Record<string, string>) => {
    const r = await fetch(`${h.urls.authorize}?${new URLSearchParams(params)}`, { redirect: "manual" });
    return { status: r.status, location: r.headers.get("location"), html: await r.text() };
  };
  beforeAll(async () => {
    clientId = await registerClient(h, [LOOPBACK_REDIRECT], { client_name: "<script>alert(1)</script>" });
  });

  it("shows the login page, escaping what the tool registered", async () => {
    const r = await get(base());
    expect(r.status).toBe(200);
    expect(r.html).toContain("<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong> wants to read the documentation as you.");
    expect(r.html).not.toContain("<script>");
    expect(r.html).toContain(`<input type="hidden" name="code_challenge" value="${challenge}">`);
  });

  it("shows errors on a page (never redirects) while the client or redirect URI is in doubt", async () => {
    const page = (message: string) => expect.stringContaining(`<p class="error" role="alert">${message}</p>`);
    expect(await get({ ...base(), client_id: "" })).toMatchObject({ status: 400, location: null, html: page("The sign-in link is incomplete: client_id is missing.") });
    expect(await get({ ...base(), client_id: "mcpd_unknown" })).toMatchObject({ status: 400, html: page("The tool is not registered here (unknown client_id). It must register again.") });
    expect(await get({ ...base(), redirect_uri: "https://evil.example/cb" })).toMatchObject({
      status: 400,
      location: null,
      html: page("redirect_uri https://evil.example/cb is not one the tool registered."),
    });
    const dup = await fetch(`${h.urls.authorize}?client_id=${clientId}&state=a&state=b`);
    expect(dup.status).toBe(400);
    expect(await dup.text()).toContain("parameter &quot;state&quot; is repeated");
  });

  it("accepts any port on a loopback redirect URI (RFC 8252)", async () => {
    expect((await get({ ...base(), redirect_uri: "http://127.0.0.1:1234/callback" })).status).toBe(200);
  });

  it("stops a tool whose redirect domain the owner removed", async () => {
    await runCli(["redirect-domains", "add", "gone.example", "--state", h.stateDir]);
    const webClient = await registerClient(h, ["https://gone.example/cb"]);
    const params = { ...base(), client_id: webClient, redirect_uri: "https://gone.example/cb" };
    expect((await get(params)).status).toBe(200);
    await runCli(["redirect-domains", "remove", "gone.example", "--state", h.stateDir]);
    const r = await get(params);
    expect(r.status).toBe(400);
    expect(r.html).toContain(
      'This tool cannot sign in: redirect URI &quot;https://gone.example/cb&quot;: domain gone.example is not on this documentation&#39;s list of redirect domains. The documentation owner can add the domain.',
    );
    const login = await signIn(h, params, "sam", "sam-password-1");
    expect(login.status).toBe(400);
    expect(login.headers.get("location")).toBeNull();
  });

  const redirected: [string, Record<string, string>, string, string][] = [
    ["a response_type other than code", { response_type: "token" }, "unsupported_response_type", "response_type must be code"],
    ["no code_challenge", { code_challenge: "" }, "invalid_request", "code_challenge is required (PKCE with S256)"],
    ["the plain PKCE method", { code_challenge_method: "plain" }, "invalid_request", "code_challenge_method must be S256"],
    ["a malformed challenge", { code_challenge: "abc" }, "invalid_request", "code_challenge must be 43 base64url characters (S256)"],
    ["an unknown scope", { scope: "admin" }, "invalid_scope", 'unknown scope "admin"; the only scope is mcp:search'],
    ["another resource", { resource: "https://other.example/mcp" }, "invalid_target", "__resource__"],
  ];
  it.each(redirected)("redirects back to the tool on %s", async (_name, change, error, description) => {
    const r = await get({ ...base(), ...change });
    expect(r.status).toBe(302);
    const to = new URL(r.location as string);
    expect(`${to.origin}${to.pathname}`).toBe(LOOPBACK_REDIRECT);
    expect(Object.fromEntries(to.searchParams)).toEqual({
      error,
      error_description: description === "__resource__" ? `resource must be ${h.urls.resource} (got https://other.example/mcp)` : description,
      state: "s1",
      iss: h.urls.issuer,
    });
  });

  it("returns access_denied when the person cancels", async () => {
    const r = await postForm(h.urls.authorize, { ...base(), action: "deny" });
    expect(r.status).toBe(302);
    expect(Object.fromEntries(new URL(r.headers.get("location") as string).searchParams)).toEqual({
      error: "access_denied",
      error_description: "the person cancelled the sign-in",
      state: "s1",
      iss: h.urls.issuer,
    });
  });

  it("answers a wrong password on the page (401), and a missing one (400)", async () => {
    const wrong = await signIn(h, base(), "sam", "nope-nope");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("location")).toBeNull();
    expect(wrong.text).toContain('<p class="error" role="alert">Wrong user name or password.</p>');
    expect(wrong.text).toContain('name="username" value="sam"');
    const unknown = await signIn(h, base(), "nobody", "nope-nope");
    expect(unknown.status).toBe(401);
    const empty = await signIn(h, base(), "sam", "");
    expect(empty.status).toBe(400);
    expect(empty.text).toContain("Enter your user name and password.");
  });

  it("locks an account after 20 failed sign-ins in an hour, until the next hour", async () => {
    await h.state.addUser("lock", "lock-password-1", []);
    for (let i = 0; i < 20; i++) expect((await signIn(h, base(), "lock", `wrong-${i}`)).status).toBe(401);
    clock.advance(30 * 60 * 1000);
    const locked = await signIn(h, base(), "lock", "lock-password-1");
    expect(locked.status).toBe(429);
    expect(locked.text).toContain("Too many failed sign-ins for this account. Try again in 30 minutes.");
    clock.advance(30 * 60 * 1000);
    expect((await signIn(h, base(), "LOCK", "lock-password-1")).status).toBe(302);
  });

  it("charges each attempt before the password check: of 60 concurrent wrong passwords, exactly 20 are checked", async () => {
    await h.state.addUser("race", "race-password-1", []);
    // The same store, counting the password checks the bridge asks of it.
    let checked = 0;
    const state = new Proxy(h.state, {
      get(target, key) {
        if (key === "verifyUser") {
          return (name: string, password: string) => {
            checked++;
            return target.verifyUser(name, password);
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const bridge = createBridge({ runtime: h.runtime, state, now: clock.now });
    const server = await listen(bridge, { host: "127.0.0.1", port: 0 });
    try {
      const authorize = `${server.origin}/authed/mcp/oauth/authorize`;
      const attempt = (password: string) => postForm(authorize, { ...base(), username: "race", password, action: "login" });
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => attempt(`wrong-${i}`)));
      const count = (status: number, text: string) => answers.filter((a) => a.status === status && a.text.includes(text)).length;
      expect([count(401, "Wrong user name or password."), count(429, "Too many failed sign-ins for this account. Try again in 60 minutes.")]).toEqual([20, 40]);
      expect(checked).toBe(20);
      // Locked: the right password is not even checked until the next hour.
      expect((await attempt("race-password-1")).status).toBe(429);
      expect(checked).toBe(20);
      clock.advance(60 * 60 * 1000);
      expect((await attempt("race-password-1")).status).toBe(302);
    } finally {
      await server.close();
    }
  });

  it("counts only failures: a successful sign-in gives back the attempt it took", async () => {
    await h.state.addUser("mixed", "mixed-password-1", []);
    for (let i = 0; i < 19; i++) expect((await signIn(h, base(), "mixed", `wrong-${i}`)).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await signIn(h, base(), "mixed", "mixed-password-1")).status).toBe(302);
    expect((await signIn(h, base(), "mixed", "wrong-19")).status).toBe(401);
    expect((await signIn(h, base(), "mixed", "mixed-password-1")).status).toBe(429);
  });

  it("sends a custom-scheme tool back to its scheme", async () => {
    await runCli(["redirect-domains", "add", "cursor://anysphere.cursor-mcp", "--state", h.stateDir]);
    const appClient = await registerClient(h, ["cursor://anysphere.cursor-mcp/oauth/callback"]);
    const r = await signIn(h, { ...base(), client_id: appClient, redirect_uri: "cursor://anysphere.cursor-mcp/oauth/callback" }, "sam", "sam-password-1");
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toMatch(/^cursor:\/\/anysphere\.cursor-mcp\/oauth\/callback\?code=mcpac_[0-9A-Za-z]{32}&state=s1&iss=/);
  });
});

function jsonMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}
