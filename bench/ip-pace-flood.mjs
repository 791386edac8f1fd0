// Usage: `node bin/svc-mcp.js serve --http --dir fixtures/demo --state <empty dir> --port P --no-watch --no-fetch-remote`, then `node bench/ip-pace-flood.mjs P 60`.
// Row 170 check: 20 loopback addresses x 4 keep-alive connections GET /.well-known/mcp.json as fast as
// answered for DUR s; from another address, a preview search every 200 ms; report search p50/max over the
// last 15 s, the flood's rate and statuses in that span.
import http from "node:http";
const port = Number(process.argv[2]); const DUR = Number(process.argv[3] ?? 60);
const t0 = Date.now(); const end = t0 + DUR * 1000; const tail = end - 15_000;
const statuses = {}; let flood = 0;
async function loop(addr) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: addr });
  while (Date.now() < end) {
    const s = await new Promise((res) => { const r = http.get({ host: "127.0.0.1", port, path: "/.well-known/mcp.json", agent }, (x) => { x.resume(); x.on("end", () => res(x.statusCode)); }); r.on("error", () => res(0)); });
    if (Date.now() >= tail) { statuses[s] = (statuses[s] ?? 0) + 1; flood++; }
  }
}
const lat = [];
async function probe() {
  let n = 0;
  while (Date.now() < end) {
    const s = performance.now();
    await new Promise((res) => { http.get({ host: "127.0.0.1", port, localAddress: "127.0.0.9", path: `/_svc/preview/search?query=${encodeURIComponent("store objects bucket " + (n++))}&pageSize=10`, agent: false }, (x) => { x.resume(); x.on("end", res); }).on("error", res); });
    if (Date.now() >= tail) lat.push(performance.now() - s);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const loops = [];
for (let i = 0; i < 20; i++) for (let k = 0; k < 4; k++) loops.push(loop(`127.0.0.${101 + i}`));
await Promise.all([...loops, probe()]);
lat.sort((a, b) => a - b);
console.log(JSON.stringify({ searchP50: Math.round(lat[lat.length >> 1]), searchMax: Math.round(lat.at(-1)), probes: lat.length, floodPerSecLast15s: Math.round(flood / 15), statuses }));
