import { writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createBridge } from "../../src/bridge/bridge.js";
import { listen, type ListenOptions, type RunningServer } from "../../src/bridge/http-server.js";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { MediaTags } from "../../src/bridge/web/preview/media-tags.js";
import { MediaTurns } from "../../src/bridge/web/preview/media-turns.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import type { Bridge } from "../../src/bridge/bridge.js";
import { writeRepo } from "../openapi/helpers.js";
import { type Harness, INIT, startBridge } from "./harness.js";

/**
 * What the server holds for answers its clients do not read (issue 25), on a real server and
 * raw sockets that read only when told:
 * - a caller (an address) holding more than its bound of unread answer bytes is refused its next
 *   answer, with a 429 naming the bound, until it reads them; another address is not;
 * - an answer handed whole is cut when taken too slowly; a medium, written a piece at a time as
 *   its reader takes it, is not, however slowly it is read.
 * Every step waits for an event (an answer's first bytes, a connection's close, the server's
 * count of answers in flight), and each decision is read from the bytes delivered.
 */
let h: Harness;
let root: string;
/** An answer handed whole, far larger than what the sockets' kernel buffers take (2-4 MB on loopback). */
const WHOLE = Buffer.alloc(16 * 1024 * 1024, 7);
/** A medium, sent from disk a piece at a time. */
const CLIP_BYTES = 32 * 1024 * 1024;

beforeAll(async () => {
  root = writeRepo({ "docs.json": { name: "Media", navigation: { groups: [{ group: "Start", pages: ["index"] }] } }, "index.mdx": "---\ntitle: Home\n---\n\nHello.\n" });
  writeFileSync(join(root, "clip.mp4"), Buffer.alloc(CLIP_BYTES, 9));
  h = await startBridge({ root });
});
afterAll(async () => {
  await h?.close();
});

/**
 * The bridge `serve --http` runs, with the site's pages and media, and one route more that answers
 * `WHOLE` handed over at once, as every MCP answer and page is.
 */
async function serve(options: Partial<ListenOptions>): Promise<{ server: RunningServer; bridge: Bridge }> {
  const bridge = createBridge({
    runtime: h.runtime,
    state: h.state,
    extraRoutes: [
      (app) => app.get("/whole.bin", () => new Response(WHOLE, { headers: { "Content-Type": "application/octet-stream" } })),
      (app, { clientIp }) =>
        app.route(
          "/",
          createWebApp({
            runtime: h.runtime,
            state: h.state,
            sessions: localSiteSessions(new SiteSessions()),
            limiter: new FixedWindowLimiter(3_600_000),
            projectId: "docs",
            publicUrl: undefined,
            clientIp,
            media: { tags: new MediaTags({ kept: 100, settledMs: 0, now: () => Date.now() + 60_000 }), turns: new MediaTurns() },
          }),
        ),
    ],
  });
  return { server: await listen(bridge, { host: "127.0.0.1", port: 0, ...options }), bridge };
}

/** A connection from `from` that sent `request` and reads only while told to (`resume`). */
class Reader {
  readonly socket: Socket;
  /** Bytes received, head included. */
  received = 0;
  private first: Buffer = Buffer.alloc(0);
  readonly head: Promise<string>;
  readonly closed: Promise<void>;

  constructor(port: number, request: string, from = "127.0.0.1") {
    this.socket = connect({ port, host: "127.0.0.1", localAddress: from });
    this.head = new Promise((resolve) => {
      this.socket.on("data", (d: Buffer) => {
        if (this.received === 0) {
          this.first = d;
          // Nothing more is read until the test says so.
          this.socket.pause();
          resolve(d.subarray(0, d.indexOf("\r\n")).toString());
        }
        this.received += d.length;
      });
    });
    this.closed = new Promise((resolve) => this.socket.once("close", () => resolve()));
    this.socket.on("error", () => {});
    this.socket.write(request);
  }

  /** Bytes of the head (its status line and headers, with the blank line after them). */
  get headBytes(): number {
    return this.first.indexOf("\r\n\r\n") + 4;
  }

  /** Read everything the server sends, up to its close or `bytes` of body. */
  async readAll(bodyBytes?: number): Promise<number> {
    const done = new Promise<void>((resolve) => {
      const check = (): void => {
        if (bodyBytes !== undefined && this.received - this.headBytes >= bodyBytes) resolve();
      };
      this.socket.on("data", check);
      check();
      void this.closed.then(resolve);
    });
    this.socket.resume();
    await done;
    return this.received - this.headBytes;
  }
}

/** A request's whole answer on its own connection from `from`: status line and body (the server closes it). */
async function exchange(port: number, request: string, from = "127.0.0.1"): Promise<{ status: string; body: string }> {
  const socket = connect({ port, host: "127.0.0.1", localAddress: from });
  const chunks: Buffer[] = [];
  socket.on("data", (d: Buffer) => chunks.push(d));
  socket.write(request);
  await new Promise((resolve) => socket.once("close", resolve));
  const text = Buffer.concat(chunks).toString();
  return { status: text.slice(0, text.indexOf("\r\n")), body: text.slice(text.indexOf("\r\n\r\n") + 4) };
}

const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
/** A POST of `body` (as written) to /mcp. */
const post = (body: string): string =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
const initialize = (): string => post(JSON.stringify(INIT));

const UNREAD =
  "too many bytes of this client's earlier answers are not yet read: at most 1048576 at once per client address (an IPv6 /64); read them, or close their connections, before asking for more";

describe("answers a client has not read", () => {
  it("are bounded per caller: past 1 MiB unread, its next answer is 429 too_many_unread_answers until it reads them; another address is answered", async () => {
    const { server, bridge } = await serve({ maxUnreadAnswerBytesPerCaller: 1024 * 1024 });
    try {
      // Its first bytes have arrived: the whole answer is handed to the socket, most of it held in the process.
      const hog = new Reader(server.port, get("/whole.bin").replace("Connection: close\r\n", ""));
      expect(await hog.head).toBe("HTTP/1.1 200 OK");

      const mcp = await exchange(server.port, initialize());
      const page = await exchange(server.port, get("/whole.bin"));
      // A refused JSON-RPC answer names its request's id (JSON-RPC 2.0 section 5), as the client
      // wrote it, each request's in a batch; null only where no id could be read (issue 25,
      // adversary round 26: it was always null).
      const bigId = await exchange(server.port, post('{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}'));
      const batch = await exchange(server.port, post('[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":7,"method":"ping"}]'));
      const noJson = await exchange(server.port, post('{"jsonrpc":"2.0","id":3,'));
      const refused = (id: string): string => `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify({ code: -32000, message: UNREAD, data: { reason: "too_many_unread_answers" } })}}`;
      expect([mcp, page, bigId, batch, noJson]).toEqual([
        { status: "HTTP/1.1 429 Too Many Requests", body: refused("1") },
        { status: "HTTP/1.1 429 Too Many Requests", body: JSON.stringify({ error: { code: "too_many_unread_answers", message: UNREAD } }) },
        { status: "HTTP/1.1 429 Too Many Requests", body: refused("12345678901234567890") },
        { status: "HTTP/1.1 429 Too Many Requests", body: `[${refused('"a"')},${refused("7")}]` },
        { status: "HTTP/1.1 429 Too Many Requests", body: refused("null") },
      ]);
      // Another address is answered meanwhile.
      const other = await exchange(server.port, initialize(), "127.0.0.2");
      expect([other.status, (JSON.parse(other.body) as { result: { protocolVersion: string } }).result.protocolVersion]).toEqual(["HTTP/1.1 200 OK", INIT.params.protocolVersion]);

      // Read, the hog's answer is whole, and the caller is answered again.
      expect(await hog.readAll(WHOLE.length)).toBe(WHOLE.length);
      const again = await exchange(server.port, initialize());
      expect(again.status).toBe("HTTP/1.1 200 OK");
      hog.socket.destroy();
    } finally {
      await server.close();
      await bridge.close();
    }
  });

  it("cuts an answer handed whole that is taken too slowly, and never a medium read as slowly", async () => {
    // No grace and 8 MiB/s: the whole answer must be taken within 2 s of being handed over. The
    // stalled-write cut (nothing taken for 60 s) is as by default.
    const { server, bridge } = await serve({ slowAnswerGraceMs: 0, answerMinBytesPerSec: 8 * 1024 * 1024 });
    try {
      const medium = new Reader(server.port, get("/clip.mp4"));
      const whole = new Reader(server.port, get("/whole.bin"), "127.0.0.2");
      expect([await medium.head, await whole.head]).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"]);
      // Neither reads on: the first answer the server cuts leaves one in flight. Before, the
      // medium was cut first: its due time counted from its request, with only what it had
      // written so far (a few MB, under its reader's kernel buffers) to allow for.
      await vi.waitFor(() => expect(server.inFlight()).toBe(1), { timeout: 120_000, interval: 20 });
      const mediumBody = await medium.readAll(CLIP_BYTES);
      const wholeBody = await whole.readAll();
      expect({ medium: mediumBody, wholeCut: wholeBody < WHOLE.length }).toEqual({ medium: CLIP_BYTES, wholeCut: true });
      medium.socket.destroy();
    } finally {
      await server.close();
      await bridge.close();
    }
  });
});
