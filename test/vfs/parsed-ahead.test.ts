import { afterAll, describe, expect, it } from "vitest";
import { PageReadAhead } from "../../src/engine/page-read-ahead.js";
import { bodyImportsMdx } from "../../src/engine/search/includes.js";
import { SearchIndex } from "../../src/engine/search/search-index.js";
import { bodyKeyOf } from "../../src/vfs/body-key.js";
import { heldTextOf } from "../../src/vfs/held-text.js";
import { importLineStarts, mayHaveImportLine, mayHaveImportLineFrom } from "../../src/vfs/import-lines.js";
import { type LoadedSite, loadSite } from "../../src/vfs/load-site.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * A large site's page texts read ahead by a worker thread come with what the load's thread would
 * find in them (issue 22): their CRC-32, the lines that may start an import, and for a text held
 * as its bytes its front matter parsed. The load's thread then neither hashes, scans nor decodes
 * them: the site, its findings and its index must be the ones loaded without a worker.
 */

const PIECES = ["import", "export", "\n", "\r", "\u2028", "x", " ", "—", "é", "¨", "©", "¿", "\ufeff", "<Snippet", "<Snip"];

describe("import lines of a body told from its text's", () => {
  it("answer as a scan of the body does, wherever the body starts", () => {
    let seed = 22;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % PIECES.length;
    for (let n = 0; n < 2000; n++) {
      const text = Buffer.from(Array.from({ length: 1 + (n % 11) }, () => PIECES[next()]).join(""), "utf8");
      const starts = importLineStarts(text);
      for (let from = 0; from <= text.length; from++) {
        const body = text.subarray(from);
        const scanned = mayHaveImportLine({ buffer: body.buffer, offset: body.byteOffset, length: body.length, encoding: "utf8" });
        expect({ text: text.toString("utf8"), from, may: mayHaveImportLineFrom(text, starts, from) }).toEqual({ text: text.toString("utf8"), from, may: scanned });
      }
    }
  });
});

/** Front matter of every kind the worker parses or leaves to the load: plain values, dates,
 *  aliases, binary (a Buffer, which a clone would not give back as it is), broken YAML, a
 *  mapping refused, none, a byte order mark. */
const FRONT = [
  (i: number) => `---\ntitle: Page ${i} – guide\ndescription: “Checkout” ${i}\n---\n`,
  (i: number) => `---\ntitle: Dated ${i}\ndate: 2024-0${1 + (i % 9)}-1${i % 10}\ntags: [a, b, ${i}]\nnested:\n  deep: { x: ${i}, y: [1, 2] }\n---\n`,
  (i: number) => `---\nbase: &b { k: ${i} }\nother: *b\ntitle: Alias ${i}\n---\n`,
  (i: number) => `---\ntitle: Binary ${i}\nblob: !!binary aGVsbG8=\n---\n`,
  (i: number) => `---\ntitle: [broken ${i}\n---\n`,
  (i: number) => `---\n- a list ${i}\n---\n`,
  () => "",
  (i: number) => `\ufeff---\ntitle: Marked ${i} —\n---\n`,
  (i: number) => `---\nopenapi: "GET /x"\nsidebarTitle: S ${i}\nicon: rocket\nmode: wide\n---\n`,
];
const BODIES = [
  (i: number) => `\n# Settings ${i}\n\nSet \`mode\` to fast – or slow. The “checkout” step — done ${i}.\n`,
  (i: number) => `import Note from '/snippets/note.mdx';\n\n# Imports ${i}\n\n<Note />\nImportant — words ${i}.\n`,
  (i: number) => `\nexport const a = ${i};\n\n## Export ${i}\n\nText – with a dash and exporter words.\n`,
  (i: number) => `\n## Shared section\n\nThe same boilerplate — on many pages.\n\n## Own ${i}\n\nPage ${i} says — its own thing, café.\n`,
  (i: number) => `\n# 快速开始 ${i}\n\n安装 checkout 模块，然后运行。\n`,
  (i: number) => `\nPlain ASCII body ${i} with import in the middle and export too.\n`,
  (i: number) => `import X from './x.mdx'\r\n\r\n# CRLF ${i} —\r\n\r\n<X />\r\n`,
];

const FILES: Record<string, string> = { "snippets/note.mdx": "A note — shared.\n", "x.mdx": "X — text.\n" };
for (let i = 0; i < 420; i++) {
  const version = i % 3 === 0 ? "v1" : "v2";
  const text = `${FRONT[i % FRONT.length]?.(i % 50)}${BODIES[Math.floor(i / FRONT.length) % BODIES.length]?.(i % 60)}`;
  FILES[`${version}/p${i}.mdx`] = text;
  // Copies in the other version: sent once by the worker, named by their first file.
  if (i % 7 === 0) FILES[`${version === "v1" ? "v2" : "v1"}/copy${i}.mdx`] = text;
}
const pagesIn = (version: string) => Object.keys(FILES).filter((p) => p.startsWith(`${version}/`)).map((p) => p.replace(/\.mdx$/, ""));
const DOCS = { name: "Shop", navigation: { versions: ["v2", "v1"].map((version) => ({ version, groups: [{ group: "Guides", pages: pagesIn(version) }] })) } };

const repo = makeRepo({ ...FILES, "docs.json": JSON.stringify(DOCS) });
afterAll(() => repo.cleanup());

/** Everything a page is made of, and whether its front matter's values are what they were (a
 *  structured clone would make a Buffer a Uint8Array, which `toEqual` does not tell apart). */
function pagesOf({ site }: LoadedSite): unknown[] {
  const keys = new Map<unknown, number>();
  return [...site.pages.values()].map((p) => {
    const key = bodyKeyOf(p);
    if (typeof key === "object" && !keys.has(key)) keys.set(key, keys.size);
    const kinds: string[] = [];
    const walk = (v: unknown): void => {
      kinds.push(v === null ? "null" : typeof v === "object" ? (Object.getPrototypeOf(v) as { constructor: { name: string } }).constructor.name : typeof v);
      if (v !== null && typeof v === "object" && !(v instanceof Date) && !ArrayBuffer.isView(v)) for (const x of Object.values(v)) walk(x);
    };
    walk(p.frontMatter);
    return {
      path: p.path,
      title: p.title,
      meta: p.meta,
      frontMatter: p.frontMatter,
      kinds,
      bodyLine: p.bodyLine,
      body: p.body,
      text: p.file.text,
      size: p.file.size,
      parked: heldTextOf(p.file)?.parked,
      key: typeof key === "object" ? keys.get(key) : "string",
      imports: bodyImportsMdx(key, p),
      keys: Object.keys(p),
    };
  });
}

describe("a site read ahead with the worker's parses", () => {
  it("is the site, findings and index loaded without a worker", async () => {
    const alone = await loadSite(repo.dir);
    let parsedAhead = 0;
    let reads = 0;
    const ahead = await loadSite(repo.dir, undefined, undefined, {
      readAhead: (real, rels, maxBytes) => {
        const worker = new PageReadAhead(real, rels, maxBytes, { batch: 16, window: 64 * 1024 });
        return {
          next: async () => {
            const read = await worker.next();
            if (read !== undefined && "bytes" in read) {
              reads++;
              if (read.scan?.parsed !== undefined) parsedAhead++;
            }
            return read;
          },
          close: () => worker.close(),
        };
      },
    });
    // The worker's parse was taken for most texts (the rest: not held as bytes, or left to the load).
    expect(reads).toBeGreaterThan(300);
    expect(parsedAhead).toBeGreaterThan(150);
    expect(pagesOf(ahead)).toEqual(pagesOf(alone));
    expect(pagesOf(ahead).filter((p) => (p as { kinds: string[] }).kinds.includes("Buffer")).length).toBeGreaterThan(0);
    expect(ahead.site.diagnostics).toEqual(alone.site.diagnostics);
    const index = (loaded: LoadedSite): SearchIndex => {
      const built = new SearchIndex({ cachedResults: 0 });
      built.sync(loaded.site);
      return built;
    };
    const [a, b] = [index(ahead), index(alone)];
    expect(a.state()).toEqual(b.state());
    const hits = (built: SearchIndex, query: string, version?: string) =>
      built.search({ query, canRead: () => true, ...(version !== undefined ? { version } : {}) }).map((h) => ({ path: h.page.path, anchor: h.section.anchor, score: h.score, snippet: h.snippet, also: h.otherVersions.map((t) => t.page.path) }));
    for (const query of ["checkout", "fast or slow mode settings", "快速开始", "shared boilerplate", "imports note", "export dash", "binary", "crlf"]) {
      for (const version of [undefined, "v1", "v2"]) expect({ query, version, hits: hits(a, query, version) }).toEqual({ query, version, hits: hits(b, query, version) });
    }
  });
});
