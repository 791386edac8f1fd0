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
      out += byteChar(escape.byte);
      i += escape.length;
    } else {
      out += source.slice(i, i + 2);
      i += 2;
    }
  }
  return joinBytes(out);
}
