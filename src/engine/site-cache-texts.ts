import { promisify } from "node:util";
import { constants, deflateRaw, inflateRawSync } from "node:zlib";

/**
 * The site cache's texts held as UTF-8 (`Body.utf8`), compressed: deflated in pieces of
 * `PIECE_BYTES` of their bytes one after another. Page prose deflates to about a quarter, and the
 * texts were most of a large site's cache (issue 22: 500 MB of the ~1.03 GB of 50,000 distinct
 * pages, over the 1 GB a cache may take). Pieces are deflated on the thread pool while the write
 * goes on (a write gives the thread back), and inflated by the reader straight into the shared
 * memory the pages are then read from (the shell's snapshot refers to it in place).
 */

/** Bytes of texts per piece: each inflates in a few milliseconds. */
export const PIECE_BYTES = 1024 * 1024;

const deflate = promisify(deflateRaw);

/** The texts' bytes (`parts`, one after another) deflated in pieces: the pieces, and where each
 *  ends among them. `step` is called between pieces. With `emit`, each piece is handed to it as
 *  it is made and not kept (`pieces` is then empty). */
export async function packTexts(parts: readonly Uint8Array[], step: () => Promise<void>, emit?: (piece: Buffer) => Promise<void>): Promise<{ readonly pieces: Buffer[]; readonly ends: Int32Array }> {
  const pieces: Buffer[] = [];
  const ends: number[] = [];
  let packed = 0;
  const piece = Buffer.allocUnsafeSlow(PIECE_BYTES);
  let filled = 0;
  const flush = async (): Promise<void> => {
    if (filled === 0) return;
    // Level 1: most of the saving for a fraction of the time of the default.
    const out = await deflate(piece.subarray(0, filled), { level: 1, strategy: constants.Z_DEFAULT_STRATEGY });
    filled = 0;
    if (emit !== undefined) await emit(out);
    else pieces.push(out);
    packed += out.length;
    ends.push(packed);
    await step();
  };
  for (const part of parts) {
    for (let at = 0; at < part.length; ) {
      const take = part.subarray(at, at + PIECE_BYTES - filled);
      piece.set(take, filled);
      filled += take.length;
      at += take.length;
      if (filled === PIECE_BYTES) await flush();
    }
  }
  await flush();
  return { pieces, ends: Int32Array.from(ends) };
}

/** The `size` bytes of texts `packTexts` made `packed` of (its pieces ending at `ends`), in a
 *  `SharedArrayBuffer`; with no pieces, `packed` is the texts' bytes themselves (stored as they
 *  are: inflating 25,000 pages' texts on the main thread cost a warm start 0.2 s, issue 22).
 *  Throws when they do not inflate to exactly that. */
export function unpackTexts(packed: Uint8Array, ends: Int32Array, size: number): Uint8Array {
  if (ends.length === 0) {
    if (packed.length !== size) throw new Error("texts of the wrong size");
    return packed;
  }
  const out = new Uint8Array(new SharedArrayBuffer(size));
  let from = 0;
  let at = 0;
  for (let i = 0; i < ends.length; i++) {
    const to = ends[i] as number;
    if (to < from || to > packed.length) throw new Error("a piece of texts out of range");
    const piece = inflateRawSync(packed.subarray(from, to));
    if (piece.length !== (i === ends.length - 1 ? size - at : PIECE_BYTES) || at + piece.length > size) throw new Error("a piece of texts of the wrong size");
    out.set(piece, at);
    at += piece.length;
    from = to;
  }
  if (at !== size || from !== packed.length) throw new Error("texts of the wrong size");
  return out;
}
