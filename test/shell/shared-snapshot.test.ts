/**
 * The site snapshot shell workers share (`shared-snapshot.ts`): what a worker decodes is exactly
 * the site's files (any text: ASCII, Latin-1, CJK, emoji, a lone surrogate, empty); a reload
 * writes only the texts that changed; identical texts are written once.
 */
import { describe, expect, it } from "vitest";
import { decodeSnapshot, type SharedSnapshot, SnapshotEncoder } from "../../src/engine/shell/shared-snapshot.js";
import { makeFile, type SiteFile } from "../../src/vfs/site-file.js";

const TEXTS = ["# Setup\n\nRun it.\n", "Café au lait: ½ price\n", "快速开始 — クイックスタート\n", "rocket 🚀 launch\n", "lone \ud800 surrogate\n", ""];
const FILES: SiteFile[] = TEXTS.map((text, i) => makeFile(`/p${i}.mdx`, text, i % 2 === 0 ? {} : { groups: ["staff"] }, new Date(Date.UTC(2030, 0, 1 + i))));

/** Each file's record as plain data (the decoded text read through its accessor). */
const plain = (files: readonly SiteFile[]) => files.map((f) => ({ path: f.path, text: f.text, size: f.size, mtime: f.mtime.toISOString(), access: f.access }));

/** Where each file's text sits: [chunk, offset] (the table's first two columns). */
const places = (s: SharedSnapshot, n: number) => Array.from({ length: n }, (_, i) => [s.table[i * 7], s.table[i * 7 + 1]]);

describe("a shared snapshot", () => {
  it("decodes to exactly the site's files, in order", () => {
    const { snapshot, position } = new SnapshotEncoder().encode(FILES);
    expect(plain(decodeSnapshot(snapshot))).toEqual(plain(FILES));
    expect(FILES.map((f) => position.get(f))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(snapshot.accesses).toEqual([{}, { groups: ["staff"] }]);
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
    expect(places(second, 6).slice(1)).toEqual(places(first, 6).slice(1));
    // Written after everything else (the end of the last chunk), in the same chunk.
    const end = Math.max(...places(first, 6).map(([, offset], i) => (offset as number) + (first.table[i * 7 + 2] as number)));
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
