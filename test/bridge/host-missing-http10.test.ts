/**
 * A request without a `Host` header at the served `svc-mcp serve --http` process (loopback, so the
 * Host check is on), sent raw over a socket: `request` and `fetch` always write a `Host`.
 * HTTP/1.1 without `Host` was `400 bad_request` (RFC 9112 3.2; security row 194); HTTP/1.0
 * without it was `403 forbidden_host` saying `Host "" is not served here`, as if an empty name had
 * been sent and refused. It names no host either, and the client's fix is the same (send `Host`),
 * so it is now answered as the HTTP/1.1 one is: `400 bad_request`, the path's error shape, the
 * connection closed, the message naming the version.
 */
import { once } from "node:events";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../helpers/paths.js";
import { type ServeProcess, startServe } from "../helpers/serve-http.js";

interface Route {
  readonly name: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
const ROUTES: readonly Route[] = [
  { name: "/mcp", method: "POST", path: "/mcp", headers: MCP_HEADERS, body: INITIALIZE },
  { name: "/authed/mcp", method: "POST", path: "/authed/mcp", headers: MCP_HEADERS, body: INITIALIZE },
  { name: "a page", method: "GET", path: "/quickstart", headers: { accept: "text/html" }, body: "" },
  { name: "an API route", method: "GET", path: "/v1/analytics/docs/feedback", headers: { accept: "application/json" }, body: "" },
];

/** The whole answer as a test compares it: status line, the headers that matter, the body parsed. */
interface Answer {
  readonly status: string;
  readonly contentType: string | undefined;
  readonly connection: string | undefined;
  readonly lengthMatches: boolean;
  readonly body: unknown;
}

/** Send `route` as `version` with no `Host` header and read until the server closes the connection. */
async function sendWithoutHost(origin: string, route: Route, version: "HTTP/1.0" | "HTTP/1.1"): Promise<Answer> {
  const url = new URL(origin);
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on("data", (d: Buffer) => chunks.push(d));
  const headers = Object.entries({ ...route.headers, "content-length": String(Buffer.byteLength(route.body)) }).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.end(`${route.method} ${route.path} ${version}\r\n${headers.join("")}\r\n${route.body}`);
  // The answer ends when the server closes: both refusals say `Connection: close`.
  await once(socket, "close");
  const raw = Buffer.concat(chunks).toString("utf8");
  const split = raw.indexOf("\r\n\r\n");
  const [statusLine = "", ...lines] = raw.slice(0, split).split("\r\n");
  const head = new Map(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  const body = raw.slice(split + 4);
  return {
    status: statusLine,
    contentType: head.get("content-type"),
    connection: head.get("connection"),
    lengthMatches: head.get("content-length") === String(Buffer.byteLength(body)),
    body: JSON.parse(body) as unknown,
  };
}

/** What `route` must answer: 400 bad_request with `message`, in the path's error shape. */
function refusal(route: Route, message: string): Answer {
  const mcp = route.path === "/mcp" || route.path === "/authed/mcp";
  return {
    status: "HTTP/1.1 400 Bad Request",
    contentType: "application/json",
    connection: "close",
    lengthMatches: true,
    body: mcp ? { jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { reason: "bad_request" } } } : { error: { code: "bad_request", message } },
  };
}

let site = "";
let state = "";
let server: ServeProcess;
beforeAll(async () => {
  site = mkdtempSync(join(tmpdir(), "svc-nohost-site-"));
  cpSync(fixture("demo"), site, { recursive: true });
  state = mkdtempSync(join(tmpdir(), "svc-nohost-state-"));
  server = await startServe(["--dir", site, "--state", state, "--project-id", "docs", "--no-fetch-remote"]);
}, 120_000);
afterAll(async () => {
  if (server !== undefined && server.child.exitCode === null) {
    const exited = once(server.child, "exit");
    server.child.kill("SIGTERM");
    await exited;
  }
  rmSync(site, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

describe("serve --http on loopback, a request without Host", () => {
  it("HTTP/1.0: 400 bad_request on /mcp, /authed/mcp, a page and an API route, in each path's shape, connection closed (was 403 forbidden_host, Host \"\")", async () => {
    const message = "the request is HTTP/1.0 without a Host header; this server answers only requests whose Host names it: Host header missing";
    const got: Record<string, Answer> = {};
    const want: Record<string, Answer> = {};
    for (const route of ROUTES) {
      got[route.name] = await sendWithoutHost(server.origin, route, "HTTP/1.0");
      want[route.name] = refusal(route, message);
    }
    expect(got).toEqual(want);
  });

  it("HTTP/1.1: the same status, code and shape (its message names RFC 9112)", async () => {
    const message = "the request is HTTP/1.1 without a Host header (RFC 9112 section 3.2): Host header missing";
    const got: Record<string, Answer> = {};
    const want: Record<string, Answer> = {};
    for (const route of ROUTES) {
      got[route.name] = await sendWithoutHost(server.origin, route, "HTTP/1.1");
      want[route.name] = refusal(route, message);
    }
    expect(got).toEqual(want);
  });
});
