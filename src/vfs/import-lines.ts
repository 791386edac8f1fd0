import type { StoredText } from "./stored-text.js";

const IMPORT = Buffer.from("import");
const EXPORT = Buffer.from("export");
/** The platform's older snippet tag, `<Snippet file="x.mdx" />` (`config/snippet-tags.ts`), inlined as an import is, anywhere in a line. */
const SNIPPET = Buffer.from("<Snippet");

/**
 * Whether a text held as bytes may have a line starting with `import` or `export`, or a
 * `<Snippet` tag anywhere (both bring other files' text in: `includes.ts`): the quick
 * test MDX import parsing starts with (`mdxImports`, `importsMdx`: `/^(?:import|export)\b/m`),
 * asked of the bytes so that a text without such a line is never decoded for it. A large
 * distinct site's build decoded every page body once for this alone, on the index's thread
 * (issue 22: at 10,000 pages ~5% of that thread's time, with the regular expression's scan).
 *
 * Never false for a text that has such a line (a false true only costs the decode): a word
 * counts at the start, or after a byte that ends a line terminator or a byte order mark in
 * these encodings (`\n`, `\r`; U+2028, U+2029 and U+FEFF end in 0xA8, 0xA9, 0xBF in UTF-8), and
 * whatever follows it. UTF-16 bytes are not scanned.
 */
export function mayHaveImportLine(stored: StoredText): boolean {
  if (stored.encoding === "utf16le") return true;
  const bytes = Buffer.from(stored.buffer, stored.offset, stored.length);
  return startsALine(bytes, IMPORT) || startsALine(bytes, EXPORT) || bytes.includes(SNIPPET);
}

function startsALine(bytes: Buffer, word: Buffer): boolean {
  for (let at = bytes.indexOf(word); at !== -1; at = bytes.indexOf(word, at + 1)) if (isLineStart(bytes, at)) return true;
  return false;
}

function isLineStart(bytes: Uint8Array, at: number): boolean {
  if (at === 0) return true;
  const before = bytes[at - 1] as number;
  return before === 0x0a || before === 0x0d || before === 0xa8 || before === 0xa9 || before === 0xbf;
}

/**
 * Where the lines of UTF-8 bytes that `mayHaveImportLine` counts start (with `import` or
 * `export`), and where the last `<Snippet` tag starts, in no particular order: found by the thread that reads a file (`page-read-worker.ts`),
 * so that the load's thread tells its body's answer (`mayHaveImportLineFrom`) without scanning it
 * (issue 22: the two scans of each body were ~4% of that thread's cold start at 50,000 distinct pages).
 */
export function importLineStarts(bytes: Buffer): number[] {
  const starts: number[] = [];
  for (const word of [IMPORT, EXPORT]) {
    for (let at = bytes.indexOf(word); at !== -1; at = bytes.indexOf(word, at + 1)) if (isLineStart(bytes, at)) starts.push(at);
  }
  // A snippet tag counts wherever it stands: the last one tells whether a body from any byte on has one.
  const snippet = bytes.lastIndexOf(SNIPPET);
  if (snippet !== -1) starts.push(snippet);
  return starts;
}

/**
 * `mayHaveImportLine` of the UTF-8 bytes of a text from byte `from` on (a page's body), told from
 * the text's `importLineStarts`: a line of the part starts at `from` or where one of the text
 * does after it (the byte before it is the same).
 */
export function mayHaveImportLineFrom(text: Buffer, starts: readonly number[], from: number): boolean {
  return starts.some((at) => at >= from) || startsWith(text, from, IMPORT) || startsWith(text, from, EXPORT);
}

function startsWith(bytes: Buffer, at: number, word: Buffer): boolean {
  return bytes.length - at >= word.length && bytes.compare(word, 0, word.length, at, at + word.length) === 0;
}
