/**
 * Texts stored as bytes (the shell's shared snapshot, `shared-snapshot.ts`, and the page texts
 * the main thread lets go once the snapshot holds them, `held-text.ts`), each in the encoding
 * that is small and quick to read back.
 *
 * Texts are stored as JavaScript holds them where that costs no more than a quarter over UTF-8:
 * one byte per character when every character fits (Latin-1), else UTF-16. Decoding is then a
 * copy: measured on a 50,000-page site (cowagent x 184, mostly Chinese and Japanese pages),
 * reading every text took ~1.4 s from UTF-8 and ~0.14 s this way, for 25% more bytes there
 * (none on an ASCII site). A text that is mostly ASCII with a few characters beyond Latin-1 (a
 * dash, a quotation mark, an emoji: most English pages of real sites) is stored as UTF-8, about
 * half its UTF-16 bytes (issue 22: on the bench's 50,000 such pages, ~360 MB instead of ~730 MB).
 */

/** How a text's characters are stored: one byte each, UTF-16, or UTF-8 (Node's names). */
export type StoredEncoding = "latin1" | "utf16le" | "utf8";

/** The encodings by number (the shared snapshot's table stores the number). */
export const ENCODINGS: readonly StoredEncoding[] = ["latin1", "utf16le", "utf8"];

/** A text's bytes in a buffer written once and never changed. */
export interface StoredText {
  readonly buffer: ArrayBufferLike;
  readonly offset: number;
  readonly length: number;
  readonly encoding: StoredEncoding;
}

/** A character beyond Latin-1: the text cannot be stored one byte a character. */
export const WIDE = /[^\u0000-\u00ff]/;

/** A surrogate without its pair: UTF-8 cannot hold it (it would read back as U+FFFD). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * How a text is stored, and in how many bytes. A wide text is stored as UTF-8 when that saves at
 * least a quarter of its UTF-16 bytes: reading UTF-8 back costs ~2.5 times a UTF-16 copy (~20 us
 * against ~8 us a 15 KB page, measured on the bench's 50,000-page site), worth it for the half
 * that a mostly-ASCII page saves, not for the nothing a Chinese page saves (UTF-8 takes 3 bytes a
 * character there).
 */
export function storedEncoding(text: string): { readonly encoding: StoredEncoding; readonly length: number } {
  if (!WIDE.test(text)) return { encoding: "latin1", length: text.length };
  const utf8 = Buffer.byteLength(text, "utf8");
  if (utf8 * 4 <= text.length * 2 * 3 && !LONE_SURROGATE.test(text)) return { encoding: "utf8", length: utf8 };
  return { encoding: "utf16le", length: text.length * 2 };
}

/** The text stored bytes hold. */
export function readStored(s: StoredText): string {
  return Buffer.from(s.buffer, s.offset, s.length).toString(s.encoding);
}
