import { isUtf8 } from "node:buffer";
import { crc32 } from "node:zlib";
import { type FrontMatterResult, parseFrontMatter } from "../config/frontmatter.js";
import { type PageMeta, readPageMeta, titleFromBody } from "../config/page-meta.js";
import { bodyKeyOfBytes } from "./body-key.js";
import { bodyStartIn, HeldText } from "./held-text.js";
import { byteLength } from "./site-file.js";
import { type StoredText, WIDE } from "./stored-text.js";
import { mayHaveImportLineFrom } from "./import-lines.js";
import type { ParsedAhead } from "./parsed-ahead.js";
import { TextChunks } from "./text-chunks.js";

/** A page file's text as parsed: its front matter's keys, and the title they or the first heading
 *  give (undefined: the page path's), when its front matter parsed; what is wrong with it otherwise. */
export type ParsedText = (FrontMatterResult & { ok: true } & { readonly meta: PageMeta; readonly title: string | undefined; readonly bodyStart: number }) | (FrontMatterResult & { ok: false });

/** One distinct page text, shared by every file that holds the same bytes. */
export interface PageText {
  /** The text: one string for all the files that hold it (read back from its bytes, `stored`). */
  readonly text: string;
  /** Its UTF-8 byte length (`SiteFile.size`). */
  readonly size: number;
}

class Entry implements PageText {
  /** The text as a string; undefined once it is held as its bytes (`stored`). */
  string: string | undefined;
  /** The bytes it was decoded from; kept only once a second file may hold them (`text`), or
   *  when they are the text's `stored` form. */
  bytes: Buffer | undefined;
  parsed: ParsedText | undefined;
  /** The text's file bytes as it is held from its parse on, when they take less memory than the string. */
  stored: StoredText | undefined;
  /** Where the body starts in the text, for `stored` texts. */
  bodyStart = 0;
  /** Its `bytes` are in shared memory that holds such texts for good (`ParsedTexts.text`). */
  inPlace = false;
  /** Shared by the stored texts whose bodies have the same bytes (`BodyKey`). */
  bodyKey: object | undefined;
  /** Its bytes' `importLineStarts`, when the thread that read them gave them (`TextScan`). */
  importLines: readonly number[] | undefined;
  /** Its parse by that thread, until `parse` takes it (the text is then never decoded here). */
  ahead: ParsedAhead | undefined;

  constructor(
    text: string | undefined,
    readonly size: number,
    /** How many bytes it was decoded from. */
    readonly read: number,
  ) {
    this.string = text;
  }

  get text(): string {
    return this.string ?? (this.held() as HeldText).whole();
  }

  /** One `HeldText` for the stored form (the files' texts read back through one last-read slot). */
  private shared: HeldText | undefined;

  held(): HeldText | undefined {
    if (this.stored === undefined) return undefined;
    this.shared ??= HeldText.fromStored(this.stored, this.bodyStart);
    return this.shared;
  }
}

/** What a thread that read a text's bytes found in them, so that the load's does not scan them again
 *  (issue 22): their CRC-32 and their `importLineStarts`. */
export interface TextScan {
  readonly crc: number;
  readonly importLines: readonly number[];
  /** Its front matter parsed, for a text held as its bytes (`ParsedAhead`). */
  readonly parsed?: ParsedAhead;
}

/** Whether a text of valid UTF-8 (no lone surrogate) of `utf8` bytes is stored as UTF-8 (`storedEncoding`'s
 *  rule, without measuring again what the file's bytes tell: an ASCII text has as many bytes as characters). */
function keptAsUtf8(text: string, utf8: number): boolean {
  return utf8 * 4 <= text.length * 2 * 3 && WIDE.test(text);
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
  /** Where stored texts' bytes are kept (shared with the shell's snapshot, `TextChunks`). */
  private readonly chunks = new TextChunks();
  /** Stored texts' body bytes by their CRC-32, with the key their pages share (`BodyKey`). */
  private readonly bodies = new Map<number, { readonly bytes: Buffer; readonly key: object }[]>();

  /** The text `bytes` decode to: decoded now, or the one of equal bytes read before. `inPlace`:
   *  the bytes are in shared memory that holds texts kept as UTF-8 for good (`AheadRead.held`):
   *  such a text is held where they are, not copied into `chunks`. `scan`: what the reading thread
   *  found in the bytes, when it did. */
  text(bytes: Buffer, inPlace = false, scan?: TextScan): PageText {
    const crc = scan?.crc ?? crc32(bytes);
    const candidates = this.byCrc.get(crc);
    for (const c of candidates ?? []) {
      if (c.read !== bytes.length) continue;
      // Encoded again from its text (the first copy's bytes were not kept: most texts have none);
      // equal bytes decode to that same text. Bytes that are not valid UTF-8 never equal it, and
      // are decoded as they come.
      c.bytes ??= Buffer.from(c.string as string, "utf8");
      if (c.bytes.equals(bytes)) return c;
    }
    if (scan?.parsed !== undefined && inPlace && bytes.buffer instanceof SharedArrayBuffer) return this.add(crc, candidates, this.parsedAhead(bytes, scan.importLines, scan.parsed));
    const text = bytes.toString("utf8");
    // Valid UTF-8 decodes to a text of that many bytes; invalid bytes became U+FFFD, of three.
    const valid = isUtf8(bytes);
    const entry = new Entry(text, valid ? bytes.length : byteLength(text), bytes.length);
    // Most English pages of real sites hold a dash or a quotation mark, which makes V8 keep the
    // whole string two bytes a character: their file bytes (UTF-8, about half that) are held
    // instead, from here on (`parse` lets the string go). At 50,000 such pages the strings were
    // ~790 MB of the load's and the index build's peak.
    if (valid && bytes.length !== text.length && keptAsUtf8(text, bytes.length)) {
      entry.bytes = bytes;
      entry.stored = { buffer: bytes.buffer, offset: bytes.byteOffset, length: bytes.length, encoding: "utf8" };
      entry.inPlace = inPlace && bytes.buffer instanceof SharedArrayBuffer;
      entry.importLines = scan?.importLines;
    }
    return this.add(crc, candidates, entry);
  }

  private add(crc: number, candidates: Entry[] | undefined, entry: Entry): Entry {
    if (candidates === undefined) this.byCrc.set(crc, [entry]);
    else candidates.push(entry);
    return entry;
  }

  /** A text held where a reading thread put its bytes, with that thread's parse (`ParsedAhead`):
   *  as `text` would hold it (that thread held it by the same rule, `heldAsUtf8`), not decoded. */
  private parsedAhead(bytes: Buffer, importLines: readonly number[], parsed: ParsedAhead): Entry {
    const entry = new Entry(undefined, bytes.length, bytes.length);
    entry.bytes = bytes;
    entry.stored = { buffer: bytes.buffer, offset: bytes.byteOffset, length: bytes.length, encoding: "utf8" };
    entry.inPlace = true;
    entry.bodyStart = parsed.bodyStart;
    entry.importLines = importLines;
    entry.ahead = parsed;
    return entry;
  }

  /** The parse of a text this gave (`text`), made at its first file. */
  parse(text: PageText): ParsedText {
    const entry = text as Entry;
    if (entry.parsed === undefined && entry.ahead !== undefined) {
      const { data, bodyLine, bodyStart, bodyAt, bodyTitle } = entry.ahead;
      entry.ahead = undefined;
      const meta = readPageMeta(data);
      entry.bodyKey = this.bodyKey((entry.bytes as Buffer).subarray(bodyAt), mayHaveImportLineFrom(entry.bytes as Buffer, entry.importLines as readonly number[], bodyAt));
      entry.importLines = undefined;
      const held = entry.held() as HeldText;
      // As the decoded text's parse is made (its keys in that order), from the same answers.
      const parsed = { ok: true as const, data, bodyLine, meta, title: meta.title ?? bodyTitle, bodyStart };
      entry.parsed = Object.defineProperty(parsed, "body", { get: () => held.bodyText(), enumerable: true }) as ParsedText;
    }
    if (entry.parsed === undefined) {
      const whole = entry.text;
      const parsed = parseFrontMatter(whole);
      if (parsed.ok) {
        const meta = readPageMeta(parsed.data);
        const start = bodyStartIn(whole, parsed.body);
        entry.parsed = { ...parsed, meta, title: meta.title ?? titleFromBody(parsed.body), bodyStart: start };
        if (entry.stored !== undefined && start >= 0) {
          // Held as bytes from now on, in the shared chunks (or where a reading thread put them
          // for that, `inPlace`): the parse reads its body from there too.
          if (!entry.inPlace) entry.stored = this.chunks.store(entry.bytes as Buffer, "utf8");
          const { buffer, offset, length } = entry.stored;
          entry.bytes = Buffer.from(buffer, offset, length);
          entry.bodyStart = start;
          const bodyAt = Buffer.byteLength(whole.slice(0, start), "utf8");
          entry.bodyKey = this.bodyKey(entry.bytes.subarray(bodyAt), entry.importLines === undefined ? undefined : mayHaveImportLineFrom(entry.bytes, entry.importLines, bodyAt));
          entry.importLines = undefined;
          entry.string = undefined;
          const held = entry.held() as HeldText;
          const { body: _body, ...rest } = entry.parsed;
          entry.parsed = Object.defineProperty(rest, "body", { get: () => held.bodyText(), enumerable: true }) as ParsedText;
        }
      } else {
        entry.parsed = parsed;
      }
      if (entry.string !== undefined) {
        entry.stored = undefined;
        // Nor the bytes it came in (a view of the slab a reading thread read it into, which it
        // would keep whole, `page-read-worker.ts`): a copy met later encodes them again.
        entry.bytes = undefined;
      }
    }
    return entry.parsed as ParsedText;
  }

  /** The key of a body of these bytes: the one of equal bytes seen before, or a new one
   *  (`mayImport`: the body's `mayHaveImportLine`, when known). */
  private bodyKey(bytes: Buffer, mayImport: boolean | undefined): object {
    const crc = crc32(bytes);
    const candidates = this.bodies.get(crc);
    const same = candidates?.find((c) => c.bytes.equals(bytes));
    if (same !== undefined) return same.key;
    const key = bodyKeyOfBytes({ buffer: bytes.buffer, offset: bytes.byteOffset, length: bytes.length, encoding: "utf8" }, mayImport);
    if (candidates === undefined) this.bodies.set(crc, [{ bytes, key }]);
    else candidates.push({ bytes, key });
    return key;
  }

  /** The key of a text's body (after `parse`), when the text is held as bytes (`BodyKey`). */
  bodyKeyOf(text: PageText): object | undefined {
    return (text as Entry).held() !== undefined ? (text as Entry).bodyKey : undefined;
  }

  /** How a file of `text` holds it (after `parse`): the text's bytes when it is kept so, else
   *  its string and body. */
  held(text: PageText, parsed: { readonly body: string; readonly bodyStart: number }): HeldText {
    return (text as Entry).held() ?? new HeldText(text.text, parsed.body, parsed.bodyStart);
  }
}
