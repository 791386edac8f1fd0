import { playgroundApps } from "../../src/bridge/playground/apps.js";
import { createHash, randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Bridge, type BridgeOptions, createBridge } from "../../src/bridge/bridge.js";
import { type ListenOptions, listen } from "../../src/bridge/http-server.js";
import { type RateLimits, parseRateLimits } from "../../src/bridge/middleware/rate-limit.js";
import { type BridgeUrls, bridgeUrls } from "../../src/bridge/urls.js";
import { siteRoutes } from "../../src/cli/serve-http.js";
import { type SqliteFeedbackStore, openFeedbackStore } from "../../src/store/feedback/sqlite-store.js";
import { openKeyStore } from "../../src/store/keys/key-store.js";
import { type SqliteStateStore, openStateStore } from "../../src/store/state/sqlite-state-store.js";
import type { ScryptCost } from "../../src/store/state/secrets.js";
import type { AuthMode, McpToggle } from "../../src/store/state/state-store.js";
import { docsTools } from "../../src/mcp/tools.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { ShellHostOptions } from "../../src/engine/shell/shell-host.js";
import type { RenderPoolOptions } from "../../src/engine/render/render-pool.js";
import { fixture } from "../helpers/paths.js";
import { TestClient } from "../helpers/test-client.js";

export const DEMO = fixture("demo");
export const SEARCH = "search_nimbus_storage";
export const FS = "query_docs_filesystem_nimbus_storage";
export const PROTOCOL = "2025-06-18";
/** The last revision with JSON-RPC batches (2025-06-18 removed them): tests that send batches open sessions of it. */
export const BATCH_PROTOCOL = "2025-03-26";

export function tempDir(prefix = "svc-mcp-bridge-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A clock tests move by hand (token expiry, rate-limit windows). Starts mid-hour. */
export class TestClock {
  t = Date.UTC(2030, 0, 15, 10, 30, 0);
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

/**
 * The demo site plus what a leak test needs: a skill restricted to `staff`, and a page marked
 * `public: true`. Every restricted file carries a unique marker string.
 */
export const RESTRICTED_SKILL = [
  "---",
  "name: oncall",
  "description: On-call procedures STAFF-SKILL-DESC-5E21",
  "groups: [staff]",
  "---",
  "",
  "# On-call skill",
  "",
  "Marker: STAFF-SKILL-44D1. Page the storage team first.",
  "",
].join("\n");

export const PUBLIC_PAGE = ["---", 'title: "Service status"', "public: true", "---", "", "Marker: PUBLIC-STATUS-3C7E. All systems normal.", ""].join("\n");

export function accessRepo(): { dir: string; cleanup: () => void } {
  const t = tempDir("svc-mcp-access-repo-");
  cpSync(DEMO, t.dir, { recursive: true });
  for (const [path, text] of Object.entries({ "internal/skills/oncall/SKILL.md": RESTRICTED_SKILL, "status.mdx": PUBLIC_PAGE })) {
    mkdirSync(dirname(join(t.dir, path)), { recursive: true });
    writeFileSync(join(t.dir, path), text);
  }
  return t;
}

export interface HarnessOptions {
  readonly root?: string;
  readonly authMode?: AuthMode;
  readonly mcp?: McpToggle;
  readonly clock?: TestClock;
  readonly rateLimits?: readonly string[];
  readonly bridge?: Partial<BridgeOptions>;
  readonly watch?: boolean;
  /** Mount the feedback API (project `docs`) and the playground relay as `serve --http` does. */
  readonly apps?: boolean;
  /** Offer API pages' playgrounds as MCP Apps (to clients that render them), as `serve --http` does. */
  readonly playgroundApps?: boolean;
  /** With `apps`: offer `submit_feedback` too, into the same database, as `serve --http` does. */
  readonly feedbackTool?: boolean;
  /** The shell worker pool's options (default: as `serve --http` sizes it). */
  readonly shell?: ShellHostOptions;
  /** The socket's bounds and deadlines (default: `LIMITS.bridge`, as `serve --http` has them). */
  readonly listen?: Omit<ListenOptions, "host" | "port" | "connections">;
  /** The page render pool's options (default: as `serve --http` sizes it); tests watch and hold renders with them. */
  readonly renderWorker?: RenderPoolOptions;
}

export interface Harness {
  readonly origin: string;
  readonly urls: BridgeUrls;
  readonly runtime: DocsRuntime;
  readonly state: SqliteStateStore;
  readonly stateDir: string;
  readonly bridge: Bridge;
  readonly logs: string[];
  /** With `apps`: the feedback database the mounted feedback API writes. */
  readonly feedback: SqliteFeedbackStore | undefined;
  readonly close: () => Promise<void>;
}

/**
 * scrypt at 1/32 of the production cost (1 MiB, about a millisecond): the same algorithm and
 * stored format, but the lockout test's 20 wrong passwords take milliseconds, not seconds.
 */
export const TEST_PASSWORD_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

/** DNS for tests: no name resolves (a metadata document URL is refused as unresolvable). */
export const noNetwork = async (hostname: string): Promise<never> => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
};

/** The real bridge on 127.0.0.1:0 over a real SQLite state file in a temp dir. */
export async function startBridge(options: HarnessOptions = {}): Promise<Harness> {
  const stateTmp = tempDir("svc-mcp-state-");
  const stateDir = join(stateTmp.dir, "state");
  const clock = options.clock;
  const state = openStateStore(stateDir, { passwordCost: TEST_PASSWORD_COST, ...(clock === undefined ? {} : { now: clock.now }) });
  if (options.authMode !== undefined) await state.setAuthMode(options.authMode);
  if (options.mcp !== undefined) await state.setMcp(options.mcp);
  // As `serve --http` runs it: filesystem commands in the shell worker.
  const runtime = await DocsRuntime.load({ root: options.root ?? DEMO, baseUrl: "https://docs.nimbus.example", shellWorker: options.shell ?? true, ...(options.renderWorker !== undefined ? { renderWorker: options.renderWorker } : {}) });
  if (options.watch === true) await runtime.watch();
  const rateLimits: RateLimits | string = parseRateLimits(options.rateLimits ?? []);
  if (typeof rateLimits === "string") throw new Error(rateLimits);
  const logs: string[] = [];
  const log = (m: string): void => void logs.push(m);
  const feedback = options.apps === true ? openFeedbackStore(stateDir) : undefined;
  const keys = options.apps === true ? openKeyStore(stateDir) : undefined;
  const bridge = createBridge({
    runtime,
    state,
    rateLimits,
    log,
    ...(feedback !== undefined && keys !== undefined ? { extraRoutes: siteRoutes({ runtime, state, feedback, keys, projectId: "docs", publicUrl: undefined, log }) } : {}),
    ...(feedback !== undefined && options.feedbackTool === true ? { tools: docsTools({ feedback: { store: feedback, projectId: "docs" } }) } : {}),
    ...(options.playgroundApps === true ? { apps: playgroundApps({ runtime }) } : {}),
    allowedHosts: ["localhost", "127.0.0.1", "[::1]"],
    ...(clock !== undefined ? { now: clock.now } : {}),
    // Tests talk only to loopback: a client_id URL resolves nowhere unless a test maps it.
    clientMetadata: { lookup: noNetwork },
    ...options.bridge,
  });
  const server = await listen(bridge, { ...options.listen, host: "127.0.0.1", port: 0 });
  return {
    origin: server.origin,
    urls: bridgeUrls(server.origin),
    runtime,
    state,
    stateDir,
    bridge,
    logs,
    feedback,
    close: async () => {
      await server.close();
      await runtime.close();
      await Promise.all([state.close(), feedback?.close(), keys?.close()]);
      stateTmp.cleanup();
    },
  };
}

/** A real SDK client over Streamable HTTP; `token` is sent as a bearer token. */
export async function mcpClient(url: string, options: { token?: string; authProvider?: OAuthClientProvider; fetch?: FetchLike } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(options.token !== undefined ? { requestInit: { headers: { Authorization: `Bearer ${options.token}` } } } : {}),
    ...(options.authProvider !== undefined ? { authProvider: options.authProvider } : {}),
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
  });
  const client = new TestClient({ name: "bridge-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    /** Text of a tool call's first content block; `timeout` replaces the SDK's 60 s request limit. */
    text: async (name: string, args: Record<string, unknown>, timeout?: number) => {
      const r = await client.callTool({ name, arguments: args }, undefined, timeout === undefined ? undefined : { timeout });
      return (r.content as { text: string }[])[0]?.text ?? "";
    },
    close: () => client.close(),
  };
}

/** Raw JSON POST; returns status, headers and parsed body. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === "" ? undefined : (JSON.parse(text) as unknown), text };
}

/** Form POST (token, revocation, login). */
export async function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get("content-type") ?? "").startsWith("application/json")) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

export const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** Open a session with raw HTTP (at `protocol`, default PROTOCOL); returns the session id. */
export async function openSession(url: string, headers: Record<string, string> = {}, protocol = PROTOCOL): Promise<string> {
  const r = await postJson(url, { ...INIT, params: { ...INIT.params, protocolVersion: protocol } }, headers);
  if (r.status !== 200) throw new Error(`initialize failed: ${r.status} ${r.text}`);
  const id = r.headers.get("mcp-session-id");
  if (id === null) throw new Error("no session id");
  await postJson(url, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...headers, "mcp-session-id": id, "mcp-protocol-version": protocol });
  return id;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export const LOOPBACK_REDIRECT = "http://127.0.0.1:8976/callback";

/** An AI tool's side of the authorization-code flow: it stores what the SDK hands it. */
export class ToolProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  readonly stateValue = "state-123";

  /** With `clientMetadataUrl` the tool names itself by its metadata document (CIMD) instead of registering. */
  constructor(readonly clientMetadataUrl?: string) {}

  get redirectUrl(): string {
    return LOOPBACK_REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [LOOPBACK_REDIRECT],
      client_name: "SDK test tool",
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    };
  }
  state(): string {
    return this.stateValue;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}


/** Register a public client (as an AI tool would) and return its id. */
export async function registerClient(h: Harness, redirectUris: string[] = [LOOPBACK_REDIRECT], extra: Record<string, unknown> = {}): Promise<string> {
  const r = await postJson(h.urls.register, { redirect_uris: redirectUris, token_endpoint_auth_method: "none", client_name: "Test tool", ...extra });
  if (r.status !== 201) throw new Error(`registration failed: ${r.status} ${r.text}`);
  return (r.body as { client_id: string }).client_id;
}

/** Sign in on the login page (POST) and return the redirect Location. */
export async function signIn(h: Harness, params: Record<string, string>, username: string, password: string) {
  return postForm(h.urls.authorize, { ...params, username, password, action: "login" });
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

/** The whole authorization-code flow by raw HTTP for an account; returns the token response. */
export async function userTokens(h: Harness, username: string, password: string, clientId?: string): Promise<TokenPair & { clientId: string }> {
  const client = clientId ?? (await registerClient(h));
  const { verifier, challenge } = pkce();
  const params = {
    response_type: "code",
    client_id: client,
    redirect_uri: LOOPBACK_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st-1",
  };
  const login = await signIn(h, params, username, password);
  if (login.status !== 302) throw new Error(`sign-in failed: ${login.status} ${login.text}`);
  const code = new URL(login.headers.get("location") ?? "").searchParams.get("code") ?? "";
  const r = await postForm(h.urls.token, { grant_type: "authorization_code", code, redirect_uri: LOOPBACK_REDIRECT, client_id: client, code_verifier: verifier });
  if (r.status !== 200) throw new Error(`token exchange failed: ${r.status} ${r.text}`);
  return { ...(r.body as TokenPair), clientId: client };
}

/** Client-credentials tokens for a new credential. */
export async function credentialTokens(h: Harness, label = "test") {
  const { info, clientSecret } = await h.state.createCredential(label);
  const r = await postForm(h.urls.token, { grant_type: "client_credentials", client_id: info.clientId, client_secret: clientSecret });
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
  return { ...(r.body as TokenPair), clientId: info.clientId, clientSecret };
}

export { runCli } from "../helpers/cli.js";
