import { DocsRuntime } from "../../../src/engine/runtime.js";
import { localContext } from "../../../src/vfs/request-context.js";

/**
 * What learning the site vectors after ready costs a server, and that searches meanwhile do not
 * wait for it (issue 24, twenty-third round): loads `<site dir>` as `serve` does
 * (`learnVectors`), then measures the CPU and wall time from ready to `whenVectorsLearned()` and
 * the wall time of searches (each one new, not a kept result) issued while the vectors are learned.
 *
 *   npx tsx bench/eval/external/sv-learn-cost.ts <site dir> [query]
 */
const [root, query = "how do I get started"] = process.argv.slice(2);
if (root === undefined) throw new Error("usage: sv-learn-cost.ts <site dir> [query]");
const runtime = await DocsRuntime.load({ root, learnVectors: true });
await runtime.whenIndexed();
const cpu = process.cpuUsage();
const started = performance.now();
const learned = runtime.whenVectorsLearned();
let done = false;
void learned.then(() => (done = true));
const waits: number[] = [];
while (!done) {
  const t = performance.now();
  await runtime.search(localContext(), { query: `${query} ${waits.length}` });
  waits.push(performance.now() - t);
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const used = process.cpuUsage(cpu);
waits.sort((a, b) => a - b);
console.log(`learned ${String(await learned)} in ${((performance.now() - started) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU (with the searches); ${waits.length} searches meanwhile, wall ms p50 ${(waits[Math.floor(waits.length / 2)] ?? 0).toFixed(1)} max ${(waits.at(-1) ?? 0).toFixed(1)}`);
await runtime.close();
