import { afterAll, describe, expect, it } from "vitest";
import { AnalysisFeed } from "../../src/engine/search/analysis-feed.js";
import { PageReadAhead } from "../../src/engine/page-read-ahead.js";
import { SearchIndex } from "../../src/engine/search/search-index.js";
import { decodeSnapshot, SnapshotEncoder } from "../../src/engine/shell/shared-snapshot.js";
import { bodyKeyOf } from "../../src/vfs/body-key.js";
import { heldAsUtf8 } from "../../src/vfs/held-as-utf8.js";
import { heldTextOf } from "../../src/vfs/held-text.js";
import { ParsedTexts } from "../../src/vfs/parsed-texts.js";
import { loadSite } from "../../src/vfs/load-site.js";
import type { SiteFile } from "../../src/vfs/site-file.js";
import { readStored } from "../../src/vfs/stored-text.js";
import { makeRepo } from "../helpers/repo.js";
import { inlineSite } from "../tools/search/inline-site.js";

/**
 * A page text that takes less memory as its file's bytes than as a string (mostly ASCII with a
 * dash or a quotation mark, which makes V8 keep the string two bytes a character) is held as
 * those bytes from the load on, not only once a shell snapshot holds it (issue 22): a 50,000-page
 * site's texts were all held as strings during the load and the index build. The search index
 * tells bodies apart by a key shared by equal body bytes, so copies are still analysed once.
 */

const BODY = "\n# Settings\n\nSet `mode` to fast – or slow.\nThe “checkout” step — done.\n";
const FILES: Record<string, string> = {
  "v1/english.mdx": `---\ntitle: Settings\n---\n${BODY}`,
  "v2/english.mdx": `---\ntitle: Settings\n---\n${BODY}`,
  "v2/renamed.mdx": `---\ntitle: Options\n---\n${BODY}`,
  "v1/chinese.mdx": "---\ntitle: 快速开始\n---\n\n# 快速开始\n\n安装 checkout 模块，然后运行。\n",
  "v1/ascii.mdx": "---\ntitle: Plain\n---\n\nCheckout settings in plain ASCII, cafe.\n",
  "v1/latin.mdx": "---\ntitle: Café\n---\n\nCafé checkout settings.\n",
  "v1/no-front-matter.md": "The checkout — without front matter.\n",
};
const DOCS = { name: "Shop", navigation: { versions: ["v2", "v1"].map((version) => ({ version, groups: [{ group: "Guides", pages: Object.keys(FILES).filter((p) => p.startsWith(version)).map((p) => p.replace(/\.mdx?$/, "")) }] })) } };

const repo = makeRepo({ ...FILES, "docs.json": JSON.stringify(DOCS) });
afterAll(() => repo.cleanup());

const hitsOf = (index: SearchIndex, query: string): unknown[] =>
  index.search({ query, canRead: () => true }).map((h) => ({ path: h.page.path, anchor: h.section.anchor, score: h.score, snippet: h.snippet, section: h.section.text, also: h.otherVersions.map((t) => t.page.path) }));

describe("page texts held as bytes from the load on", () => {
  it("are the ones that are smaller so, and read back as the files hold them", async () => {
    const { site } = await loadSite(repo.dir);
    const pages = [...site.pages.values()];
    expect(pages.map((p) => [p.path, heldTextOf(p.file)?.parked])).toEqual([
      ["/v1/ascii", false],
      ["/v1/chinese", false],
      ["/v1/english", true],
      ["/v1/latin", false],
      ["/v1/no-front-matter", true],
      ["/v2/english", true],
      ["/v2/renamed", true],
    ]);
    for (const p of pages) expect({ path: p.path, text: p.file.text }).toEqual({ path: p.path, text: FILES[`${p.file.path.slice(1)}`] });
    expect(site.pages.get("/v2/renamed")?.body).toBe(BODY);
    expect(site.pages.get("/v2/renamed")?.title).toBe("Options");
    expect(site.pages.get("/v1/no-front-matter")?.body).toBe("The checkout — without front matter.\n");
  });

  it("share one body key per body (copies and pages whose front matter alone differs), and are indexed and found as pages held as strings are", async () => {
    const { site } = await loadSite(repo.dir);
    const key = (path: string): unknown => bodyKeyOf(site.pages.get(path) as never);
    expect(typeof key("/v1/english")).toBe("object");
    expect(key("/v2/english")).toBe(key("/v1/english"));
    expect(key("/v2/renamed")).toBe(key("/v1/english"));
    expect(key("/v1/chinese")).toBe(site.pages.get("/v1/chinese")?.body);
    const held = new SearchIndex({ cachedResults: 0 });
    held.sync(site);
    const strings = new SearchIndex({ cachedResults: 0 });
    strings.sync(inlineSite(Object.fromEntries(Object.entries(FILES).map(([p, t]) => [`/${p}`, t])), DOCS));
    expect(held.textCount).toBe(strings.textCount);
    expect(held.textCount).toBe(5);
    for (const query of ["checkout", "fast or slow mode settings", "快速开始", "cafe", "done step"]) expect({ query, hits: hitsOf(held, query) }).toEqual({ query, hits: hitsOf(strings, query) });
    expect(hitsOf(held, "fast or slow mode settings")).not.toEqual([]);
  });
});

describe("bodies held as bytes, analysed in worker threads", () => {
  it("are sent to the workers as their shared bytes, not read back on the index's thread, and index as one thread does", async () => {
    const { site } = await loadSite(repo.dir);
    const index = new SearchIndex({ cachedResults: 0 });
    const bodies = index.bodiesToAnalyse(site);
    expect(bodies.map((b) => [b.bytes === undefined ? "string" : b.bytes.buffer instanceof SharedArrayBuffer ? "shared bytes" : "bytes", b.bytes === undefined ? b.body : readStored(b.bytes)])).toEqual([
      ["string", "\nCheckout settings in plain ASCII, cafe.\n"],
      ["string", "\n# 快速开始\n\n安装 checkout 模块，然后运行。\n"],
      ["shared bytes", BODY],
      ["string", "\nCafé checkout settings.\n"],
      ["shared bytes", "The checkout — without front matter.\n"],
    ]);
    const feed = new AnalysisFeed(bodies, 2);
    try {
      const steps = index.syncSteps(site, feed);
      for (let step = steps.next(); step.done !== true; step = steps.next()) if (step.value !== undefined) await step.value;
    } finally {
      feed.close();
    }
    const alone = new SearchIndex({ cachedResults: 0 });
    alone.sync(site);
    expect(index.state()).toEqual(alone.state());
    for (const query of ["checkout", "fast or slow mode settings", "快速开始", "cafe"]) expect({ query, hits: hitsOf(index, query) }).toEqual({ query, hits: hitsOf(alone, query) });
  });
});

describe("the shell snapshot of texts held as bytes", () => {
  it("refers to the load's shared bytes instead of writing them again, and decodes to the site's files", async () => {
    const { site } = await loadSite(repo.dir);
    const files = [...site.files.values()];
    const { snapshot } = new SnapshotEncoder().encode(files);
    const plain = (list: readonly SiteFile[]) => list.map((f) => ({ path: f.path, text: f.text, size: f.size, mtime: f.mtime.toISOString(), access: f.access }));
    expect(plain(decodeSnapshot(snapshot))).toEqual(plain(files));
    // Each text held as bytes sits where the load put it; the copies of one text at one place.
    const places = files.map((f, i) => {
      const stored = heldTextOf(f)?.storedForm;
      const chunk = snapshot.chunks[snapshot.table[i * 7] as number];
      return stored === undefined ? [f.path, "written"] : [f.path, chunk === stored.buffer && snapshot.table[i * 7 + 1] === stored.offset ? "referred" : "copied"];
    });
    expect(places.filter(([path]) => (path as string).endsWith(".mdx") || (path as string).endsWith(".md"))).toEqual([
      ["/v1/ascii.mdx", "written"],
      ["/v1/chinese.mdx", "written"],
      ["/v1/english.mdx", "referred"],
      ["/v1/latin.mdx", "written"],
      ["/v1/no-front-matter.md", "referred"],
      ["/v2/english.mdx", "referred"],
      ["/v2/renamed.mdx", "referred"],
    ]);
    expect(snapshot.table[2 * 7 + 1]).toBe(snapshot.table[5 * 7 + 1]);
  });
});

describe("texts read ahead by a worker thread", () => {
  it("that the load holds as bytes are told so by the worker from the bytes alone (`heldAsUtf8`), as the load decides from the text", () => {
    const texts = [
      "plain ASCII",
      "café, Latin-1 only",
      "a dash – in ASCII",
      "“quoted” text, more of it than the quotes",
      "快速开始",
      "mostly ASCII with one emoji 🚀 at the end of a long line of words",
      "🚀🚀🚀",
      "\ufeffa byte order mark and words after it",
      "ab—",
      "abc—",
      "a lone surrogate \ud800 written as UTF-8 replacement",
    ];
    const decided = (bytes: Buffer): boolean => {
      const parsed = new ParsedTexts();
      const text = parsed.text(bytes);
      const result = parsed.parse(text);
      return result.ok && parsed.held(text, result).parked;
    };
    const rows = texts.map((t) => Buffer.from(t, "utf8")).concat([Buffer.from([0x61, 0xc4, 0x62, 0xe2, 0x80, 0x93])]);
    expect(rows.map((bytes) => [bytes.toString("utf8"), heldAsUtf8(bytes)])).toEqual(rows.map((bytes) => [bytes.toString("utf8"), decided(bytes)]));
    expect(rows.map((bytes) => heldAsUtf8(bytes))).toEqual([false, false, true, true, false, true, false, true, false, true, true, false]);
  });

  it("are held where the worker read them, not copied, and the site is the one loaded without it", async () => {
    const alone = await loadSite(repo.dir);
    const held: string[] = [];
    const { site } = await loadSite(repo.dir, undefined, undefined, {
      readAhead: (real, rels, maxBytes) => {
        const ahead = new PageReadAhead(real, rels, maxBytes);
        return {
          next: async () => {
            const read = await ahead.next();
            if (read !== undefined && "held" in read && read.held === true) held.push(read.bytes.toString("utf8").split("\n")[0] as string);
            return read;
          },
          close: () => ahead.close(),
        };
      },
    });
    const plain = (s: typeof site) => [...s.pages.values()].map((p) => ({ path: p.path, text: p.file.text, body: p.body, title: p.title, parked: heldTextOf(p.file)?.parked }));
    expect(plain(site)).toEqual(plain(alone.site));
    // Sent as held: the texts the load holds as bytes (a copy is named by its first file, not sent).
    expect(held).toEqual(["---", "The checkout — without front matter.", "---"]);
    // Each sits in the worker's shared memory, where it was sent: one buffer for them all here.
    const buffers = new Set([...site.pages.values()].flatMap((p) => heldTextOf(p.file)?.storedForm?.buffer ?? []));
    expect(buffers.size).toBe(1);
    expect([...buffers].every((b) => b instanceof SharedArrayBuffer)).toBe(true);
  });
});
