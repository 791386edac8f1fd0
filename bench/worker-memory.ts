/**
 * What a worker of `serve --http --workers N` holds, step by step, in one process as `serve`
 * starts one from the persistent cache (issue 22): after each step a full GC, then the main
 * thread's heap (used, committed), its array buffers and the process's RSS.
 *
 *   node --expose-gc --import tsx bench/worker-memory.ts SITE CACHE_DIR [--snapshot FILE]
 *
 * CACHE_DIR must hold the site's cache (a first `serve` wrote it). Prints one JSON line per step.
 */
import { writeHeapSnapshot } from "node:v8";
import { localContext } from "../src/vfs/request-context.js";
import { ANONYMOUS } from "../src/vfs/access.js";
import { DocsRuntime } from "../src/engine/runtime.js";
import { SiteCache } from "../src/engine/site-cache.js";
import { siteLoadOptions } from "../src/cli/load-options.js";
import { userSeal } from "./user-seal.js";

const [site, cacheDir] = process.argv.slice(2) as [string, string];
const snapshotAt = process.argv.includes("--snapshot") ? process.argv[process.argv.indexOf("--snapshot") + 1] : undefined;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");
const mb = (x: number): number => Math.round(x / 1048576);
const step = (name: string): void => {
  gc();
  gc();
  const m = process.memoryUsage();
  console.log(JSON.stringify({ step: name, heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), arrayBuffersMb: mb(m.arrayBuffers), externalMb: mb(m.external), rssMb: mb(m.rss) }));
};
step("start");
const log = (message: string): void => void process.stderr.write(`${message}\n`);
const siteCache = new SiteCache({ dir: cacheDir, seal: userSeal(), root: site, log });
const io = { env: process.env, stderr: (s: string) => process.stderr.write(s) } as unknown as Parameters<typeof siteLoadOptions>[0];
const runtime = await DocsRuntime.load({ root: site, log, load: siteLoadOptions(io, site), siteCache, shellWorker: true, searchCache: 0 });
step("loaded");
await runtime.whenIndexed();
step("indexed");
const anonymous = localContext(ANONYMOUS);
runtime.prepareSearch(anonymous);
step("search prepared");
runtime.prepareShell(anonymous);
await runtime.whenShellLoaded();
step("shell loaded");
if (snapshotAt !== undefined) writeHeapSnapshot(snapshotAt);
await runtime.close();
