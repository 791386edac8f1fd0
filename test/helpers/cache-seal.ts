import { sealWith } from "../../src/store/cache-key.js";

/** A fixed cache key's seal for tests that make caches in process (`SiteCache`, `openSpecCache`). */
export const TEST_SEAL = sealWith(Buffer.alloc(32, 7));
