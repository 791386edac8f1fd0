import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe } from "vitest";
import { parseStateLocation } from "../../../src/store/location.js";
import { type OpenStoresOptions, type Stores, openStores } from "../../../src/store/stores.js";
import { TEST_PASSWORD_COST } from "../../bridge/harness.js";
import { describePostgres, freshDatabase } from "../../helpers/postgres.js";

/** The stores a state use case test drives, and what the backend holds after it. */
export interface Backend {
  readonly stores: Stores;
  /** Whether a store file exists (SQLite; always true for PostgreSQL, whose tables exist once migrated). */
  readonly created: (file: string) => boolean;
}

/**
 * Run `suite` against each real backend: SQLite files in a fresh temp folder, and a fresh
 * PostgreSQL database (skipped, saying why, where the test server does not answer). The state
 * store's clock is `now` and its password hashing is cheap.
 */
export function describeBackends(name: string, now: () => number, suite: (backend: () => Backend, engine: "sqlite" | "postgres") => void): void {
  const options: OpenStoresOptions = { state: { now, passwordCost: TEST_PASSWORD_COST } };
  describe(`${name} (SQLite)`, () => {
    let dir: string;
    let backend: Backend;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "svc-mcp-use-case-"));
      backend = { stores: openStores(parseStateLocation(dir, "/"), options), created: (file) => existsSync(join(dir, file)) };
    });
    afterEach(async () => {
      await backend.stores.close();
      rmSync(dir, { recursive: true, force: true });
    });
    suite(() => backend, "sqlite");
  });
  describePostgres(`${name} (PostgreSQL)`, () => {
    let db: { url: string; drop: () => Promise<void> };
    let backend: Backend;
    beforeEach(async () => {
      db = await freshDatabase();
      backend = { stores: openStores(parseStateLocation(db.url, "/"), options), created: () => true };
    });
    afterEach(async () => {
      await backend.stores.close();
      await db.drop();
    });
    suite(() => backend, "postgres");
  });
}
