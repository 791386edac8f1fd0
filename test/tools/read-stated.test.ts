import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GREW, readStated } from "../../src/engine/read-stated.js";

/**
 * A file read to the size its stat gave, one byte past it asked for in the same read
 * (`read-stated.ts`, issue 22): the whole file, one that grew since the stat told, one that shrank
 * read as it is now.
 */
describe("readStated", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A file holding `text`, open, with its size by its stat. */
  function opened(text: string): { fd: number; size: number; path: string } {
    const dir = mkdtempSync(join(tmpdir(), "svc-read-stated-"));
    dirs.push(dir);
    const path = join(dir, "page.mdx");
    writeFileSync(path, text);
    const fd = openSync(path, "r");
    return { fd, size: fstatSync(fd).size, path };
  }

  it("reads the whole file, and only its bytes", () => {
    const { fd, size } = opened("# Title\n\nBody text.\n");
    const room = Buffer.alloc(size + 1, 0x2a);
    try {
      expect(readStated(fd, size, room)).toBe(20);
      expect(room.toString("utf8")).toBe("# Title\n\nBody text.\n*");
    } finally {
      closeSync(fd);
    }
  });

  it("reads an empty file as empty", () => {
    const { fd, size } = opened("");
    try {
      expect(readStated(fd, size, Buffer.alloc(1))).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it("tells a file that grew since its stat, by one byte or many", () => {
    const { fd, size, path } = opened("0123456789");
    try {
      writeFileSync(path, "0123456789A");
      expect(readStated(fd, size, Buffer.alloc(size + 1))).toBe(GREW);
      writeFileSync(path, "0123456789".repeat(100));
      expect(readStated(fd, size, Buffer.alloc(size + 1))).toBe(GREW);
    } finally {
      closeSync(fd);
    }
  });

  it("reads a file that shrank since its stat as it is now", () => {
    const { fd, size, path } = opened("0123456789");
    try {
      truncateSync(path, 4);
      const room = Buffer.alloc(size + 1);
      expect(readStated(fd, size, room)).toBe(4);
      expect(room.subarray(0, 4).toString()).toBe("0123");
    } finally {
      closeSync(fd);
    }
  });

  it("refuses room too small for the byte past the size", () => {
    const { fd, size } = opened("0123456789");
    try {
      expect(() => readStated(fd, size, Buffer.alloc(size))).toThrow(new RangeError("room for 10 bytes; a 10-byte file needs 11"));
    } finally {
      closeSync(fd);
    }
  });
});
