/**
 * Ids per chunk (a power of two: an id's chunk and place are a shift and a mask): 32 MB of Int32,
 * the size from which glibc's malloc always maps memory of its own (its threshold for that moves
 * up to 32 MB): such a chunk is returned to the system when freed, and only the pages written
 * are resident. Smaller chunks would be carved from the allocator's heap, which keeps what the
 * build freed as the process's memory.
 */
const CHUNK_SHIFT = 23;
const CHUNK_IDS = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_IDS - 1;

/**
 * A growing list of 32-bit ids in fixed chunks, for the postings a build stages before it
 * commits them (`InvertedIndex`: pages' own-field postings; section postings are staged as counts
 * since). Why not one doubling array (`IdBuffer`): a first build of 50,000 distinct pages staged
 * ~25 million section postings, three ids each; doubled arrays held
 * up to twice that (the three grow together: at each doubling the old and the new arrays were
 * held at once, ~340 MB more for a moment), and the commit allocates the posting pool while the
 * staged ids are still held, so their spare room was part of the build's peak (issue 22). Here
 * the spare room is at most one chunk, and growing copies nothing.
 */
export class ChunkedIds {
  private readonly chunks: Int32Array[] = [];
  private filled = CHUNK_IDS;
  /** Ids pushed so far. */
  length = 0;

  push(id: number): void {
    if (this.filled === CHUNK_IDS) {
      this.chunks.push(new Int32Array(CHUNK_IDS));
      this.filled = 0;
    }
    (this.chunks[this.chunks.length - 1] as Int32Array)[this.filled++] = id;
    this.length++;
  }

  /** The id at `i` (below `length`). */
  get(i: number): number {
    return (this.chunks[i >>> CHUNK_SHIFT] as Int32Array)[i & CHUNK_MASK] as number;
  }

  /** Bytes held, spare room included. */
  get bytes(): number {
    return this.chunks.length * CHUNK_IDS * Int32Array.BYTES_PER_ELEMENT;
  }
}
