import { describe, expect, it } from "vitest";
import { utf8Of } from "../../src/bridge/mcp/utf8-of.js";

/**
 * A direct tool call's body is written as bytes part by part (`utf8Of`): the bytes must be those
 * of the joined string, whatever the parts hold (ASCII, Latin-1, `›` and `…`, CJK, a character
 * outside the BMP, escapes JSON writes for lone surrogates) and however long (the buffer pool's
 * small slices and a buffer of its own), whether they fit the room given without measuring them
 * (a byte a character and a sixteenth more, and 16) exactly, or by one byte too few.
 */
describe("utf8Of", () => {
  it("writes the UTF-8 bytes of the parts joined", () => {
    const json = JSON.stringify({ text: "1. Café › Setup\n   …für 東京 🚀 \ud800", long: "é›".repeat(5000) });
    // 1,600 characters: room for 1,600 + 100 + 16 bytes; 58 `›` (3 bytes each) fill it exactly, 59 are a byte too many.
    const exact = `${"›".repeat(58)}${"a".repeat(1542)}`;
    const over = `${"›".repeat(59)}${"a".repeat(1541)}`;
    const cases: [string, string, string][] = [
      ['{"result":', json, ',"jsonrpc":"2.0","id":7}'],
      ['{"result":', "{}", ',"jsonrpc":"2.0","id":"ü-1"}'],
      ["", "", ""],
      ['{"result":', `"${"a".repeat(20000)}${"›…".repeat(50)}"`, ',"jsonrpc":"2.0","id":7}'],
      ["", exact, ""],
      ["", over, ""],
      ["東京東京", "{}", "}"],
      ['{"result":', "{}", `,"jsonrpc":"2.0","id":"${"東".repeat(40)}"}`],
    ];
    for (const [head, body, tail] of cases) {
      const bytes = utf8Of(head, body, tail);
      expect(Buffer.compare(bytes, Buffer.from(head + body + tail, "utf8"))).toBe(0);
      expect(bytes.byteLength).toBe(Buffer.byteLength(head + body + tail));
      expect(bytes.toString("utf8")).toBe(head + body + tail);
    }
    expect(Buffer.byteLength(exact)).toBe(1600 + 100 + 16);
  });
});
