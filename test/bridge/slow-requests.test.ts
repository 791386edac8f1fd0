import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/bridge/http-server.js";
import { type Harness, startBridge } from "./harness.js";

/**
 * A request must be whole (headers and body) within `LIMITS.bridge.requestMs` of its first byte
 * (issue 25, adversary F1): Node's own deadline, 300 s checked every 30 s, let a client that
 * sent a byte of its body every 10 s hold its connection 5.5 minutes, and with it a playground
 * relay place (the relay now reads the body before taking one: test/bridge/relay-limits.test.ts).
 * Past the deadline: `408 request_timeout` in the path's error shape, and the connection closed
 * even while the client keeps its side open and sends on. A second server on the same bridge is
 * given a short deadline here; every wait is for an event (an answer, a close), never for time.
 */
let h: Harness;
let quick: RunningServer;
beforeAll(async () => {
  h = await startBridge({ apps: true });
  quick = await listen(h.bridge, { host: "127.0.0.1", port: 0, requestMs: 300 });
});
afterAll(async () => {
  await quick?.close();
  await h?.close();
});

const HOST = "Host: 127.0.0.1\r\n";
const MESSAGE = "the request did not arrive within 0.3 s of its first byte (its headers and its whole body); send it again, all at once";

/**
 * Send `head` (an unfinished request) on a connection of a client that never closes its side,
 * and read the server's answer to its end; then the client sends on, a byte at a time, until the
 * server's closed connection refuses it (`closed`), or 100 bytes went through (`still open`).
 */
async function unfinished(head: string): Promise<{ status: number; headers: Record<string, string>; body: unknown; then: string }> {
  const socket = connect({ port: quick.port, host: "127.0.0.1", allowHalfOpen: true });
  socket.on("error", () => {});
  let out = "";
  socket.on("data", (d: Buffer) => (out += d.toString("utf8")));
  await once(socket, "connect");
  socket.write(head);
  await once(socket, "end");
  const then = await sendOn(socket);
  const [top = "", body = ""] = out.split("\r\n\r\n");
  const [status = "", ...lines] = top.split("\r\n");
  const headers = Object.fromEntries(lines.filter((l) => !/^date:/i.test(l)).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return { status: Number(status.split(" ")[1]), headers, body: JSON.parse(body) as unknown, then };
}

function sendOn(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once("close", () => resolve("closed"));
    let sent = 0;
    const next = (): void => {
      if (socket.destroyed) return;
      if (sent++ === 100) {
        socket.destroy();
        resolve("still open");
        return;
      }
      socket.write("x", (error) => (error == null ? next() : undefined));
    };
    next();
  });
}

it("answers a body that does not arrive in time 408 in the MCP endpoint's shape, and closes the connection", async () => {
  const head = `POST /mcp HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 60000\r\n\r\n{"jsonrpc":"2.0",`;
  expect(await unfinished(head)).toEqual({
    status: 408,
    headers: { "content-type": "application/json", "content-length": expect.any(String), connection: "close" },
    body: { jsonrpc: "2.0", id: null, error: { code: -32000, message: MESSAGE, data: { reason: "request_timeout" } } },
    then: "closed",
  });
});

it("answers a relay call whose body does not arrive in time 408 {error: {code, message}}, and closes the connection", async () => {
  const head = `POST /_svc/api/request HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`;
  expect(await unfinished(head)).toEqual({
    status: 408,
    headers: { "content-type": "application/json", "content-length": expect.any(String), connection: "close" },
    body: { error: { code: "request_timeout", message: MESSAGE } },
    then: "closed",
  });
});

it("answers headers that do not arrive in time 408 too (no path known yet: the API's shape)", async () => {
  expect(await unfinished(`POST /mcp HTTP/1.1\r\n${HOST}X-Slow: 1`)).toEqual({
    status: 408,
    headers: { "content-type": "application/json", "content-length": expect.any(String), connection: "close" },
    body: { error: { code: "request_timeout", message: MESSAGE } },
    then: "closed",
  });
});

it("leaves an idle keep-alive connection be: the deadline runs from a request's first byte", async () => {
  const socket = connect(quick.port, "127.0.0.1");
  socket.on("error", () => {});
  let out = "";
  socket.on("data", (d: Buffer) => (out += d.toString("utf8")));
  const request = `GET /.well-known/mcp HTTP/1.1\r\n${HOST}\r\n`;
  const answered = async (count: number): Promise<void> => {
    while ((out.match(/HTTP\/1\.1 200 /g) ?? []).length < count) await once(socket, "data");
  };
  socket.write(request);
  await answered(1);
  // Another client's request is cut: the deadline has passed (and been checked) since this
  // connection's last request ended, while it sat idle.
  expect((await unfinished(`POST /mcp HTTP/1.1\r\n${HOST}X-Slow: 1`)).status).toBe(408);
  socket.write(request);
  await answered(2);
  expect(socket.destroyed).toBe(false);
  socket.destroy();
});
