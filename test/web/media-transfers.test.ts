import { createHash, randomBytes } from "node:crypto";
import { statSync, utimesSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { serve } from "@hono/node-server";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBridge } from "../../src/bridge/bridge.js";
import { listen } from "../../src/bridge/http-server.js";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { MediaTags } from "../../src/bridge/web/preview/media-tags.js";
import { MediaTurns } from "../../src/bridge/web/preview/media-turns.js";
import type { SiteMediaState } from "../../src/bridge/web/preview/site-media.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { LIMITS } from "../../src/limits.js";
import { type Harness, startBridge } from "../bridge/harness.js";
import { WatchedTurns } from "../helpers/watched-turns.js";
import { writeRepo } from "../openapi/helpers.js";
import { PNG } from "./site.js";

/**
 * The repository's media (issue 25): tagged once per version of the file, never read again for
 * a 304, sent from disk a piece at a time, and a bounded number at once per caller.
 */
let h: Harness;
let root: string;
/** Larger than one piece read from disk, so that it is sent in several. */
const CLIP = randomBytes(LIMITS.preview.mediaChunkBytes * 3 + 12_345);

const sha = (bytes: Buffer): string => `"sha256-${createHash("sha256").update(bytes).digest("hex")}"`;

beforeAll(async () => {
  root = writeRepo({ "docs.json": { name: "Media", navigation: { groups: [{ group: "Start", pages: ["index"] }] } }, "index.mdx": "---\ntitle: Home\n---\n\nHello.\n" });
  writeFileSync(join(root, "logo.png"), PNG);
  writeFileSync(join(root, "clip.mp4"), CLIP);
  h = await startBridge({ root });
});
afterAll(async () => {
  await h?.close();
});

/** The web app as `serve --http` mounts it, with its media state, each request from `address`. */
function appWith(media: SiteMediaState) {
  let address = "203.0.113.7";
  const app = webApp(media, () => address);
  return (path: string, init: RequestInit & { from?: string } = {}) => {
    address = init.from ?? "203.0.113.7";
    return app.fetch(new Request(`http://127.0.0.1${path}`, init));
  };
}

function webApp(media: SiteMediaState, address: () => string) {
  return createWebApp({ runtime: h.runtime, state: h.state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined, clientIp: address, media });
}

/** Tags that trust any file's times at once (a file changed in the last 2 s is otherwise hashed again each time). */
const settledTags = (): MediaTags => new MediaTags({ kept: 100, settledMs: 0, now: () => Date.now() + 60_000 });

describe("media tags", () => {
  it("are worked out once per version of the file: 304s read nothing, an edit (even keeping size and time) gives a new tag", async () => {
    const tags = settledTags();
    const get = appWith({ tags, turns: new MediaTurns() });
    const first = await get("/logo.png");
    expect([first.status, first.headers.get("etag"), Buffer.from(await first.arrayBuffer()).equals(PNG), tags.hashes]).toEqual([200, sha(PNG), true, 1]);
    const again = [];
    for (let i = 0; i < 5; i++) {
      const res = await get("/logo.png", { headers: { "If-None-Match": sha(PNG) } });
      again.push([res.status, res.headers.get("etag"), await res.text()]);
    }
    expect([again, tags.hashes]).toEqual([Array.from({ length: 5 }, () => [304, sha(PNG), ""]), 1]);
    // The same size and modification time, other bytes (`cp -p`): the change time tells.
    const before = statSync(join(root, "logo.png"));
    const edited = Buffer.from(PNG);
    edited.writeUInt8(edited.readUInt8(edited.length - 1) ^ 0xff, edited.length - 1);
    writeFileSync(join(root, "logo.png"), edited);
    utimesSync(join(root, "logo.png"), before.atime, before.mtime);
    const stale = await get("/logo.png", { headers: { "If-None-Match": sha(PNG) } });
    expect([stale.status, stale.headers.get("etag"), Buffer.from(await stale.arrayBuffer()).equals(edited), tags.hashes]).toEqual([200, sha(edited), true, 2]);
    const kept = await get("/logo.png", { headers: { "If-None-Match": sha(edited) } });
    expect([kept.status, kept.headers.get("etag"), tags.hashes]).toEqual([304, sha(edited), 2]);
    writeFileSync(join(root, "logo.png"), PNG);
  });

  it("readers asking for a version at once share one hash", async () => {
    const tags = settledTags();
    const get = appWith({ tags, turns: new MediaTurns() });
    const answers = await Promise.all(Array.from({ length: 6 }, () => get("/clip.mp4", { method: "HEAD" })));
    expect([answers.map((r) => [r.status, r.headers.get("etag"), r.headers.get("content-length")]), tags.hashes]).toEqual([Array.from({ length: 6 }, () => [200, sha(CLIP), String(CLIP.length)]), 1]);
  });
});

describe("a medium rewritten in place while it is first hashed", () => {
  it("is sent without a tag (the bytes hashed may be neither version's); the next request tags the new version", async () => {
    const file = join(root, "rewritten.png");
    writeFileSync(file, PNG);
    const edited = Buffer.from(PNG);
    edited.writeUInt8(edited.readUInt8(edited.length - 1) ^ 0xff, edited.length - 1);
    let rewrites = 0;
    // The rewrite lands between the hash's read and its look at the file's version again.
    const hashed = async (): Promise<void> => {
      if (rewrites++ === 0) writeFileSync(file, edited);
    };
    const tags = new MediaTags({ kept: 100, settledMs: 0, now: () => Date.now() + 60_000, hashed });
    const server = serve({ fetch: webApp({ tags, turns: new MediaTurns() }, () => "203.0.113.9").fetch, hostname: "127.0.0.1", port: 0 });
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    try {
      const get = async () => {
        const res = await fetch(`http://127.0.0.1:${port}/rewritten.png`);
        const body = Buffer.from(await res.arrayBuffer());
        return [res.status, res.headers.get("etag"), res.headers.get("cache-control"), body.equals(edited)];
      };
      expect([await get(), await get()]).toEqual([
        [200, null, "no-store", true],
        [200, sha(edited), "no-cache", true],
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("media bodies", () => {
  it("are the file's bytes, sent in pieces; HEAD has the headers only", async () => {
    const get = appWith({ tags: settledTags(), turns: new MediaTurns() });
    const res = await get("/clip.mp4");
    const headers = Object.fromEntries(res.headers);
    expect([res.status, headers, Buffer.from(await res.arrayBuffer()).equals(CLIP)]).toEqual([
      200,
      {
        "content-type": "video/mp4",
        "content-length": String(CLIP.length),
        etag: sha(CLIP),
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      },
      true,
    ]);
    const head = await get("/clip.mp4", { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), head.headers.get("etag"), await head.text()]).toEqual([200, String(CLIP.length), sha(CLIP), ""]);
  });
});

describe("media per caller", () => {
  it("past the caller's bound (an address, an IPv6 /64) a medium is refused with 429; another caller is served", async () => {
    const turns = new MediaTurns({ sending: 1, held: 1 });
    const get = appWith({ tags: settledTags(), turns });
    // Its body not read yet: the transfer is under way.
    const holding = await get("/clip.mp4", { from: "2001:db8:1:2::1" });
    expect([holding.status, turns.heldBy("address:2001:db8:1:2::/64")]).toEqual([200, 1]);
    const refused = await get("/logo.png", { from: "2001:db8:1:2::9" });
    expect([refused.status, refused.headers.get("retry-after"), refused.headers.get("cache-control"), await refused.json()]).toEqual([
      429,
      "2",
      "no-store",
      { error: { code: "too_many_media", message: "too many media requests of this client: at most 1 sent or waiting at once per client (an address, an IPv6 /64 or a token); wait for them to finish, then ask again" } },
    ]);
    const other = await get("/logo.png", { from: "2001:db8:1:3::1" });
    expect([other.status, Buffer.from(await other.arrayBuffer()).equals(PNG)]).toEqual([200, true]);
    // The transfer's end gives its place back.
    expect(Buffer.from(await holding.arrayBuffer()).equals(CLIP)).toBe(true);
    expect(turns.heldBy("address:2001:db8:1:2::/64")).toBe(0);
    expect((await get("/logo.png", { from: "2001:db8:1:2::9" })).status).toBe(200);
  });

  it("beyond those being sent, the caller's next media wait their turn; a hang-up gives its place back", async () => {
    const turns = new WatchedTurns({ sending: 1, held: 2 });
    const get = appWith({ tags: settledTags(), turns });
    const caller = "address:203.0.113.7";
    const sending = await get("/clip.mp4");
    const waiting = get("/logo.png");
    await turns.held(caller, 2);
    expect((await get("/logo.png")).status).toBe(429);
    // The client of the first hangs up: the waiting one is sent.
    await sending.body?.cancel();
    const next = await waiting;
    expect([next.status, Buffer.from(await next.arrayBuffer()).equals(PNG), turns.heldBy(caller)]).toEqual([200, true, 0]);
    // One that hangs up while it waits leaves the queue.
    const first = await get("/clip.mp4");
    const gone = new AbortController();
    const left = get("/logo.png", { signal: gone.signal });
    await turns.held(caller, 2);
    gone.abort();
    expect([(await left).status, turns.heldBy(caller)]).toEqual([503, 1]);
    await first.body?.cancel();
    expect(turns.heldBy(caller)).toBe(0);
  });

  it("over HTTP, a client that hangs up in the middle of a transfer gives its place back", async () => {
    // Larger than what the sockets' buffers hold, so that it is still being sent when the client goes.
    writeFileSync(join(root, "long.mp4"), Buffer.alloc(24 * 1024 * 1024, 7));
    const turns = new WatchedTurns({ sending: 1, held: 1 });
    const server = serve({ fetch: webApp({ tags: settledTags(), turns }, () => "203.0.113.8").fetch, hostname: "127.0.0.1", port: 0 });
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    const caller = "address:203.0.113.8";
    try {
      const socket = connect(port, "127.0.0.1");
      // The response's head arrives; the client reads no further.
      const head = await new Promise<string>((resolve) => {
        socket.once("data", (d: Buffer) => {
          socket.pause();
          resolve(d.subarray(0, d.indexOf("\r\n")).toString());
        });
        socket.write("GET /long.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      });
      expect([head, turns.heldBy(caller)]).toEqual(["HTTP/1.1 200 OK", 1]);
      socket.destroy();
      await turns.held(caller, 0);
      const after = await fetch(`http://127.0.0.1:${port}/logo.png`);
      expect([after.status, Buffer.from(await after.arrayBuffer()).equals(PNG)]).toEqual([200, true]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("over HTTP, a client that stops reading has its transfer ended, and the place goes to the caller's next medium", async () => {
    // Far more than the sockets' buffers hold: the server's writes stall once they are full.
    const size = 32 * 1024 * 1024;
    writeFileSync(join(root, "stalled.mp4"), Buffer.alloc(size, 9));
    const turns = new WatchedTurns({ sending: 1, held: 2 });
    const bridge = createBridge({
      runtime: h.runtime,
      state: h.state,
      extraRoutes: [(app, { clientIp }) => app.route("/", createWebApp({ runtime: h.runtime, state: h.state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined, clientIp, media: { tags: settledTags(), turns } }))],
    });
    // A short stall limit (the default is `LIMITS.bridge.stalledWriteMs`).
    const server = await listen(bridge, { host: "127.0.0.1", port: 0, stalledWriteMs: 500 });
    try {
      const socket = connect(server.port, "127.0.0.1");
      const head = await new Promise<string>((resolve) => {
        socket.once("data", (d: Buffer) => {
          socket.pause();
          resolve(d.subarray(0, d.indexOf("\r\n")).toString());
        });
        socket.write("GET /stalled.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      });
      // The same caller's next medium waits for the place the stalled transfer holds.
      const next = await fetch(`${server.origin}/logo.png`);
      const body = Buffer.from(await next.arrayBuffer());
      // The stalled client, reading again, finds its answer cut short and the connection closed.
      let received = 0;
      const ended = new Promise<string>((resolve) => socket.once("close", () => resolve("closed")));
      socket.on("data", (d: Buffer) => (received += d.length));
      socket.resume();
      expect({ head, next: [next.status, body.equals(PNG)], ended: await ended, cut: received < size, held: turns.heldBy("address:127.0.0.1") }).toEqual({
        head: "HTTP/1.1 200 OK",
        next: [200, true],
        ended: "closed",
        cut: true,
        held: 0,
      });
    } finally {
      await server.close();
      await bridge.close();
    }
  });
});
