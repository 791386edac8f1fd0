import { createHash, randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSums } from "../../src/engine/site-cache-sums.js";

/** The site cache's checksums made by another thread from the open file (issue 22). */
describe("site cache sums in a thread", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const fileOf = (bytes: Buffer): string => {
    const dir = mkdtempSync(join(tmpdir(), "svc-sums-"));
    dirs.push(dir);
    const file = join(dir, "cache.bin");
    writeFileSync(file, bytes);
    return file;
  };
  const sha = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

  it("are the SHA-256 of each part, over slices larger than the thread's, and empty for a part past the end", () => {
    const bytes = randomBytes(9 * 1024 * 1024 + 123);
    const fd = openSync(fileOf(bytes), "r");
    try {
      const parts: [number, number][] = [
        [0, 100],
        [100, 0],
        [100, 9 * 1024 * 1024],
        [9 * 1024 * 1024 + 100, 23],
        [bytes.length - 10, 20],
      ];
      expect(startSums(fd, parts).wait()).toEqual([sha(bytes.subarray(0, 100)), sha(Buffer.alloc(0)), sha(bytes.subarray(100, 100 + 9 * 1024 * 1024)), sha(bytes.subarray(9 * 1024 * 1024 + 100)), ""]);
    } finally {
      closeSync(fd);
    }
  });

  it("give nothing for a file the thread cannot read (the reader then hashes the parts itself)", () => {
    // A folder opened for reading: its reads fail (EISDIR) in the thread as here.
    const fd = openSync(join(fileOf(Buffer.from("abc")), ".."), "r");
    try {
      expect(startSums(fd, [[0, 3]]).wait()).toBeUndefined();
    } finally {
      closeSync(fd);
    }
  });
});
