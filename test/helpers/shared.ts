import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { SHARED } from "./paths.js";

/**
 * Whether `../shared` (the real corpora and specs; `$SVC_SHARED` overrides) is beside the
 * repository. A fresh clone has nothing beside it: the tests that read it are then skipped, and
 * the run's first line says why (test/helpers/global-setup.ts); under CI=true its absence fails
 * the run instead, so CI never passes with them quietly skipped.
 */
export const SHARED_PRESENT = existsSync(join(SHARED, "corpora"));

/** `it` for a test that reads `../shared`. */
export const itShared = it.skipIf(!SHARED_PRESENT);

/** `describe` for a suite that reads `../shared`. */
export const describeShared = describe.skipIf(!SHARED_PRESENT);

/** The shared corpora whose docs.json the config tests check (valid by the schema, warnings only). */
export const REAL_SITES = ["cline", "open-wearables", "spree"] as const;
