// Another client (issue 25): one 2025 MCP session alternating `ping` and a `tools/call` (`ls /`),
// 50 ms apart, until DONEFILE exists (at least 10 of each); three of each first, then READYFILE.
//   node --import tsx victim.ts MCP_URL DONEFILE READYFILE
import { existsSync, writeFileSync } from "node:fs";

const [url, until, ready] = process.argv.slice(2) as [string, string, string];
const base: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const init = await fetch(url, {
  method: "POST",
  headers: base,
  body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "victim", version: "1" } } }),
});
const headers = { ...base, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
await init.text();
await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
let id = 1;
const call = async (method: string, params: unknown): Promise<{ result?: { tools?: { name: string }[]; isError?: boolean } }> => {
  const r = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }) });
  return JSON.parse(await r.text()) as { result?: { tools?: { name: string }[] } };
};
const fsTool = (await call("tools/list", {})).result?.tools?.find((t) => t.name.startsWith("query_docs_filesystem"))?.name ?? "";
const ls = () => call("tools/call", { name: fsTool, arguments: { command: "ls /" } });
for (let k = 0; k < 3; k++) {
  await call("ping", {});
  await ls();
}
writeFileSync(ready, "1");
const pings: number[] = [];
const calls: number[] = [];
while (!existsSync(until) || pings.length < 10) {
  let t = performance.now();
  await call("ping", {});
  pings.push(performance.now() - t);
  t = performance.now();
  if ((await ls()).result?.isError === true) console.log("the tool call failed");
  calls.push(performance.now() - t);
  await new Promise((r) => setTimeout(r, 50));
}
const q = (a: number[]): string => {
  a.sort((x, y) => x - y);
  const at = (p: number): string => (a[Math.min(a.length - 1, Math.floor(a.length * p))] ?? 0).toFixed(0);
  return `p50 ${at(0.5)} p95 ${at(0.95)} max ${at(1)} ms (${a.length})`;
};
console.log(`victim ping ${q(pings)} | tools/call ls ${q(calls)}`);
