// The flood of adversary round 51 F6 against a running `serve --http`, and what newcomers get
// (docs/security.md row 165). Start a server with the per-IP and tool limits off, e.g.
//   node bin/svc-mcp.js serve --http --port 0 --no-watch --dir fixtures/demo --state /tmp/s \
//     --project-id docs --rate-limit ip=off --rate-limit search=off --rate-limit filesystem=off
// then `npx tsx bench/listen-flood.ts http://127.0.0.1:<port>`. Loopback addresses 127.0.1.1-80
// open quiet 2026-07-28 `subscriptions/listen` streams: the first 10 their 64 each (the
// per-caller bound), 70 more one each (newcomers to the connection bound); then 5 newcomers
// (127.0.2.x) send `tools/list`; then every flood address asks for its streams again (a client
// told to listen again) and 5 more newcomers (127.0.3.x) ask. Prints statuses and times.
import { request } from "node:http";

const origin = process.argv[2];
if (origin === undefined) throw new Error("usage: listen-flood.ts ORIGIN");

const MODERN = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "flood", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" };
let statuses: Record<string, number> = {};
let shed = 0;

/** A listen stream from `from`, left open; resolves at its acknowledgement or its refusal. */
function listen(from: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const req = request(`${origin}/mcp`, { method: "POST", agent: false, localAddress: from, headers: { ...HEADERS, "mcp-method": "subscriptions/listen" } }, (res) => {
      let text = "";
      let counted = false;
      const count = () => {
        if (counted) return;
        counted = true;
        const status = String(res.statusCode);
        statuses[status] = (statuses[status] ?? 0) + 1;
        resolve();
      };
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("\n\n")) count();
      });
      res.on("end", () => {
        if (text.includes('"resultType":"complete"')) shed++;
        count();
      });
      res.on("error", count);
    });
    req.on("error", () => {
      statuses.error = (statuses.error ?? 0) + 1;
      resolve();
    });
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: MODERN } }));
  });
}

/** A newcomer's `tools/list` on a connection of its own: status and milliseconds. */
function toolsList(from: string): Promise<string> {
  const start = performance.now();
  return new Promise<string>((resolve) => {
    const req = request(`${origin}/mcp`, { method: "POST", agent: false, localAddress: from, headers: { ...HEADERS, accept: "application/json", "mcp-method": "tools/list" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(`${res.statusCode} ${Math.round(performance.now() - start)}ms`));
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve(`${e.code ?? "error"} ${Math.round(performance.now() - start)}ms`));
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN } }));
  });
}

async function flood(): Promise<void> {
  for (let a = 0; a < 10; a++) for (let k = 0; k < 4; k++) await Promise.all(Array.from({ length: 16 }, () => listen(`127.0.1.${a + 1}`)));
  for (let a = 10; a < 80; a++) await listen(`127.0.1.${a + 1}`);
}

async function newcomers(net: number): Promise<string[]> {
  const answers: string[] = [];
  for (let i = 0; i < 5; i++) answers.push(await toolsList(`127.0.${net}.${i + 1}`));
  return answers;
}

await flood();
const first = { streams: statuses, shed, newcomers: await newcomers(2) };
statuses = {};
await flood();
const again = { streams: statuses, shed, newcomers: await newcomers(3) };
console.log(JSON.stringify({ first, again }));
process.exit(0);
