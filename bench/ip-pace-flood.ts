// Security row 170 (adversary round 51 F5): 20 loopback addresses x 4 keep-alive connections GET
// /.well-known/mcp.json as fast as answered for DUR s; from another address, a preview search
// every 200 ms. Prints the search's p50 and max over the last 15 s, and the flood's rate and
// statuses in that span. Usage: `node bin/svc-mcp.js serve --http --dir fixtures/demo --state
// <empty dir> --port P --no-watch --no-fetch-remote`, then `npx tsx bench/ip-pace-flood.ts P 60`.
import http from "node:http";

const port = Number(process.argv[2]);
const DUR = Number(process.argv[3] ?? 60);
const end = Date.now() + DUR * 1000;
const tail = end - 15_000;
const statuses: Record<number, number> = {};
let flood = 0;

function get(options: http.RequestOptions): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, ...options }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
  });
}

async function loop(address: string): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: address });
  while (Date.now() < end) {
    const status = await get({ path: "/.well-known/mcp.json", agent });
    if (Date.now() >= tail) {
      statuses[status] = (statuses[status] ?? 0) + 1;
      flood++;
    }
  }
}

const latencies: number[] = [];
async function probe(): Promise<void> {
  for (let n = 0; Date.now() < end; n++) {
    const start = performance.now();
    await get({ localAddress: "127.0.0.9", agent: false, path: `/_svc/preview/search?query=${encodeURIComponent(`store objects bucket ${n}`)}&pageSize=10` });
    if (Date.now() >= tail) latencies.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const loops: Promise<void>[] = [];
for (let i = 0; i < 20; i++) for (let k = 0; k < 4; k++) loops.push(loop(`127.0.0.${101 + i}`));
await Promise.all([...loops, probe()]);
latencies.sort((a, b) => a - b);
console.log(JSON.stringify({ searchP50: Math.round(latencies[latencies.length >> 1] ?? 0), searchMax: Math.round(latencies.at(-1) ?? 0), probes: latencies.length, floodPerSecLast15s: Math.round(flood / 15), statuses }));
