// A start that is killed while it writes its site cache (test/tools/site-cache.test.ts):
//   node --import tsx test/helpers/site-cache-killed.ts ROOT CACHE_DIR
// Loads ROOT with a cache in CACHE_DIR, and holds the cache's write once it is writing the file,
// saying "writing" on stdout: the test kills the process there.
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SiteCache } from "../../src/engine/site-cache.js";
import { TEST_SEAL } from "./cache-seal.js";

const [root, dir] = process.argv.slice(2) as [string, string];
const log = (message: string): void => void process.stderr.write(`${message}\n`);
const yieldTurn = async (phase: string): Promise<void> => {
  if (phase !== "file") return new Promise((resolve) => setImmediate(resolve));
  process.stdout.write("writing\n");
  return new Promise(() => {});
};
const runtime = await DocsRuntime.load({ root, log, siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log, writeSliceMs: 0, yieldTurn }) });
await runtime.whenIndexed();
// Alive as a server is (its connection holds it) until the write begins and the test kills it.
setInterval(() => {}, 60_000);
