import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BodySpool } from "../../src/engine/site-cache-spool.js";

/**
 * The cache write's body spool (`site-cache-spool.ts`, issue 22): the serialized body goes to an
 * unlinked file as it is made, not into memory, and is copied into the cache file after its
 * header, byte for byte.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the cache write's body spool", () => {
  it("gives back every byte appended, in order, in pieces, and leaves no file in the folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-spool-"));
    dirs.push(dir);
    const spool = await BodySpool.open(dir);
    // Removed from the folder as soon as it is open: a process killed now leaves nothing of it.
    expect(readdirSync(dir)).toEqual([]);
    const parts = [Buffer.from("header-less body "), Buffer.alloc(5 * 1024 * 1024, 7), Buffer.from([0, 255, 1])];
    for (const p of parts) await spool.append(p);
    expect(spool.bytes).toBe(parts.reduce((n, p) => n + p.length, 0));
    const out: Buffer[] = [];
    let steps = 0;
    await spool.copyTo(
      async (bytes) => void out.push(Buffer.from(bytes)),
      async () => void steps++,
    );
    await spool.close();
    expect(Buffer.concat(out).equals(Buffer.concat(parts))).toBe(true);
    // 4 MB pieces: two for 5 MB and 20 bytes.
    expect([out.length, steps]).toEqual([2, 2]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("an empty spool copies nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-spool-"));
    dirs.push(dir);
    const spool = await BodySpool.open(dir);
    const out: Uint8Array[] = [];
    await spool.copyTo(async (bytes) => void out.push(bytes), async () => {});
    await spool.close();
    expect(out).toEqual([]);
  });
});
