/**
 * Requests pipelined on one connection (HTTP/1.1 lets a client send them all before reading an
 * answer): each is answered, in order, and listening for the connection's end costs the socket
 * one pair of listeners whatever their number. A pair per request made Node print a listener-leak
 * warning on stderr from the eleventh (adversary round 27).
 */
import { connect as tcpConnect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, SEARCH, startBridge } from "./harness.js";

const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "pipeline-test", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const COUNT = 24;

/** `COUNT` search calls written at once on one socket; resolves to the ids of the answers, in the order they came. */
function pipelined(h: Harness): Promise<number[]> {
  const url = new URL(h.urls.mcp);
  const requests = Array.from({ length: COUNT }, (_, i) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: SEARCH, arguments: { query: `install step ${i}` }, _meta: ENVELOPE } });
    const headers = {
      Host: url.host,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": SEARCH,
      "Content-Length": String(Buffer.byteLength(body)),
    };
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    return `POST ${url.pathname} HTTP/1.1\r\n${head}\r\n${body}`;
  });
  return new Promise((resolve, reject) => {
    let text = "";
    const socket = tcpConnect(Number(url.port), url.hostname, () => socket.write(requests.join("")));
    socket.on("error", reject);
    socket.on("data", (d: Buffer) => {
      text += d.toString();
      const ids = [...text.matchAll(/"resultType":"complete"\},"jsonrpc":"2\.0","id":(\d+)\}/g)].map((m) => Number(m[1]));
      if (ids.length < COUNT) return;
      socket.destroy();
      resolve(ids);
    });
  });
}

describe("requests pipelined on one connection", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge({});
  });
  afterAll(async () => {
    await h?.close();
  });

  it("are each answered, in order, with no listener-leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      expect(await pipelined(h)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
      // Warnings are emitted on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
