import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FS, type Harness, LOOPBACK_REDIRECT, TestClock, ToolProvider, mcpClient, postForm, startBridge } from "./harness.js";
import { TestClient } from "../helpers/test-client.js";

/** Both OAuth flows driven by the MCP SDK client's own OAuth support, against the real server. */

let h: Harness;
const clock = new TestClock();

beforeAll(async () => {
  h = await startBridge({ authMode: "partial", mcp: "enabled", clock });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
});
afterAll(() => h.close());

describe("authorization code with PKCE (a person signs in)", () => {
  it("discovers, registers, signs in on the login page, returns to the tool, refreshes", async () => {
    const provider = new ToolProvider();
    const first = new StreamableHTTPClientTransport(new URL(h.urls.authedMcp), { authProvider: provider });
    await expect(new TestClient({ name: "tool", version: "1" }).connect(first)).rejects.toThrow(UnauthorizedError);

    // The SDK discovered our metadata, registered itself and sent the person to our login page.
    const url = provider.authorizationUrl as URL;
    expect(`${url.origin}${url.pathname}`).toBe(h.urls.authorize);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: (provider.info as { client_id: string }).client_id,
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: "S256",
      redirect_uri: LOOPBACK_REDIRECT,
      state: "state-123",
      scope: "mcp:search",
      resource: h.urls.resource,
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
    const html = await page.text();
    expect(html).toContain("<h1>Sign in to Nimbus Storage docs</h1>");
    expect(html).toContain("<strong>SDK test tool</strong> wants to read the documentation as you. After signing in you return to <strong>127.0.0.1:8976</strong>.");
    // Any program on the computer can listen on a loopback port and call itself anything.
    expect(html).toContain('<p class="notice">It returns to a program on this computer (127.0.0.1:8976). Continue only if you started this sign-in yourself.</p>');

    // The person submits the form; the browser follows the redirect back to the tool.
    const login = await postForm(h.urls.authorize, { ...Object.fromEntries(url.searchParams), username: "Sam", password: "sam-password-1", action: "login" });
    expect(login.status).toBe(302);
    const back = new URL(login.headers.get("location") as string);
    expect(`${back.origin}${back.pathname}`).toBe(LOOPBACK_REDIRECT);
    expect(back.searchParams.get("state")).toBe("state-123");
    expect(back.searchParams.get("iss")).toBe(h.urls.issuer);
    await first.finishAuth(back.searchParams.get("code") as string);
    expect(provider.saved).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "mcp:search" });

    const client = new TestClient({ name: "tool", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.urls.authedMcp), { authProvider: provider }));
    const ls = async () => ((await client.callTool({ name: FS, arguments: { command: "ls /" } })).content as { text: string }[])[0]?.text;
    expect(await ls()).toBe("api\nguides\nindex.mdx\ninternal\npartners\nquickstart.mdx\nskill.md\n");

    // An hour later the access token has expired: the SDK refreshes (rotating) and retries.
    const before = provider.saved as OAuthTokens;
    clock.advance(3601 * 1000);
    expect(await ls()).toBe("api\nguides\nindex.mdx\ninternal\npartners\nquickstart.mdx\nskill.md\n");
    const after = provider.saved as OAuthTokens;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // The rotated refresh token no longer works, and presenting it revokes the grant.
    const reuse = await postForm(h.urls.token, { grant_type: "refresh_token", refresh_token: before.refresh_token as string, client_id: (provider.info as { client_id: string }).client_id });
    expect(reuse).toMatchObject({ status: 400, body: { error: "invalid_grant", error_description: "the refresh token was already used; every token of this grant is now revoked" } });
    await expect(client.callTool({ name: FS, arguments: { command: "ls /" } })).rejects.toThrow();
    await client.close();
  });
});

describe("client credentials (a machine)", () => {
  it("exchanges the credential for tokens through the SDK and reads every page", async () => {
    const { info, clientSecret } = await h.state.createCredential("SDK bot");
    const provider = new ClientCredentialsProvider({ clientId: info.clientId, clientSecret });
    const client = new TestClient({ name: "bot", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.urls.authedMcp), { authProvider: provider }));
    const r = await client.callTool({ name: FS, arguments: { command: "cat /internal/runbook.mdx | grep Marker" } });
    expect((r.content as { text: string }[])[0]?.text).toBe("Marker: STAFF-ONLY-RUNBOOK-7F3A. Drain the node with `nimbusctl drain <node>` and page the\n");
    expect(provider.tokens()).toMatchObject({ token_type: "Bearer", scope: "mcp:search", expires_in: 3600 });
    // The grant is an MCP extension (SEP-1046): the authenticated endpoint says it implements it.
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      resources: { listChanged: true },
      logging: {},
      extensions: { "io.modelcontextprotocol/oauth-client-credentials": {}, "io.modelcontextprotocol/skills": {} },
    });

    // Deleting the credential ends its access at the next request, mid-session: the token is
    // refused, and the SDK's attempt to get a new one is refused too.
    const token = (provider.tokens() as OAuthTokens).access_token;
    await h.state.deleteCredential(info.clientId);
    await expect(client.callTool({ name: FS, arguments: { command: "ls /" } })).rejects.toThrow();
    const raw = await fetch(h.urls.authedMcp, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: "{}" });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ error: "invalid_token", error_description: "The access token is invalid or was revoked" });
    const again = await postForm(h.urls.token, { grant_type: "client_credentials", client_id: info.clientId, client_secret: clientSecret });
    expect(again).toMatchObject({ status: 401, body: { error: "invalid_client", error_description: "unknown client_id or wrong client_secret" } });
    await client.close();
  });
});

describe("capabilities", () => {
  it("names no authorization extension on the public endpoint, which takes no token", async () => {
    const { client, close } = await mcpClient(h.urls.mcp);
    // The Skills extension only (SEP-2640), which both endpoints serve.
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, resources: { listChanged: true }, logging: {}, extensions: { "io.modelcontextprotocol/skills": {} } });
    await close();
  });
});
