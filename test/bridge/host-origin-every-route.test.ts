import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { fixture } from "../helpers/paths.js";

/**
 * Issue 25, F4: the Host check (DNS rebinding) and the Origin check covered only `/mcp`,
 * `/authed/mcp` and `/.well-known/*`. A page on `attacker.example` rebound to 127.0.0.1 read
 * every page an anonymous reader sees and ran the preview's shell. Now both apply to every
 * route of `serve --http` and `preview`, each started here as the command line starts it.
 */

/** One request of each route family: what to send. */
interface Route {
  readonly name: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

const PROJECT = "docs";
const JSON_TYPE = { "content-type": "application/json" };
const ROUTES: readonly Route[] = [
  { name: "a page", method: "GET", path: "/quickstart", headers: { accept: "text/html" } },
  { name: "the home page", method: "GET", path: "/", headers: { accept: "text/html" } },
  { name: "a missing page", method: "GET", path: "/nope", headers: { accept: "text/html" } },
  { name: "a medium", method: "GET", path: "/images/logo.svg" },
  { name: "a static asset", method: "GET", path: "/_svc/assets/preview.js" },
  { name: "the favicon", method: "GET", path: "/favicon.ico" },
  { name: "the sign-in page", method: "GET", path: "/_svc/login" },
  { name: "the sign-in form", method: "POST", path: "/_svc/login", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "username=a&password=b&return=%2F" },
  { name: "the sign-out form", method: "POST", path: "/_svc/logout", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" },
  { name: "the dashboard", method: "GET", path: "/_svc/dashboard" },
  { name: "the preview's search", method: "GET", path: "/_svc/preview/search?query=bucket" },
  { name: "the preview's agent view", method: "GET", path: "/_svc/preview/agent?page=/quickstart" },
  { name: "the preview's shell", method: "POST", path: "/_svc/preview/shell", headers: JSON_TYPE, body: JSON.stringify({ command: "cat /quickstart.mdx" }) },
  { name: "live reload", method: "GET", path: "/_svc/preview/events" },
  { name: "a feedback widget", method: "POST", path: `/v1/feedback/${PROJECT}/rating`, headers: JSON_TYPE, body: JSON.stringify({ path: "/quickstart", helpful: true }) },
  { name: "the feedback analytics", method: "GET", path: `/v1/analytics/${PROJECT}/feedback` },
  { name: "the playground relay", method: "POST", path: "/_svc/api/request", headers: JSON_TYPE, body: JSON.stringify({ page: "/api/overview", method: "GET", url: "https://api.example.com/x" }) },
  { name: "an unknown path", method: "GET", path: "/_svc/nothing" },
  { name: "the MCP endpoint", method: "POST", path: "/mcp", headers: { ...JSON_TYPE, accept: "application/json, text/event-stream" }, body: "{}" },
  { name: "OAuth metadata", method: "GET", path: "/.well-known/oauth-protected-resource/authed/mcp" },
];

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Send `route` to `origin` with `Host` (and more headers) as given: `fetch` may not set `Host`.
 * `target`: the request line's target in absolute form (`http://other.example/path`), as a proxy
 * is sent one, instead of the path.
 */
function send(origin: string, route: Route, headers: Record<string, string>, target?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(origin);
    const options = { host: url.hostname, port: url.port, path: target ?? route.path, method: route.method, headers: { ...route.headers, ...headers } };
    const req = request(options, (res) => {
      // Live reload's stream never ends: its head is the answer.
      if (res.headers["content-type"]?.startsWith("text/event-stream") === true) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, body: "stream" });
        return;
      }
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => {
        const json = res.headers["content-type"]?.includes("json") === true;
        resolve({ status: res.statusCode ?? 0, body: json ? (JSON.parse(text) as unknown) : (res.headers["content-type"] ?? "") });
      });
    });
    req.on("error", reject);
    req.end(route.body);
  });
}

/**
 * Send `route` as raw HTTP/1.1 (or `version`) without a `Host` header (`request` always writes
 * one) and read the whole answer: its status, its `Connection` header and its body (JSON parsed).
 */
function sendWithoutHost(origin: string, route: Route, version = "HTTP/1.1"): Promise<{ status: number; connection: string | undefined; body: unknown }> {
  const url = new URL(origin);
  const headers = Object.entries({ ...route.headers, "content-length": String(Buffer.byteLength(route.body ?? "")) }).map(([k, v]) => `${k}: ${v}\r\n`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let raw = "";
    socket.setEncoding("utf8").on("data", (t: string) => (raw += t));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = raw.split("\r\n\r\n");
      const lines = head.split("\r\n");
      const connection = lines.find((l) => l.toLowerCase().startsWith("connection:"))?.slice("connection:".length).trim();
      resolve({ status: Number(lines[0]?.split(" ")[1]), connection, body: body === "" ? "" : (JSON.parse(body) as unknown) });
    });
    socket.end(`${route.method} ${route.path} ${version}\r\n${headers.join("")}\r\n${route.body ?? ""}`);
  });
}

/** The site: the demo fixture and an image. */
let site: string;
let state: string;
beforeAll(() => {
  site = mkdtempSync(join(tmpdir(), "svc-guard-site-"));
  cpSync(fixture("demo"), site, { recursive: true });
  mkdirSync(join(site, "images"));
  writeFileSync(join(site, "images", "logo.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  state = mkdtempSync(join(tmpdir(), "svc-guard-state-"));
});
afterAll(() => {
  rmSync(site, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

/** Run the CLI in this process until stopped; resolves with the origin it printed. */
async function start(argv: readonly string[], announced: RegExp): Promise<{ origin: string; stop: () => Promise<number> }> {
  let stop: () => void = () => {};
  let stderr = "";
  let found: (origin: string) => void = () => {};
  const origin = new Promise<string>((resolve) => (found = resolve));
  const run = main([...argv, "--no-fetch-remote", "--port", "0", "--dir", site, "--state", state, "--project-id", PROJECT], {
    stdout: () => {},
    stderr: (t) => {
      stderr += t;
      const m = announced.exec(stderr);
      if (m !== null) found(m[1] as string);
    },
    cwd: site,
    env: {},
    stopSignal: new Promise<void>((resolve) => (stop = resolve)),
  });
  const at = await Promise.race([origin, run.then((code) => Promise.reject(new Error(`exited ${code}: ${stderr}`)))]);
  return {
    origin: at,
    stop: () => {
      stop();
      return run;
    },
  };
}

const SERVERS = [
  { name: "serve --http", argv: ["serve", "--http", "--no-watch"], announced: /MCP \(public\): +(http:\/\/127\.0\.0\.1:\d+)\/mcp/ },
  { name: "preview", argv: ["preview", "--no-open"], announced: /preview: (http:\/\/127\.0\.0\.1:\d+)\// },
] as const;

describe.each(SERVERS)("$name on loopback", ({ argv, announced }) => {
  let server: Awaited<ReturnType<typeof start>>;
  let port: string;
  beforeAll(async () => {
    server = await start(argv, announced);
    port = new URL(server.origin).port;
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it("answers a foreign Host with 403 forbidden_host on every route", async () => {
    const got: Record<string, Answer> = {};
    const want: Record<string, Answer> = {};
    for (const route of ROUTES) {
      // Sent as a rebinding page sends it: its own name as Host, its own origin as Origin on a POST.
      const host = `attacker.example:${port}`;
      got[route.name] = await send(server.origin, route, { host, ...(route.method === "POST" ? { origin: `http://${host}` } : {}) });
      const message = `Host "${host}" is not served here`;
      want[route.name] = {
        status: 403,
        body: route.path === "/mcp" ? { jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { reason: "forbidden_host" } } } : { error: { code: "forbidden_host", message } },
      };
    }
    expect(got).toEqual(want);
  });

  it("answers an HTTP/1.1 request without Host with 400 bad_request on every route, in its error shape, and closes the connection (adversary round 60 F4: an empty 400)", async () => {
    const got: Record<string, unknown> = {};
    const want: Record<string, unknown> = {};
    const message = "the request is HTTP/1.1 without a Host header (RFC 9112 section 3.2): Host header missing";
    for (const route of ROUTES) {
      got[route.name] = await sendWithoutHost(server.origin, route);
      want[route.name] = {
        status: 400,
        connection: "close",
        body: route.path === "/mcp" ? { jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { reason: "bad_request" } } } : { error: { code: "bad_request", message } },
      };
    }
    expect(got).toEqual(want);
  });

  it("answers an HTTP/1.0 request without Host as the HTTP/1.1 one, 400 bad_request on every route (was 403 forbidden_host, Host \"\")", async () => {
    const got: Record<string, unknown> = {};
    const want: Record<string, unknown> = {};
    const message = "the request is HTTP/1.0 without a Host header; this server answers only requests whose Host names it: Host header missing";
    for (const route of ROUTES) {
      got[route.name] = await sendWithoutHost(server.origin, route, "HTTP/1.0");
      want[route.name] = {
        status: 400,
        connection: "close",
        body: route.path === "/mcp" ? { jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { reason: "bad_request" } } } : { error: { code: "bad_request", message } },
      };
    }
    expect(got).toEqual(want);
  });

  it("answers a request whose target names a foreign host (absolute form) with 403 forbidden_host on every route, whatever its Host says", async () => {
    // RFC 9112 3.2.2: the target's authority comes before Host, and the request's URL (so every
    // URL the server writes from it) is built from it (adversary round 34: served, evil.example
    // written into the OAuth metadata).
    const got: Record<string, Answer> = {};
    const want: Record<string, Answer> = {};
    for (const route of ROUTES) {
      const host = "evil.example:8080";
      got[route.name] = await send(server.origin, route, { host: `127.0.0.1:${port}` }, `http://${host}${route.path}`);
      const message = `Host "${host}" is not served here`;
      want[route.name] = {
        status: 403,
        body: route.path === "/mcp" ? { jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { reason: "forbidden_host" } } } : { error: { code: "forbidden_host", message } },
      };
    }
    expect(got).toEqual(want);
    // The same target naming this server is served as in origin form.
    const own = ROUTES.find((r) => r.name === "OAuth metadata") as Route;
    expect((await send(server.origin, own, { host: `127.0.0.1:${port}` }, `http://127.0.0.1:${port}${own.path}`)).status).toBe(200);
  });

  it("answers a foreign Origin with 403 forbidden_origin on every route but the feedback widgets (any origin) and the sign-in forms (their own, stricter words)", async () => {
    const got: Record<string, number | Answer> = {};
    const want: Record<string, number | Answer> = {};
    const origin = "https://evil.example";
    for (const route of ROUTES) {
      const answer = await send(server.origin, route, { host: `127.0.0.1:${port}`, origin });
      if (route.name === "a feedback widget") {
        got[route.name] = answer.status;
        want[route.name] = 201;
        continue;
      }
      got[route.name] = answer;
      const form = route.path === "/_svc/login" && route.method === "POST" ? "/_svc/login" : route.path === "/_svc/logout" ? "/_svc/logout" : undefined;
      const message = form !== undefined ? `Origin ${origin} may not post to ${form}; use the form on this site` : `Origin ${origin} may not call this server`;
      want[route.name] = {
        status: 403,
        body: route.path === "/mcp" ? { jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { reason: "forbidden_origin" } } } : { error: { code: "forbidden_origin", message } },
      };
    }
    expect(got).toEqual(want);
  });

  it("answers the loopback names, and a browser's own requests (no Origin on a GET; Origin null beside Sec-Fetch-Site: same-origin on a POST, which /mcp refused before)", async () => {
    const got: Record<string, number> = {};
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      for (const route of ROUTES) {
        const own: Record<string, string> = route.method === "POST" ? { origin: "null", "sec-fetch-site": "same-origin" } : {};
        got[`${host} ${route.name}`] = (await send(server.origin, route, { host, ...own })).status;
      }
    }
    const want: Record<string, number> = {};
    const statuses: Record<string, number> = {
      "a page": 200,
      "the home page": 200,
      "a missing page": 404,
      "a medium": 200,
      "a static asset": 200,
      "the favicon": 200,
      "the sign-in page": 200,
      // Wrong password: the form was read, so the origin passed.
      "the sign-in form": 401,
      "the sign-out form": 303,
      "the dashboard": 200,
      "the preview's search": 200,
      "the preview's agent view": 200,
      "the preview's shell": 200,
      "live reload": 200,
      "a feedback widget": 201,
      // No admin key.
      "the feedback analytics": 401,
      "the playground relay": 404,
      "an unknown path": 404,
      // `{}` is no JSON-RPC request: the endpoint, not a guard, refused it.
      "the MCP endpoint": 400,
      "OAuth metadata": 200,
    };
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) for (const route of ROUTES) want[`${host} ${route.name}`] = statuses[route.name] as number;
    expect(got).toEqual(want);
  });

  it("refuses Origin null from anywhere else (a sandboxed frame, a cross-site redirect)", async () => {
    const shell = ROUTES.find((r) => r.name === "the preview's shell") as Route;
    const got = await Promise.all([
      send(server.origin, shell, { host: `127.0.0.1:${port}`, origin: "null" }),
      send(server.origin, shell, { host: `127.0.0.1:${port}`, origin: "null", "sec-fetch-site": "cross-site" }),
    ]);
    const refused = { status: 403, body: { error: { code: "forbidden_origin", message: "Origin null may not call this server" } } };
    expect(got).toEqual([refused, refused]);
  });
});

describe("serve --http --public-url", () => {
  let server: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    server = await start(["serve", "--http", "--no-watch", "--public-url", "https://docs.example.com"], /serving .* over HTTP on (http:\/\/127\.0\.0\.1:\d+)/);
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it("answers its public name and origin on the pages and the preview's calls, and still no other", async () => {
    const page = ROUTES.find((r) => r.name === "a page") as Route;
    const shell = ROUTES.find((r) => r.name === "the preview's shell") as Route;
    const got = [
      (await send(server.origin, page, { host: "docs.example.com" })).status,
      (await send(server.origin, shell, { host: "docs.example.com", origin: "https://docs.example.com" })).status,
      await send(server.origin, page, { host: "other.example.com" }),
    ];
    expect(got).toEqual([200, 200, { status: 403, body: { error: { code: "forbidden_host", message: 'Host "other.example.com" is not served here' } } }]);
  });
});
