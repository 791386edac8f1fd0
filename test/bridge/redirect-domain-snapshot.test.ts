import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RedirectDomainSnapshot } from "../../src/bridge/middleware/redirect-domain-snapshot.js";
import { openStateStore, type SqliteStateStore } from "../../src/store/state/sqlite-state-store.js";
import { TestClock, tempDir } from "./harness.js";

/**
 * The list a per-IP 429 reads its CORS headers from: never waited on, read again in the
 * background when stale, one read at a time. The store is the real SQLite one; the wrapper only
 * counts its reads and hands the test the pending one to await.
 */
describe("RedirectDomainSnapshot", () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: SqliteStateStore;
  let reads: Promise<string[]>[];
  let clock: TestClock;
  let snapshot: RedirectDomainSnapshot;

  beforeEach(() => {
    tmp = tempDir();
    store = openStateStore(join(tmp.dir, "state"));
    reads = [];
    clock = new TestClock();
    const counted = { redirectDomains: () => reads[reads.push(store.redirectDomains()) - 1]! };
    snapshot = new RedirectDomainSnapshot(counted, clock.now, 60_000);
  });
  afterEach(async () => {
    await store.close();
    tmp.cleanup();
  });

  it("answers at once with what it last read, and reads in the background when that is stale, once at a time", async () => {
    await store.addRedirectDomain("https://tool.example");
    expect(snapshot.known()).toEqual([]);
    expect(snapshot.known()).toEqual([]);
    expect(reads.length).toBe(1);
    await reads[0];
    await Promise.resolve();
    expect(snapshot.known()).toEqual(["https://tool.example"]);
    expect(reads.length).toBe(1);

    await store.addRedirectDomain("https://b.example");
    clock.advance(59_999);
    expect(snapshot.known()).toEqual(["https://tool.example"]);
    expect(reads.length).toBe(1);
    clock.advance(1);
    expect(snapshot.known()).toEqual(["https://tool.example"]);
    expect(reads.length).toBe(2);
    await reads[1];
    await Promise.resolve();
    expect(snapshot.known()).toEqual(["https://b.example", "https://tool.example"]);
  });

  it("takes the Origin check's reads as fresh ones", async () => {
    await store.addRedirectDomain("https://tool.example");
    expect(await snapshot.read()).toEqual(["https://tool.example"]);
    expect(snapshot.known()).toEqual(["https://tool.example"]);
    expect(reads.length).toBe(1);
  });
});
