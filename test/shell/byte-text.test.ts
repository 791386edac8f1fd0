/**
 * Issue 25: the rule for bytes and text (src/engine/shell/lib/byte-text.ts) is the same in our
 * commands and in just-bash's patched bundle (BYTE_TEXT in just-bash-patches.mjs): bytes read as
 * text and written back are the same bytes, whatever they are, and both sides agree on every case.
 */
import { decodeBytesToUtf8, encodeUtf8ToBytes, latin1FromBytes, unsafeBytesFromLatin1 } from "just-bash";
import { describe, expect, it } from "vitest";
import { byteLengthOfText, bytesOfText, latin1FromText, shownText, textFromBytes } from "../../src/engine/shell/lib/byte-text.js";

const CASES: ReadonlyArray<readonly number[]> = [
  [0x61, 0xff, 0x62],
  [0xc3, 0xa9, 0xff],
  [0xc3, 0x41],
  [0xe2, 0x82],
  [0xe2, 0x82, 0xac, 0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xf0, 0x9f, 0x98, 0x80, 0xf0, 0x9f],
  [0xf4, 0x90, 0x80, 0x80],
  [0xc0, 0xaf],
  [0x80, 0xbf, 0xfe],
  // A byte order mark is three bytes like any others; only the output it starts drops it when shown (WHATWG's decoder).
  [0xef, 0xbb, 0xbf, 0x61],
  [0x61, 0xef, 0xbb, 0xbf],
  [0xef, 0xbb, 0xbf, 0xff],
  [0xff, 0xef, 0xbb, 0xbf],
];

describe("bytes and text", () => {
  it.each(CASES)("round-trips %j alike here and in just-bash", (...bytes) => {
    const buffer = Buffer.from(bytes);
    const text = textFromBytes(buffer);
    expect(decodeBytesToUtf8(unsafeBytesFromLatin1(buffer.toString("latin1")))).toBe(text);
    expect(latin1FromText(text)).toBe(buffer.toString("latin1"));
    expect(latin1FromBytes(encodeUtf8ToBytes(text))).toBe(buffer.toString("latin1"));
    expect(bytesOfText(text)).toEqual(buffer);
    expect(byteLengthOfText(text)).toBe(bytes.length);
    // Shown as WHATWG's decoder reads the bytes: each ill-formed sequence one U+FFFD.
    expect(shownText(text)).toBe(new TextDecoder().decode(buffer));
  });

  it("keeps a real U+FFFD and valid text as they are", () => {
    expect(latin1FromText("a\uFFFDé")).toBe(Buffer.from("a\uFFFDé", "utf8").toString("latin1"));
    expect(textFromBytes(Buffer.from("\u00e9\u{1F600}"))).toBe("\u00e9\u{1F600}");
    expect(shownText("a\udcffb")).toBe("a\uFFFDb");
  });

  it("shows a byte order mark made of held bytes as U+FEFF, except where it starts the output", () => {
    // Each byte held on its own (x=$'\357'; y=$'\273\277'; "$x$y") is written as the three bytes.
    expect(shownText("a\udcef\udcbb\udcbf")).toBe("a\ufeff");
    expect(shownText("\udcef\udcbb\udcbfa\ufeff")).toBe("a\ufeff");
    expect(shownText("\ufeff\ufeffa")).toBe("\ufeffa");
  });
});
