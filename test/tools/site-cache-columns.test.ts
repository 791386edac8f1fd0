import { describe, expect, it } from "vitest";
import type { LoadedSite, PageStat } from "../../src/vfs/load-site.js";
import type { Page } from "../../src/vfs/page.js";
import { HeldText, heldFile, heldPage } from "../../src/vfs/held-text.js";
import type { StoredEncoding } from "../../src/vfs/stored-text.js";
import { pageColumns, pagesOf, SharedObjects } from "../../src/engine/site-cache-columns.js";
import type { Utf8Texts } from "../../src/engine/site-cache-format.js";

/**
 * The cache writer's page columns of texts held as bytes (issue 22, `site-cache-columns.ts`): a
 * text held as UTF-8, or as Latin-1 with no character past ASCII (the same bytes), is stored as
 * its bytes and never read into a string to be written; any other is stored as a string. Read
 * back, every page has its text and body as loaded.
 */
describe("pageColumns of held texts", () => {
  const front = "---\ntitle: T\n---\n\n";
  const texts: [string, StoredEncoding][] = [
    [`${front}# Plain\n\nascii only, held one byte a character\n`, "latin1"],
    [`${front}# Wide\n\nmostly ascii — with a dash\n`, "utf8"],
    [`${front}# Café\n\nLatin-1 past ASCII: é\n`, "latin1"],
    [`${front}# 中文\n\n页面\n`, "utf16le"],
  ];
  const pages: Page[] = [];
  const stats = new Map<string, PageStat>();
  const helds: HeldText[] = [];
  texts.forEach(([text, encoding], i) => {
    const bytes = Buffer.from(text, encoding);
    const memory = new Uint8Array(new SharedArrayBuffer(bytes.length + 3));
    memory.set(bytes, 3);
    const held = HeldText.fromStored({ buffer: memory.buffer, offset: 3, length: bytes.length, encoding }, front.length);
    helds.push(held);
    // Two pages of the first text: its copies are one text.
    for (const name of i === 0 ? ["p0", "p0-copy"] : [`p${i}`]) {
      const file = heldFile(`/${name}.md`, held, bytes.length, new Date(1_000), { public: true } as never);
      pages.push(heldPage({ file, path: `/${name}`, title: name, meta: {} as never, frontMatter: { title: "T" }, bodyLine: 5 }, held));
      stats.set(`${name}.md`, { size: bytes.length, mtimeMs: 1_000, ino: i + 1, ctimeMs: 1_000, real: `${name}.md` });
    }
  });
  const loaded = { site: { pages: new Map(pages.map((p) => [p.path, p])) }, pageStats: stats } as unknown as LoadedSite;

  it("stores a text held as UTF-8 or as ASCII by its bytes, once for its copies, and the others as strings", async () => {
    const shared = new SharedObjects();
    const { texts: strings, utf8, pages: columns } = await pageColumns(loaded, shared, async () => {});
    expect(utf8.parts.map((p) => Buffer.from(p).toString("utf8"))).toEqual([texts[0]?.[0], texts[1]?.[0]]);
    expect([...utf8.ends]).toEqual([Buffer.byteLength(texts[0]?.[0] as string), Buffer.byteLength(`${texts[0]?.[0]}${texts[1]?.[0]}`)]);
    expect([...utf8.bodyStarts]).toEqual([front.length, front.length]);
    expect(strings).toEqual([texts[2]?.[0], texts[3]?.[0]]);
    expect(columns.rels).toEqual(["p0.md", "p0-copy.md", "p1.md", "p2.md", "p3.md"]);
    expect([...columns.ints].filter((_, i) => i % 7 === 0)).toEqual([-2, -2, -3, 0, 1]);

    const size = utf8.ends[utf8.ends.length - 1] as number;
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const p of utf8.parts) {
      bytes.set(p, at);
      at += p.length;
    }
    const stored: Utf8Texts = { bytes, pieces: new Int32Array(0), size, ends: utf8.ends, bodyStarts: utf8.bodyStarts };
    const { pageAt } = pagesOf(strings, stored, shared.objects, columns, 0);
    expect(pages.map((p) => [pageAt(p.path)?.file.text, pageAt(p.path)?.body])).toEqual(pages.map((p) => [p.file.text, p.body]));
  });
});
