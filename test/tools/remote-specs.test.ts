import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FetchLike } from "../../src/config/openapi/load-api-spec.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

/** The API a docs site names by URL, served from loopback (tests never reach the internet). */
const SPEC = {
  openapi: "3.1.0",
  info: { title: "Status API", version: "1" },
  servers: [{ url: "https://status.example.test" }],
  paths: { "/ping": { get: { summary: "Ping the service", tags: ["Health"], description: "Answers pong (quaxle).", responses: { "200": { description: "pong" } } } } },
};

let server: Server;
let origin: string;
/** Requests the spec server received, and requests it holds open (`/slow.json`). */
let received: string[];
let held: ServerResponse[];
/** Resolves when the spec server receives its first request. */
let firstRequest: Promise<void>;

beforeEach(async () => {
  received = [];
  held = [];
  let requested = () => {};
  firstRequest = new Promise((resolve) => (requested = resolve));
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    received.push(req.url ?? "");
    requested();
    if (req.url === "/openapi.json") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(SPEC));
    if (req.url === "/slow.json") return void held.push(res);
    res.writeHead(500).end("boom");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const res of held) res.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** A docs repository whose API group names `specUrl`, served by a runtime that does not fetch at load. */
async function start(specUrl: string | undefined) {
  const groups: unknown[] = [{ group: "Guides", pages: ["index"] }];
  if (specUrl !== undefined) groups.push({ group: "API", openapi: specUrl });
  const repo = makeRepo({ "docs.json": JSON.stringify({ name: "Remote", navigation: { groups } }), "index.mdx": "---\ntitle: Home\n---\n\nWelcome to the status docs.\n" });
  const logs: string[] = [];
  const runtime = await DocsRuntime.load({ root: repo.dir, log: (m) => logs.push(m) });
  cleanups.push(repo.cleanup, () => runtime.close());
  return { runtime, logs, dir: repo.dir };
}

/** The global fetch, recording what it is asked for (the injected boundary). */
function recordingFetch(): { fetch: FetchLike; urls: string[] } {
  const urls: string[] = [];
  return { urls, fetch: (url, init) => (urls.push(url), fetch(url, init)) };
}

const SEARCH = "search_remote";
const FS = "query_docs_filesystem_remote";

describe("remote API specs while serving", () => {
  it("the site serves without them at once; fetched in the background, their pages arrive as a reload (list_changed)", async () => {
    const url = `${origin}/openapi.json`;
    const { runtime, logs } = await start(url);
    expect([[...runtime.site.pages.keys()], runtime.site.api?.plan.unverified, received]).toEqual([["/index"], [url], []]);
    const c = await connect(runtime);
    cleanups.push(() => c.close());
    let changes = 0;
    const notified = new Promise<void>((resolve) =>
      c.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        changes++;
        resolve();
      }),
    );
    const f = recordingFetch();
    await runtime.fetchRemoteSpecs(f.fetch);
    expect(f.urls).toEqual([url]);
    expect(logs).toEqual([`fetching a remote API spec in the background: ${url}`, `fetched ${url}: 1 API page`]);
    const hits = (await c.call(SEARCH, { query: "quaxle" })).structuredContent as { results: { path: string }[] };
    expect(hits.results.map((h) => h.path)).toEqual(["/api-reference/health/ping-the-service"]);
    expect(c.text(await c.call(FS, { command: "head -4 /api-reference/health/ping-the-service.mdx" }))).toBe(
      `---\ntitle: "Ping the service"\ndescription: "Answers pong (quaxle)."\nopenapi: "${url} GET /ping"\n`,
    );
    // Notifications travel asynchronously; the reload has sent one.
    await notified;
    expect(changes).toBe(1);
    // Fetched once: a later call finds nothing left to fetch.
    await runtime.fetchRemoteSpecs(f.fetch);
    expect([f.urls.length, logs.length]).toEqual([1, 2]);
  });

  it("a failure is a warning on the log; the rest of the site keeps serving", async () => {
    const url = `${origin}/broken.json`;
    const { runtime, logs } = await start(url);
    await runtime.fetchRemoteSpecs(fetch);
    expect(logs).toEqual([
      `fetching a remote API spec in the background: ${url}`,
      `warning: remote API spec ${url}: unreachable: HTTP 500; its pages are left out, the rest of the site keeps serving`,
    ]);
    const c = await connect(runtime);
    cleanups.push(() => c.close());
    expect(((await c.call(SEARCH, { query: "welcome status" })).structuredContent as { results: { path: string }[] }).results.map((h) => h.path)).toEqual(["/index"]);
  });

  it("close() aborts a download in progress and applies nothing", async () => {
    const url = `${origin}/slow.json`;
    const { runtime, logs } = await start(url);
    const fetching = runtime.fetchRemoteSpecs(fetch);
    await firstRequest;
    expect(received).toEqual(["/slow.json"]);
    await runtime.close();
    await fetching;
    expect([logs, [...runtime.site.pages.keys()]]).toEqual([[`fetching a remote API spec in the background: ${url}`], ["/index"]]);
  });

  it("a docs.json edit that names a remote spec gets it fetched too", async () => {
    const { runtime, logs, dir } = await start(undefined);
    await runtime.fetchRemoteSpecs(fetch); // nothing to fetch yet
    expect(logs).toEqual([]);
    const url = `${origin}/openapi.json`;
    writeFileSync(join(dir, "docs.json"), JSON.stringify({ name: "Remote", navigation: { groups: [{ group: "Guides", pages: ["index"] }, { group: "API", openapi: url }] } }));
    // The spec is fetched after the docs.json reload, and its pages arrive as a reload of their own.
    const arrived = new Promise<void>((resolve) => {
      const stop = runtime.onChange((change) => {
        if (!change.site.pages.has("/api-reference/health/ping-the-service")) return;
        stop();
        resolve();
      });
    });
    await runtime.applyChanges(["docs.json"]);
    await arrived;
    expect([[...runtime.site.pages.keys()], logs]).toEqual([
      ["/api-reference/health/ping-the-service", "/index"],
      [`fetching a remote API spec in the background: ${url}`, `fetched ${url}: 1 API page`],
    ]);
  });
});
