/**
 * The hourly limits of the spawned `svc-mcp serve --http`, as a client meets them (docs/bridge.md,
 * "Rate limits"): what takes a unit of the per-IP limit and what does not, and the whole 429 in
 * each path's shape. What the limiter skips: a limit set `off` (`unitsByKey` leaves out infinite
 * limits), and whatever the socket layer refuses before any route runs (an HTTP/1.1 request
 * without `Host`). Everything a route answers is counted: the pages, their assets and the favicon
 * as much as MCP, OAuth, discovery and the feedback API.
 */
import { once } from "node:events";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../helpers/paths.js";
import { type ServeProcess, startServe } from "../helpers/serve-http.js";
import { FS, PROTOCOL, SEARCH, openSession, postJson } from "./harness.js";

const HOUR = 3_600_000;
const dirs: string[] = [];
const servers: ServeProcess[] = [];

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function serve(limits: readonly string[]): Promise<ServeProcess> {
  const site = temp("svc-rate-site-");
  cpSync(fixture("demo"), site, { recursive: true });
  const args = ["--dir", site, "--state", temp("svc-rate-state-"), "--project-id", "docs", "--no-fetch-remote", ...limits.flatMap((l) => ["--rate-limit", l])];
  // Its site cache in a folder of its own, not the user's.
  const server = await startServe(args, { XDG_CACHE_HOME: temp("svc-rate-cache-") });
  servers.push(server);
  return server;
}

afterAll(async () => {
  for (const { child } of servers) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A raw HTTP/1.1 GET without `Host` (fetch always sends one): its status line. */
async function withoutHost(origin: string, path: string): Promise<string> {
  const url = new URL(origin);
  const socket = connect(Number(url.port), url.hostname);
  let raw = "";
  socket.setEncoding("utf8").on("data", (t: string) => (raw += t));
  socket.end(`GET ${path} HTTP/1.1\r\n\r\n`);
  await once(socket, "close");
  return raw.slice(0, raw.indexOf("\r\n"));
}

/** A 429 as a test compares it: the seconds of `Retry-After` put back as `<S>`, the reset as `<RESET>`. */
async function refusal(res: Response): Promise<{ status: number; type: string | null; body: unknown }> {
  const retryAfter = res.headers.get("retry-after") ?? "";
  const text = await res.text();
  const seconds = Number(retryAfter);
  // Seconds to the next clock hour: at least 1, at most an hour.
  expect({ integer: Number.isInteger(seconds), inHour: seconds >= 1 && seconds <= 3600 }).toEqual({ integer: true, inHour: true });
  const body = JSON.parse(text.split(`Retry after ${retryAfter} seconds.`).join("Retry after <S> seconds.")) as Record<string, unknown>;
  const error = body.error as { data?: { retryAfter: number; reset: string } } | undefined;
  if (error?.data !== undefined) {
    // The JSON-RPC error's data says the same seconds, and the hour they end at.
    expect({ retryAfter: error.data.retryAfter, whole: error.data.reset.endsWith(":00:00.000Z"), ahead: Date.parse(error.data.reset) - Date.now() <= HOUR }).toEqual({ retryAfter: seconds, whole: true, ahead: true });
    error.data = { ...error.data, retryAfter: -1, reset: "<RESET>" };
  }
  return { status: res.status, type: res.headers.get("content-type"), body };
}

describe("serve --http --rate-limit ip=4: the per-IP hourly limit", () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await serve(["ip=4"]);
  }, 120_000);

  it("takes no unit for what the socket layer refuses, one for every request a route answers, then answers 429 in each path's shape with Retry-After", async () => {
    const origin = server.origin;
    // Refused before any route: not counted (five of them, past the limit of four).
    const refused = [];
    for (let i = 0; i < 5; i++) refused.push(await withoutHost(origin, "/quickstart"));
    expect(refused).toEqual(Array(5).fill("HTTP/1.1 400 Bad Request"));
    // Four requests of four route families: each counted, each served.
    const served = [
      (await fetch(`${origin}/quickstart`, { headers: { accept: "text/html" } })).status,
      (await fetch(`${origin}/_svc/assets/preview.js`)).status,
      (await fetch(`${origin}/.well-known/oauth-protected-resource/authed/mcp`)).status,
      (await fetch(`${origin}/v1/analytics/docs/feedback`)).status,
    ];
    expect(served).toEqual([200, 200, 200, 401]);

    const message = "Rate limit exceeded: at most 4 requests per hour from one IP address. Retry after <S> seconds.";
    const api = { status: 429, type: "application/json", body: { error: { code: "rate_limited", message } } };
    const got = {
      page: await refusal(await fetch(`${origin}/quickstart`, { headers: { accept: "text/html" } })),
      asset: await refusal(await fetch(`${origin}/_svc/assets/preview.js`)),
      favicon: await refusal(await fetch(`${origin}/favicon.ico`)),
      feedback: await refusal(await fetch(`${origin}/v1/analytics/docs/feedback`)),
      unknown: await refusal(await fetch(`${origin}/_svc/nothing`)),
      mcp: await refusal(
        await fetch(`${origin}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }),
        }),
      ),
      token: await refusal(await fetch(`${origin}/authed/mcp/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" })),
    };
    expect(got).toEqual({
      page: api,
      asset: api,
      favicon: api,
      feedback: api,
      unknown: api,
      mcp: { status: 429, type: "application/json", body: { jsonrpc: "2.0", id: 7, error: { code: -32029, message, data: { limit: 4, retryAfter: -1, reset: "<RESET>" } } } },
      token: { status: 429, type: "application/json", body: { error: "rate_limited", error_description: message } },
    });
  });
});

describe("serve --http --rate-limit ip=off,search=2,filesystem=off: a tool's limit, and one set off", () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await serve(["ip=off", "search=2", "filesystem=off"]);
  }, 120_000);

  it("refuses the third search with 429, Retry-After and the call's id; filesystem calls are not counted", async () => {
    const url = `${server.origin}/mcp`;
    const session = await openSession(url);
    const headers = { "mcp-session-id": session, "mcp-protocol-version": PROTOCOL };
    const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    const searches = [];
    for (let i = 1; i <= 2; i++) searches.push((await postJson(url, call(i, SEARCH, { query: "bucket" }), headers)).status);
    expect(searches).toEqual([200, 200]);
    const over = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(call(3, SEARCH, { query: "bucket" })),
    });
    const message = "Rate limit exceeded: at most 2 search calls per hour on this documentation site. Retry after <S> seconds.";
    expect(await refusal(over)).toEqual({ status: 429, type: "application/json", body: { jsonrpc: "2.0", id: 3, error: { code: -32029, message, data: { limit: 2, retryAfter: -1, reset: "<RESET>" } } } });
    // `filesystem=off`: no counter at all; sixty calls (over the 50 below which a limit is a cap) all run.
    const statuses = new Set<number>();
    for (let i = 0; i < 60; i++) statuses.add((await postJson(url, call(100 + i, FS, { command: "ls /" }), headers)).status);
    expect([...statuses]).toEqual([200]);
  });
});
