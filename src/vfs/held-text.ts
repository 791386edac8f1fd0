import type { Access } from "./access.js";
import type { Page } from "./page.js";
import type { SiteFile } from "./site-file.js";
import { readStored, type StoredText } from "./stored-text.js";

/**
 * A page file's text and body, held as strings until the text's bytes are kept elsewhere (the
 * shell's shared snapshot, `ShellHost`), then read from those bytes when asked for (`park`).
 *
 * Why (issue 22): a server that runs shell workers held every page's text twice, as a string
 * here and as bytes in the snapshot; on 50,000 pages of mostly English text with a few dashes
 * or quotation marks (one such character makes V8 keep the whole string two bytes a character)
 * the strings were ~730 MB of the peak. After parking, a search's snippets and a reload read a
 * page's text from the bytes (a copy, or a UTF-8 decode of ~20 us a 15 KB page).
 */
export class HeldText {
  private text: string | undefined;
  private body: string | undefined;
  private stored: StoredText | undefined;
  /** Where the body starts in the text; -1 when it is not the text's end (then it is kept). */
  private bodyStart: number;

  /** `bodyStart`: `bodyStartIn(text, body)`, when the caller has it (the copies of a text share
   *  it: comparing each copy's body with its text's end again was a read of every page). */
  constructor(text: string, body: string, bodyStart = bodyStartIn(text, body)) {
    this.text = text;
    this.body = body;
    this.bodyStart = bodyStart;
  }

  /**
   * A text held as bytes from the start (`stored` holds exactly it; its body is the text from
   * `bodyStart`, which must be where the body starts): what the load makes of a text that takes
   * less memory as bytes than as a string (`ParsedTexts`), so that a large site's texts are never
   * all held as strings, during the load and the index build either (issue 22).
   */
  static fromStored(stored: StoredText, bodyStart: number): HeldText {
    const held = new HeldText("", "");
    held.stored = stored;
    held.text = undefined;
    held.body = undefined;
    held.bodyStart = bodyStart;
    return held;
  }

  /** The whole text. */
  whole(): string {
    if (this.text !== undefined) return this.text;
    // A build reads a page's text several times in a row (its variants, its analysis, its
    // fields): the last one read back is kept, one text for the whole process.
    if (lastRead.held !== this) {
      lastRead.held = this;
      lastRead.text = readStored(this.stored as StoredText);
    }
    return lastRead.text;
  }

  /** The body (the text after the front matter). */
  bodyText(): string {
    // A slice of a string read again: V8 copies a short one and shares a long one's characters.
    return this.body ?? this.whole().slice(this.bodyStart);
  }

  /** Read the text from `stored` (which must hold exactly it) from now on, letting its strings go. */
  park(stored: StoredText): void {
    if (lastRead.held === this) lastRead.held = undefined;
    this.stored = stored;
    this.text = undefined;
    if (this.bodyStart >= 0) this.body = undefined;
  }

  /** The bytes the text is read from, once its strings were let go (else undefined). */
  get storedForm(): StoredText | undefined {
    return this.text === undefined ? this.stored : undefined;
  }

  /** Where the body starts in the text (in characters), or -1 when it is not the text's end. */
  get bodyOffset(): number {
    return this.bodyStart;
  }

  /** Whether the strings were let go (`park`). */
  get parked(): boolean {
    return this.text === undefined;
  }
}

/** Where `body` starts in `text` when it is the text's end, else -1 (`HeldText`). */
export function bodyStartIn(text: string, body: string): number {
  const start = text.length - body.length;
  return start >= 0 && text.endsWith(body) ? start : -1;
}

/** The text of a parked `HeldText` read back last (see `HeldText.whole`). */
const lastRead: { held: HeldText | undefined; text: string } = { held: undefined, text: "" };

/** The key of a file's `HeldText` (not enumerable: a file compares equal to a plain one). */
const HELD = Symbol("held text");
/** The key of a page's `HeldText` (`heldPage`; not enumerable either). */
const HELD_BODY = Symbol("held body");

// One getter function for every record, found through the record (issue 22): an object literal
// whose getter is a closure of its own gets a hidden class of its own, then slow dictionary
// properties, ~1.4 KB a page and file pair against ~0.5 KB, and every later read of a page's
// path or title a dictionary lookup. Defined in the literal's order, records share one shape.
function heldFileText(this: { readonly [HELD]: HeldText }): string {
  return this[HELD].whole();
}
function heldPageBody(this: { readonly [HELD_BODY]: HeldText }): string {
  return this[HELD_BODY].bodyText();
}
/** What an object literal's getter is: enumerable, configurable. */
const getter = (get: () => string): PropertyDescriptor => ({ get, enumerable: true, configurable: true });
const FILE_TEXT = getter(heldFileText);
const PAGE_BODY = getter(heldPageBody);

/** A file record whose text is `held`'s (see `HeldText`). */
export function heldFile(path: string, held: HeldText, size: number, mtime: Date, access: Access): SiteFile {
  const file = Object.defineProperty({ path }, "text", FILE_TEXT) as { path: string; text: string; size: number; mtime: Date; access: Access };
  file.size = size;
  file.mtime = mtime;
  file.access = access;
  return Object.defineProperty(file, HELD, { value: held });
}

/** The fields of a page read from a file (`Page` less its body, which `heldPage` reads from the held text). */
export type HeldPageFields = Omit<Page, "body" | "generated" | "authored" | "schemaCut">;

/** A page record, read from its file, whose body is `held`'s (as `{ ...fields, get body() {...}, generated: false }`, shaped as above). */
export function heldPage(fields: HeldPageFields, held: HeldText): Page {
  const page = Object.defineProperty({ file: fields.file, path: fields.path, title: fields.title, meta: fields.meta, frontMatter: fields.frontMatter }, "body", PAGE_BODY) as Omit<Page, "bodyLine" | "generated"> & { bodyLine: number; generated: boolean };
  page.bodyLine = fields.bodyLine;
  page.generated = false;
  return Object.defineProperty(page, HELD_BODY, { value: held });
}

/** The `HeldText` of a file made by `heldFile`; undefined for any other. */
export function heldTextOf(file: SiteFile): HeldText | undefined {
  return (file as { [HELD]?: HeldText })[HELD];
}
