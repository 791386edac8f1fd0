import { connect } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/bridge/http-server.js";
import { type Harness, startBridge } from "./harness.js";

/**
 * A connection that never sends a byte is closed (adversary, 2026-11-29): Node's own timeouts
 * start with a request or after an answer, so a thousand silent connections from one address
 * were held until their client closed them, and with the server's file descriptors taken other
 * clients went unanswered. A second server on the same bridge is given a short limit here (the
 * default is `LIMITS.bridge.firstRequestMs`); the harness's own server, at the default, answers
 * every other test's requests.
 */
let h: Harness;
let quick: RunningServer;
beforeAll(async () => {
  h = await startBridge({});
  quick = await listen(h.bridge, { host: "127.0.0.1", port: 0, firstRequestMs: 300 });
});
afterAll(async () => {
  await quick?.close();
  await h?.close();
});

it("closes a connection that sends nothing, having written nothing to it", async () => {
  const socket = connect(quick.port, "127.0.0.1");
  const received: Buffer[] = [];
  socket.on("data", (b: Buffer) => received.push(b));
  const ended = await new Promise<string>((resolve) => {
    socket.once("close", () => resolve("closed by the server"));
    socket.once("error", (e) => resolve(`error ${e.message}`));
  });
  expect({ ended, received: Buffer.concat(received).toString() }).toEqual({ ended: "closed by the server", received: "" });
});
