import { describe, expect, it } from "vitest";
import { mayHaveImportLine } from "../../src/vfs/import-lines.js";
import type { StoredEncoding, StoredText } from "../../src/vfs/stored-text.js";

/**
 * The import test asked of a text's bytes (issue 22): an index build no longer decodes every body
 * held as bytes to learn that no line of it starts an import. It may answer yes for a text that
 * has no such line (which is then decoded and parsed as before), never no for one that has.
 */

const QUICK_IMPORT_RE = /^(?:import|export)\b/m;

function stored(text: string, encoding: StoredEncoding): StoredText {
  const bytes = Uint8Array.from(Buffer.from(text, encoding));
  return { buffer: bytes.buffer, offset: 0, length: bytes.length, encoding };
}

describe("lines that may start an import, from a text's bytes", () => {
  it("are found at the start, after each line terminator and after a byte order mark, and nowhere else", () => {
    const texts = [
      "import Note from '/snippets/note.mdx';\n\nText.",
      "# Title\nexport const a = 1;",
      "# Title\r\nimport X from './x.mdx'",
      "Title\u2028import X from './x.mdx'",
      "Title\u2029export const a = 1;",
      "\ufeffimport X from './x.mdx'",
      "Use `import x from \"y\"` in code – not at a line's start.",
      "  import indented",
      "No statements here — none.",
      "exporter\nimporter",
    ];
    expect(texts.map((t) => mayHaveImportLine(stored(t, "utf8")))).toEqual([true, true, true, true, true, true, false, false, false, true]);
    // After a byte order mark the expression does not match; `mdxImports` removes the mark first.
    expect(texts.map((t) => QUICK_IMPORT_RE.test(t.replace(/^\ufeff/, "")))).toEqual([true, true, true, true, true, true, false, false, false, false]);
    expect(mayHaveImportLine(stored("Café\nexport const a = 1;", "latin1"))).toBe(true);
    expect(mayHaveImportLine(stored("Café, nothing to import.", "latin1"))).toBe(false);
    // The platform's older snippet tag brings a file's text in wherever it stands.
    expect(["Help: <Snippet file=\"help.mdx\" />", "A <Snip and nothing more."].map((t) => mayHaveImportLine(stored(t, "utf8")))).toEqual([true, false]);
    // UTF-16 bytes are not scanned.
    expect(mayHaveImportLine(stored("快速开始", "utf16le"))).toBe(true);
  });

  it("never says no where a line starts an import (texts made of the pieces that matter)", () => {
    const pieces = ["import", "export", "\n", "\r", "\u2028", "\u2029", "\ufeff", "x", " ", "—", "é", ";", "¨", "©", "¿"];
    let seed = 22;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % pieces.length;
    let found = 0;
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: 1 + (n % 9) }, () => pieces[next()]).join("");
      if (!QUICK_IMPORT_RE.test(text.replace(/^\ufeff/, ""))) continue;
      found++;
      expect({ text, may: mayHaveImportLine(stored(text, "utf8")) }).toEqual({ text, may: true });
    }
    expect(found).toBeGreaterThan(500);
  });
});
