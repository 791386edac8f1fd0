// Preload for bench/ready-http.ts --memory (issue 22): plain JavaScript, --require'd by NODE_OPTIONS.
// Preload (NODE_OPTIONS=--require): on SIGUSR2, a full GC then this process's memory by kind to
// $MEMPROBE_DIR/mem-<pid>.json (main thread's isolate; worker threads' heaps are in RSS only).
const { isMainThread } = require("node:worker_threads");
if (isMainThread) {
  const v8 = require("node:v8");
  const vm = require("node:vm");
  const fs = require("node:fs");
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  process.on("SIGUSR2", () => {
    gc();
    const m = process.memoryUsage();
    const h = v8.getHeapStatistics();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_used_size / 1048576)]));
    const mb = (x) => Math.round(x / 1048576);
    fs.writeFileSync(`${process.env.MEMPROBE_DIR}/mem-${process.pid}.json`, JSON.stringify({ pid: process.pid, rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), mallocedMemory: mb(h.malloced_memory), externalMemory: mb(h.external_memory), spaces }));
  });
}
