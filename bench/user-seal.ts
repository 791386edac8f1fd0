import { type CacheSeal, cacheSeal } from "../src/store/cache-key.js";

/** This user's cache seal, as `serve` has it (a bench's caches are read back by later runs and processes). */
export function userSeal(): CacheSeal {
  const seal = cacheSeal(process.env);
  if (typeof seal === "string") throw new Error(`no cache seal: ${seal}`);
  return seal;
}
