/**
 * The site snapshot shell workers share (`shared-snapshot.ts`): what a worker decodes is exactly
 * the site's files (any text: ASCII, Latin-1, CJK, emoji, a lone surrogate, empty); a reload
 * writes only the texts that changed; identical texts are written once; a mostly-ASCII text with
 * a few wide characters takes its UTF-8 bytes, not twice its length (issue 22).
 */
import { describe, expect, it } from "vitest";
import { decodeSnapshot, decodeSnapshotTable, type SharedSnapshot, SnapshotEncoder } from "../../src/engine/shell/shared-snapshot.js";
import { makeFile, type SiteFile } from "../../src/vfs/site-file.js";
import { HeldText, heldFile } from "../../src/vfs/held-text.js";
import { TextChunks } from "../../src/vfs/text-chunks.js";

const TEXTS = [
  "# Setup\n\nRun it.\n",
  "Café au lait: ½ price\n",
  "快速开始 — クイックスタート\n",
  "rocket 🚀 launch\n",
  "lone \ud800 surrogate\n",
  "",
  "# Settings — the “short” way\n\nSet `mode` to fast – or slow.\n",
  "مرحبا بالعالم: الإعداد السريع\n",
  "mixed: 设置 and مرحبا and 🚀 in an English line that is mostly ASCII\n",
  "trailing lone \udc00",
];
const FILES: SiteFile[] = TEXTS.map((text, i) => makeFile(`/p${i}.mdx`, text, i % 2 === 0 ? {} : { groups: ["staff"] }, new Date(Date.UTC(2030, 0, 1 + i))));

/** Each file's record as plain data (the decoded text read through its accessor). */
const plain = (files: readonly SiteFile[]) => files.map((f) => ({ path: f.path, text: f.text, size: f.size, mtime: f.mtime.toISOString(), access: f.access }));

/** Where each file's text sits: [chunk, offset] (the table's first two columns). */
const places = (s: SharedSnapshot, n: number) => Array.from({ length: n }, (_, i) => [s.table[i * 7], s.table[i * 7 + 1]]);

describe("a shared snapshot", () => {
  it("decodes to exactly the site's files, in order", () => {
    const { snapshot, position } = new SnapshotEncoder().encode(FILES);
    expect(plain(decodeSnapshot(snapshot))).toEqual(plain(FILES));
    expect(FILES.map((f) => position.get(f))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(snapshot.accesses).toEqual([{}, { groups: ["staff"] }]);
  });

  it("stores each text in the fewest bytes that read back fast: Latin-1, UTF-8 for a mostly-ASCII one, else UTF-16", () => {
    const { snapshot } = new SnapshotEncoder().encode(FILES);
    const bytes = FILES.map((_, i) => snapshot.table[i * 7 + 2]);
    // Latin-1 (0, 1, 5): a byte a character. The emoji of text 3, the dashes and quotes of text 6
    // and the few wide characters of text 8 make UTF-8 (their size); CJK (2) and Arabic (7), two
    // bytes a character or more in UTF-8, and the lone surrogates (4, 9), which UTF-8 cannot
    // hold, stay UTF-16 (twice their length).
    expect(bytes).toEqual([17, 22, 32, 19, 34, 0, 68, 60, 78, 30]);
    expect([3, 6, 8].map((i) => bytes[i])).toEqual([3, 6, 8].map((i) => FILES[i]?.size));
  });

  it("a decoded file keeps its path and its row only: size, time, access and text are read from the shared table when asked (issue 22: ~180 bytes of every worker's heap per file was ~9 MB at 50,000 pages)", () => {
    const { snapshot } = new SnapshotEncoder().encode(FILES);
    const [file] = decodeSnapshot(snapshot);
    expect(Object.getOwnPropertyNames(file).filter((name) => ["size", "mtime", "access", "text", "stored"].includes(name))).toEqual([]);
    expect(plain([file as SiteFile])).toEqual(plain([FILES[0] as SiteFile]));
  });

  it("begun, its preview already holds every fact but the texts (a worker builds its records and views from it while the texts are encoded, issue 22); given the finished chunks, the same records read the texts", () => {
    const encoding = new SnapshotEncoder().begin(FILES);
    const { snapshot: preview, position } = encoding.preview;
    const decoded = decodeSnapshotTable(preview);
    const facts = (files: readonly SiteFile[]) => files.map((f) => ({ path: f.path, size: f.size, mtime: f.mtime.toISOString(), access: f.access }));
    expect({ facts: facts(decoded.files), positions: FILES.map((f) => position.get(f)), chunks: preview.chunks.length }).toEqual({ facts: facts(FILES), positions: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], chunks: 0 });
    expect(encoding.advance(4)).toBe(false);
    const { snapshot } = encoding.finish();
    expect({ table: snapshot.table === preview.table, paths: snapshot.paths === preview.paths }).toEqual({ table: true, paths: true });
    decoded.of.chunks = snapshot.chunks;
    expect(plain(decoded.files)).toEqual(plain(FILES));
  });

  it("a text the load holds in shared bytes (`TextChunks`) is placed as the encoding begins, where it is: only the other texts are written a slice at a time (issue 22: their bookkeeping was most of the encoding after the first search)", () => {
    const chunks = new TextChunks();
    const stored = [TEXTS[6] as string, TEXTS[8] as string].map((text, i) => {
      const held = HeldText.fromStored(chunks.store(Buffer.from(text, "utf8"), "utf8"), 0);
      return heldFile(`/held${i}.mdx`, held, Buffer.byteLength(text), new Date(Date.UTC(2030, 5, 1 + i)), {});
    });
    const files = [FILES[0] as SiteFile, stored[0] as SiteFile, FILES[1] as SiteFile, stored[1] as SiteFile];
    const encoding = new SnapshotEncoder().begin(files);
    // [chunk, offset, bytes] of each row; a row not placed yet reads all zeros.
    const rows = (s: SharedSnapshot) => Array.from({ length: files.length }, (_, i) => [s.table[i * 7], s.table[i * 7 + 1], s.table[i * 7 + 2]]);
    const atBegin = rows(encoding.preview.snapshot);
    // Two texts to write: a slice of one leaves one.
    const slices = [encoding.advance(1), encoding.advance(1)];
    const { snapshot } = encoding.finish();
    const held = [TEXTS[6], TEXTS[8]].map((t) => Buffer.byteLength(t as string));
    expect({ atBegin, slices, after: rows(snapshot), chunks: snapshot.chunks.length, files: plain(decodeSnapshot(snapshot)) }).toEqual({
      // The load's chunk is the snapshot's chunk 0, as it is; the written texts go to a chunk of their own.
      atBegin: [[0, 0, 0], [0, 0, held[0]], [0, 0, 0], [0, held[0], held[1]]],
      slices: [false, true],
      after: [[1, 0, 17], [0, 0, held[0]], [1, 17, 22], [0, held[0], held[1]]],
      chunks: 2,
      files: plain(files),
    });
  });

  it("decodes an empty site", () => {
    expect(decodeSnapshot(new SnapshotEncoder().encode([]).snapshot)).toEqual([]);
  });

  it("a reload writes only what changed: unchanged files keep their place, a changed one gets a new one", () => {
    const encoder = new SnapshotEncoder();
    const first = encoder.encode(FILES).snapshot;
    const edited = makeFile("/p0.mdx", "# Setup\n\nRun it twice.\n", {}, new Date(Date.UTC(2030, 1, 1)));
    const next = [edited, ...FILES.slice(1)];
    const second = encoder.encode(next).snapshot;
    expect(plain(decodeSnapshot(second))).toEqual(plain(next));
    expect(places(second, FILES.length).slice(1)).toEqual(places(first, FILES.length).slice(1));
    // Written after everything else (the end of the last chunk), in the same chunk.
    const end = Math.max(...places(first, FILES.length).map(([, offset], i) => (offset as number) + (first.table[i * 7 + 2] as number)));
    expect(places(second, 1)).toEqual([[0, end]]);
    expect(second.chunks).toEqual(first.chunks);
    expect(second.chunks[0]).toBe(first.chunks[0]);
  });

  it("writes identical texts once (a page copied under several versions)", () => {
    const copies = ["v1", "v2", "v3"].map((v) => makeFile(`/${v}/setup.mdx`, TEXTS[2] as string, {}, new Date(0)));
    const { snapshot } = new SnapshotEncoder().encode(copies);
    expect(places(snapshot, 3)).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    expect(decodeSnapshot(snapshot).map((f) => f.text)).toEqual([TEXTS[2], TEXTS[2], TEXTS[2]]);
  });
});
