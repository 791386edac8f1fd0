/**
 * GNU sed's numeric escapes are bytes (issue 25, adversary F3): `\xHH` (one or two hex digits),
 * `\oNNN` (one to three octal) and `\dNNN` (one to three decimal) each stand for one byte, the
 * value's low eight bits (`\d300` is 0x2c, `\o400` NUL), as in GNU sed 4.9 in C.UTF-8. Runs of
 * them that spell UTF-8 are characters (`\xc3\xa9` is é, so `s/^\xef\xbb\xbf//` strips a byte
 * order mark); any other byte is the placeholder text read from bytes has for it (the shell's one
 * byte rule, lib/byte-text.ts), so `s/\xff/X/` meets the input's byte ff and `s/x/\xff/` writes it.
 */
import { bytesOfText, textFromBytes } from "../../lib/byte-text.js";

const HELD_BYTE = /[\udc80-\udcff]/u;

/** Letters whose escape only sed reads (a character it makes); glibc's regcomp reads `\n`, `\t`... as the letter. */
const SED_ONLY_ESCAPES = /^[ntfvar]$/;

/** The digits each numeric escape takes, and their radix. */
const NUMERIC: Readonly<Record<string, readonly [RegExp, number]>> = {
  x: [/^[0-9A-Fa-f]{1,2}/, 16],
  o: [/^[0-7]{1,3}/, 8],
  d: [/^[0-9]{1,3}/, 10],
};

/** The numeric escape whose backslash is `s[i]`: its byte and its length with the backslash, or undefined. */
export function byteEscape(s: string, i: number): { byte: number; length: number } | undefined {
  if (s[i] !== "\\") return undefined;
  const kind = NUMERIC[s[i + 1] as string];
  if (kind === undefined) return undefined;
  const digits = kind[0].exec(s.slice(i + 2, i + 5));
  if (digits === null) return undefined;
  return { byte: Number.parseInt(digits[0], kind[1]) & 0xff, length: 2 + digits[0].length };
}

/** One byte as text: ASCII as itself, 0x80-0xff as its placeholder until `joinBytes` reads the run. */
export function byteChar(byte: number): string {
  return String.fromCharCode(byte < 0x80 ? byte : 0xdc00 + byte);
}

/** Text whose held bytes are read again: a run that spells UTF-8 (`\xc3\xa9`) becomes its character. */
export function joinBytes(text: string): string {
  return HELD_BYTE.test(text) ? textFromBytes(bytesOfText(text)) : text;
}

/**
 * A regex's numeric escapes as the characters they make, before the regex is read. GNU sed
 * replaces them first, so what they make is raw pattern text: `\x2e` is `.` (any character),
 * `\x5e` an anchor, `\x5c(` a group, as in GNU sed 4.9. `\\` keeps the next character escaped.
 */
export function regexBytes(source: string): string {
  if (!/\\[xod]/.test(source)) return source;
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c !== "\\") {
      out += c;
      i++;
      continue;
    }
    const escape = byteEscape(source, i);
    if (escape !== undefined) {
      i += escape.length;
      // A backslash made this way escapes what follows as glibc's regcomp reads it, after sed's
      // own escapes are gone: `\x5cn` is `\n` to regcomp, a plain `n`; `\x5c\n` a backslash
      // before a newline, a newline (GNU sed 4.9; ours read both as sed's `\n`, a newline).
      if (escape.byte === 0x5c && SED_ONLY_ESCAPES.test(source[i] ?? "")) continue;
      if (escape.byte === 0x5c && source[i] === "\\" && SED_ONLY_ESCAPES.test(source[i + 1] ?? "")) continue;
      out += byteChar(escape.byte);
    } else {
      out += source.slice(i, i + 2);
      i += 2;
    }
  }
  return joinBytes(out);
}

/** A JS regex source's `.` as translatePosix writes it (sed's `.`, any character). */
const ANY_CHARACTER = "[\\s\\S]";

/** One whole character when each of its bytes is held apart (`explodedText`): ASCII, or a lead byte and its continuation bytes. */
const EXPLODED_CHARACTER = "(?:[\\0-\\x7f]|[\\udcc2-\\udcdf][\\udc80-\\udcbf]|[\\udce0-\\udcef][\\udc80-\\udcbf]{2}|[\\udcf0-\\udcf4][\\udc80-\\udcbf]{3})";

/** The held form of one character's bytes: ASCII as itself, every byte of another character apart. */
function heldBytes(c: string): string {
  return c.length === 1 && (c.charCodeAt(0) < 0x80 || HELD_BYTE.test(c)) ? c : [...Buffer.from(c, "utf8")].map(byteChar).join("");
}

/**
 * A translated sed regex that holds a byte that is not UTF-8 on its own outside a bracket (`\xc3`,
 * half of `é`), rewritten to run on text whose every byte is held apart (`explodedText`), or
 * undefined when it holds none or cannot be run so. GNU sed 4.9 matches such a byte against that
 * byte of the input's character (`s/\xc3/X/` on `é` writes `X` and the byte a9): glibc's regex
 * then searches byte by byte (its optimize_utf8), which it does only for a pattern of literal
 * characters, `.`, plain ASCII lists and anchors; for any other (a class, a negated list, a
 * range, `\w`, `I`) ours stays as it was. `.` still takes one whole character, as glibc's does.
 */
export function bytewiseSource(source: string, ignoreCase: boolean): string | undefined {
  if (ignoreCase || !HELD_BYTE.test(source)) return undefined;
  let out = "";
  let held = false;
  for (let i = 0; i < source.length; ) {
    if (source.startsWith(ANY_CHARACTER, i)) {
      out += EXPLODED_CHARACTER;
      i += ANY_CHARACTER.length;
      continue;
    }
    const c = String.fromCodePoint(source.codePointAt(i) as number);
    if (c === "\\") {
      const e = source[i + 1] ?? "";
      if (/[wWsSdDbBpPuxck]/.test(e)) return undefined;
      out += source.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === "[") {
      const end = source.indexOf("]", i + 2);
      const list = end === -1 ? "" : source.slice(i, end + 1);
      // Plain ASCII lists only: a negated one, a range or an escape would meet a held byte.
      if (!/^\[[\x20-\x5b\x5d-\x7e]+\]$/.test(list) || list[1] === "^" || /.-./.test(list.slice(1, -1))) return undefined;
      out += list;
      i = end + 1;
      continue;
    }
    if (HELD_BYTE.test(c)) held = true;
    out += c.charCodeAt(0) < 0x80 || HELD_BYTE.test(c) ? c : `(?:${heldBytes(c)})`;
    i += c.length;
  }
  return held ? out : undefined;
}

/** Text with every byte of each character that is not ASCII held apart (U+DC80 + byte), for a `bytewiseSource` regex. */
export function explodedText(text: string): string {
  let out = "";
  for (const c of text) out += heldBytes(c);
  return out;
}

/** Marks a regex made from `bytewiseSource`: it runs on `explodedText`. */
const BYTEWISE = Symbol("sed regex over held bytes");

/** `re`, marked as one that runs on `explodedText`. */
export function markBytewise(re: RegExp): RegExp {
  Object.defineProperty(re, BYTEWISE, { value: true });
  return re;
}

/** The text `re` runs on: `text` itself, or each byte held apart when `re` is a `bytewiseSource` regex. */
export function textFor(re: RegExp, text: string): string {
  return (re as { [BYTEWISE]?: boolean })[BYTEWISE] === true ? explodedText(text) : text;
}
