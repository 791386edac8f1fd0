import { isAscii, isUtf8 } from "node:buffer";

/**
 * Whether the load holds a file of these bytes as them (`ParsedTexts.text`): valid UTF-8, not
 * ASCII, with a character past Latin-1, in at most 1.5 bytes a UTF-16 unit of the text they
 * decode to. The same rule, read from the bytes: the UTF-16 units are the characters, two for
 * one past U+FFFF (a 4-byte sequence); a character past U+00FF starts with a byte >= 0xC4.
 */
export function heldAsUtf8(bytes: Uint8Array): boolean {
  if (isAscii(bytes) || !isUtf8(bytes)) return false;
  let units = 0;
  let wide = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b < 0x80) units++;
    else if (b >= 0xc0) {
      units += b >= 0xf0 ? 2 : 1;
      if (b >= 0xc4) wide = true;
    }
  }
  return wide && bytes.length * 4 <= units * 6;
}
