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

  it("read the parts given memory into it (shared memory the reader then uses), and hash those bytes", () => {
    const bytes = randomBytes(5 * 1024 * 1024 + 7);
    const fd = openSync(fileOf(bytes), "r");
    try {
      const into = [undefined, new Uint8Array(new SharedArrayBuffer(4 * 1024 * 1024 + 5)), new Uint8Array(new SharedArrayBuffer(0))];
      const sums = startSums(fd, [[0, 1000], [1000, 4 * 1024 * 1024 + 5], [bytes.length, 0]], into);
      expect(sums.waitRead()).toBe(true);
      expect(Buffer.from(into[1] as Uint8Array).equals(bytes.subarray(1000, 1000 + 4 * 1024 * 1024 + 5))).toBe(true);
      expect(sums.wait()).toEqual([sha(bytes.subarray(0, 1000)), sha(bytes.subarray(1000, 1000 + 4 * 1024 * 1024 + 5)), sha(Buffer.alloc(0))]);
    } finally {
      closeSync(fd);
    }
  });

  it("say so when a part given memory cannot be read whole (the file ends first): the reader then reads it itself", () => {
    const bytes = randomBytes(100);
    const fd = openSync(fileOf(bytes), "r");
    try {
      const sums = startSums(fd, [[0, 10], [50, 60]], [undefined, new Uint8Array(new SharedArrayBuffer(60))]);
      expect(sums.waitRead()).toBe(false);
      expect(sums.wait()).toEqual([sha(bytes.subarray(0, 10)), ""]);
    } finally {
      closeSync(fd);
    }
  });

  it("give nothing for a file the thread cannot read (the reader then hashes the parts itself)", () => {
    // A folder opened for reading: its reads fail (EISDIR) in the thread as here.
    const fd = openSync(join(fileOf(Buffer.from("abc")), ".."), "r");
    try {
      const sums = startSums(fd, [[0, 3]], [new Uint8Array(new SharedArrayBuffer(3))]);
      expect(sums.waitRead()).toBe(false);
      expect(sums.wait()).toBeUndefined();
    } finally {
      closeSync(fd);
    }
  });
});
