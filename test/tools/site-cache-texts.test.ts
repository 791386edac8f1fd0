import { describe, expect, it } from "vitest";
import { PIECE_BYTES, packTexts, unpackTexts } from "../../src/engine/site-cache-texts.js";

/** The site cache's UTF-8 texts, deflated in pieces (issue 22, `site-cache-texts.ts`). */
describe("packTexts / unpackTexts", () => {
  const parts = [Buffer.from("a — b ".repeat(100_000)), Buffer.from("x"), new Uint8Array(0), Buffer.from("é".repeat(PIECE_BYTES))];
  const whole = Buffer.concat(parts);

  it("give back the texts' bytes one after another, across pieces, in shared memory", async () => {
    const { pieces, ends } = await packTexts(parts, async () => {});
    expect(ends.length).toBe(Math.ceil(whole.length / PIECE_BYTES));
    const out = unpackTexts(Buffer.concat(pieces), ends, whole.length);
    expect(out.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.from(out).equals(whole)).toBe(true);
  });

  it("hand each piece to `emit` as it is made and keep none, the same pieces in the same order", async () => {
    // The cache writer spools them (issue 22): held until the file was written, they were
    // ~100 MB of a 50,000-page write's peak.
    const kept = await packTexts(parts, async () => {});
    const emitted: Buffer[] = [];
    const { pieces, ends } = await packTexts(parts, async () => {}, async (piece) => void emitted.push(piece));
    expect(pieces).toEqual([]);
    expect(Buffer.concat(emitted).equals(Buffer.concat(kept.pieces))).toBe(true);
    expect([...ends]).toEqual([...kept.ends]);
    expect(Buffer.from(unpackTexts(Buffer.concat(emitted), ends, whole.length)).equals(whole)).toBe(true);
  });

  it("refuse pieces that do not inflate to the size said", async () => {
    const { pieces, ends } = await packTexts(parts, async () => {});
    expect(() => unpackTexts(Buffer.concat(pieces), ends, whole.length + 1)).toThrow("a piece of texts of the wrong size");
    expect(() => unpackTexts(Buffer.concat(pieces), ends.subarray(0, 1), whole.length)).toThrow("texts of the wrong size");
  });
});

describe("unpackTexts with no pieces", () => {
  it("gives back the bytes stored as they are, and refuses bytes of another size", () => {
    const bytes = new Uint8Array(new SharedArrayBuffer(5));
    bytes.set(Buffer.from("a —"));
    expect(unpackTexts(bytes, new Int32Array(0), 5)).toBe(bytes);
    expect(() => unpackTexts(bytes, new Int32Array(0), 6)).toThrow("texts of the wrong size");
  });
});
