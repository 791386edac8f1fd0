import { isUtf8 } from "node:buffer";
import { crc32 } from "node:zlib";
import { type FrontMatterResult, parseFrontMatter } from "../config/frontmatter.js";
import { type PageMeta, readPageMeta, titleFromBody } from "../config/page-meta.js";
import { bodyStartIn } from "./held-text.js";
import { byteLength } from "./site-file.js";

/** A page file's text as parsed: its front matter's keys, and the title they or the first heading
 *  give (undefined: the page path's), when its front matter parsed; what is wrong with it otherwise. */
export type ParsedText = (FrontMatterResult & { ok: true } & { readonly meta: PageMeta; readonly title: string | undefined; readonly bodyStart: number }) | (FrontMatterResult & { ok: false });

/** One distinct page text, shared by every file that holds the same bytes. */
export interface PageText {
  /** The text: one string for all the files that hold it. */
  readonly text: string;
  /** Its UTF-8 byte length (`SiteFile.size`). */
  readonly size: number;
}

interface Entry extends PageText {
  /** The bytes it was decoded from; kept only once a second file may hold them (`text`). */
  bytes: Buffer | undefined;
  /** How many bytes it was decoded from. */
  readonly read: number;
  parsed: ParsedText | undefined;
}

/**
 * Page texts decoded and parsed once per distinct text during one load. A versioned site copies
 * most pages from release to release (the ready bench's site: 24,920 files, 1,411 distinct
 * texts): a copy is told by its bytes before they are decoded (decoding UTF-8 into strings was
 * most of reading the files), its front matter is parsed once, and the copies hold one string,
 * which also makes the search index's lookups of a body by its text (`SearchIndex.analyse`) a
 * comparison of one string with itself. A CRC-32 finds the candidates; only equal bytes make a copy.
 */
export class ParsedTexts {
  private readonly byCrc = new Map<number, Entry[]>();

  /** The text `bytes` decode to: decoded now, or the one of equal bytes read before. */
  text(bytes: Buffer): PageText {
    const crc = crc32(bytes);
    const candidates = this.byCrc.get(crc);
    for (const c of candidates ?? []) {
      if (c.read !== bytes.length) continue;
      // Encoded again from its text (the first copy's bytes were not kept: most texts have none);
      // equal bytes decode to that same text. Bytes that are not valid UTF-8 never equal it, and
      // are decoded as they come.
      c.bytes ??= Buffer.from(c.text, "utf8");
      if (c.bytes.equals(bytes)) return c;
    }
    const text = bytes.toString("utf8");
    // Valid UTF-8 decodes to a text of that many bytes; invalid bytes became U+FFFD, of three.
    const entry: Entry = { text, size: isUtf8(bytes) ? bytes.length : byteLength(text), bytes: undefined, read: bytes.length, parsed: undefined };
    if (candidates === undefined) this.byCrc.set(crc, [entry]);
    else candidates.push(entry);
    return entry;
  }

  /** The parse of a text this gave (`text`), made at its first file. */
  parse(text: PageText): ParsedText {
    const entry = text as Entry;
    if (entry.parsed === undefined) {
      const parsed = parseFrontMatter(entry.text);
      if (parsed.ok) {
        const meta = readPageMeta(parsed.data);
        entry.parsed = { ...parsed, meta, title: meta.title ?? titleFromBody(parsed.body), bodyStart: bodyStartIn(entry.text, parsed.body) };
      } else {
        entry.parsed = parsed;
      }
    }
    return entry.parsed;
  }
}
