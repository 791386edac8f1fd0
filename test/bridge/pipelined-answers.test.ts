import { connect, createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/bridge/http-server.js";
import { stopReading } from "../../src/cli/connection-handout.js";
import { type Harness, openSession, PROTOCOL, startBridge } from "./harness.js";

/**
 * Requests a client pipelines (sends before the answers to the ones before), where node:http
 * leaves things wrong (src/bridge/pipelined-answers.ts): an answer queued behind another got no
 * `close` when the connection closed, so it stayed counted in flight for ever; and behind an
 * answer this server ends the connection with (a worker over its share of connections), later
 * requests were run and never answered (adversary round 33).
 */

let h: Harness | undefined;
let served: RunningServer | undefined;
let front: Server | undefined;
afterEach(async () => {
  await served?.close();
  front?.close();
  await h?.close();
  h = undefined;
  served = undefined;
  front = undefined;
});

const opened = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const s = connect({ port, host: "127.0.0.1" });
    s.once("connect", () => resolve(s));
    s.once("error", reject);
  });

/** Resolves once `test` holds, looked at each turn of the loop: an event this server has no signal for. */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setImmediate(resolve));
}

const post = (path: string, body: string, headers: Record<string, string> = {}): string =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe("pipelined requests", () => {
  it("answers queued behind an event stream stop counting in flight when the client hangs up", async () => {
    h = await startBridge({ rateLimits: ["ip=off", "search=off"] });
    served = await listen(h.bridge, { host: "127.0.0.1", port: 0 });
    const session = await openSession(`${served.origin}/mcp`);
    const socket = await opened(served.port);
    const list = (id: number): string => post("/mcp", JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }), { "Mcp-Session-Id": session, "Mcp-Protocol-Version": PROTOCOL });
    // The session's event stream never ends: the two calls after it are answered into a queue behind it.
    socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${session}\r\nMcp-Protocol-Version: ${PROTOCOL}\r\n\r\n${list(1)}${list(2)}`);
    const running = served;
    await until(() => running.inFlight() === 2);
    socket.destroy();
    await until(() => running.inFlight() === 0);
    expect(running.inFlight()).toBe(0);
  });

  it("behind an answer that ends the connection, later requests are neither run nor counted", async () => {
    h = await startBridge({ apps: true, rateLimits: ["ip=off", "feedback=off", "feedback-bytes=off"] });
    const harness = h;
    let take: ((socket: Socket) => void) | undefined;
    // Handed on as a worker gets a connection: nothing read (connection-handout.ts).
    front = createServer((socket) => take?.(stopReading(socket)));
    await new Promise<void>((resolve) => front?.listen(0, "127.0.0.1", resolve));
    const port = (front.address() as { port: number }).port;
    served = await listen(h.bridge, {
      host: "127.0.0.1",
      port: 0,
      connections: { open: async (given) => ((take = given), port), close: () => (take = undefined), overShare: () => true },
    });
    const rating = (n: number): string => post("/v1/feedback/docs/contextual", JSON.stringify({ path: "/quickstart", helpful: true, comment: `pipelined ${n}` }));
    const socket = await opened(port);
    let got = "";
    socket.on("data", (d: Buffer) => (got += d.toString()));
    // The server ends its side after the one answer.
    const ended = new Promise((resolve) => socket.once("end", resolve));
    socket.write(rating(1) + rating(2) + rating(3));
    await ended;
    // One answer, the connection's last; only its request was run.
    expect(got.match(/^HTTP\/1\.1 \d+ .*$/gm)).toEqual(["HTTP/1.1 201 Created"]);
    expect(got).toMatch(/\r\nConnection: close\r\n/);
    const comments = async (): Promise<string[]> => (await harness.feedback!.list({ projectId: "docs", limit: 10 })).feedback.map((e) => (e as { comment?: string }).comment ?? "").sort();
    expect(await comments()).toEqual(["pipelined 1"]);
    expect(served.inFlight()).toBe(0);
    socket.destroy();
  });

  it("bytes the parser refuses after whole requests are answered 400 after those requests' answers, in order", async () => {
    // Before, the 400 went out at once: the client read it as the answer to its valid request,
    // which had run (its feedback stored) and whose answer was lost (adversary round 34).
    h = await startBridge({ apps: true, rateLimits: ["ip=off", "feedback=off", "feedback-bytes=off"] });
    const harness = h;
    served = await listen(h.bridge, { host: "127.0.0.1", port: 0 });
    const rating = (n: number): string => post("/v1/feedback/docs/contextual", JSON.stringify({ path: "/quickstart", helpful: true, comment: `then garbage ${n}` }));
    const socket = await opened(served.port);
    let got = "";
    socket.on("data", (d: Buffer) => (got += d.toString()));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(`${rating(1)}${rating(2)}GARBAGE\r\n\r\n`);
    await closed;
    // Each status line, whether or not an answer's body (no newline at its end) comes before it.
    expect(got.match(/HTTP\/1\.1 \d+ [A-Za-z ]+(?=\r\n)/g)).toEqual(["HTTP/1.1 201 Created", "HTTP/1.1 201 Created", "HTTP/1.1 400 Bad Request"]);
    expect(got.slice(got.lastIndexOf("\r\n\r\n") + 4)).toBe(JSON.stringify({ error: { code: "bad_request", message: "the request is not valid HTTP/1.1 (HPE_INVALID_METHOD)" } }));
    const comments = (await harness.feedback!.list({ projectId: "docs", limit: 10 })).feedback.map((e) => (e as { comment?: string }).comment ?? "").sort();
    expect(comments).toEqual(["then garbage 1", "then garbage 2"]);
    expect(served.inFlight()).toBe(0);
  });
});
