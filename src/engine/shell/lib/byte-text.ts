/**
 * The shell's one rule for bytes and text (issue 25), for our own commands; just-bash's bundle has
 * the same rule patched in (`BYTE_TEXT` in `just-bash-patches.mjs`; `test/shell/byte-text.test.ts`
 * checks that the two agree). Streams between commands are bytes. Read as text, a byte that is not
 * part of a well-formed UTF-8 sequence is the lone surrogate U+DC00 + byte (U+DC80-U+DCFF, Python's
 * "surrogateescape": no UTF-8 decodes to one); written as bytes, such a surrogate is its byte again.
 * So `sed`, `$(...)` and `2>&1` keep every byte, and only the call's output, at the very end, is
 * read as the pages are (`shownText`: WHATWG's decoder, each ill-formed sequence one U+FFFD).
 */
import { isUtf8 } from "node:buffer";

const ESCAPED = /[\udc80-\udcff]/u;
const ESCAPED_RUN = /[\udc80-\udcff]+/gu;
const ESCAPED_ONE = /[\udc80-\udcff]/gu;
const SURROGATE_BASE = 0xdc00;
// ignoreBOM: EF BB BF are three bytes like any others wherever a stream holds them (bash's
// `printf '\357\273\277a' | wc -c` is 4); a decoder drops them when they come first by default.
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
const BYTE_ORDER_MARK = "\ufeff";

/** Whether `bytes[i..]` starts a well-formed UTF-8 sequence; its length, or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i] ?? 0;
  const k = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (k <= 1 || i + k > bytes.length) return k === 1 ? 1 : 0;
  // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
  const c = bytes[i + 1] ?? 0;
  const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
  const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
  if (c < lo || c > hi) return 0;
  for (let j = 2; j < k; j++) {
    const d = bytes[i + j] ?? 0;
    if (d < 0x80 || d > 0xbf) return 0;
  }
  return k;
}

/** Bytes read as text: UTF-8, each byte outside a well-formed sequence its surrogate. */
export function textFromBytes(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  // Not UTF-8 throughout: the slow path below, only for such input.
  let out = "";
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const k = sequenceLength(bytes, i);
    if (k > 0) {
      i += k;
      continue;
    }
    out += bytes.toString("utf8", start, i) + String.fromCharCode(SURROGATE_BASE + (bytes[i] ?? 0));
    start = ++i;
  }
  return out + bytes.toString("utf8", start, bytes.length);
}

/** A run of escape surrogates as the Latin-1 string of their bytes. */
function escapedBytes(run: string): string {
  return run.replace(ESCAPED_ONE, (c) => String.fromCharCode(c.charCodeAt(0) - SURROGATE_BASE));
}

/** Text as bytes, one character per byte (a Latin-1 string, just-bash's byte stream): UTF-8, each escape surrogate its byte. */
export function latin1FromText(text: string): string {
  const encoded = Buffer.from(text, "utf8").toString("latin1");
  // Buffer writes any lone surrogate as U+FFFD's bytes: only then can the text hold one.
  if (!encoded.includes("\xef\xbf\xbd") || !ESCAPED.test(text)) return encoded;
  return text
    .split(/([\udc80-\udcff]+)/u)
    .map((part, k) => (k % 2 === 1 ? escapedBytes(part) : Buffer.from(part, "utf8").toString("latin1")))
    .join("");
}

/**
 * The call's output as shown: its bytes read by WHATWG's decoder, as the pages are. Each run of
 * escaped bytes is one U+FFFD per ill-formed sequence, and a byte order mark that starts the output
 * is the encoding's signature, not text (so a page that starts with one reads without it, as on the
 * site); anywhere else it is U+FEFF, kept as bash keeps the bytes.
 */
export function shownText(text: string): string {
  const shown = ESCAPED.test(text) ? text.replace(ESCAPED_RUN, (run) => lenient.decode(Buffer.from(escapedBytes(run), "latin1"))) : text;
  return shown.startsWith(BYTE_ORDER_MARK) ? shown.slice(1) : shown;
}

const REPLACEMENT_BYTES = Buffer.from([0xef, 0xbf, 0xbd]);

/** Text as its bytes (a Buffer): UTF-8, each escape surrogate its byte. */
export function bytesOfText(text: string): Buffer {
  const encoded = Buffer.from(text, "utf8");
  if (encoded.indexOf(REPLACEMENT_BYTES) === -1 || !ESCAPED.test(text)) return encoded;
  return Buffer.from(latin1FromText(text), "latin1");
}

/** How many bytes `bytesOfText(text)` has, without making them. */
export function byteLengthOfText(text: string): number {
  const n = Buffer.byteLength(text, "utf8");
  // ASCII only (n equals the length) cannot hold a surrogate; each escape is one byte, not three.
  if (n === text.length || !ESCAPED.test(text)) return n;
  let escapes = 0;
  for (const _ of text.matchAll(ESCAPED_ONE)) escapes++;
  return n - 2 * escapes;
}
