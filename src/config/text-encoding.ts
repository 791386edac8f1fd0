/**
 * Whether a page or snippet file was saved as UTF-16 or UTF-32 (Windows Notepad's "Unicode"), told
 * from its text as decoded as UTF-8, and why; undefined for a text that may be UTF-8. Such a file
 * read as UTF-8 has a NUL between its letters: its front matter (`-\0-\0-\0`) is no front matter,
 * and a page restricted by `groups` in it was served to every reader (adversary round 61 F2). It
 * is refused as front matter that cannot be read is (`parseFrontMatter`), never decoded as what it
 * seems to be: the platform reads pages as UTF-8 only.
 */
export function wideEncoding(text: string): string | undefined {
  // Each of the bytes FF and FE is invalid UTF-8 and decodes to one U+FFFD.
  if (text.startsWith("\uFFFD\uFFFD\0\0")) return "UTF-32 (its first bytes are the byte order mark FF FE 00 00)";
  if (text.startsWith("\0\0\uFFFD\uFFFD")) return "UTF-32 (its first bytes are the byte order mark 00 00 FE FF)";
  if (text.startsWith("\uFFFD\uFFFD")) return "UTF-16 (its first bytes are the byte order mark FF FE or FE FF)";
  return nulInFirstLine(text) ? "UTF-16 or UTF-32 (its first line holds NUL bytes)" : undefined;
}

/** Whether the first line with text (past blank lines, which a wide file without a byte order mark
 *  may start with: `\n\0-\0`) holds a NUL. Only that line is looked at: a page's text is long. */
function nulInFirstLine(text: string): boolean {
  let i = 0;
  let nul = false;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) nul = true;
    else if (c !== 10 && c !== 13 && c !== 32 && c !== 9 && c !== 0xfeff) break;
  }
  for (; i < text.length && !nul; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) break;
    if (c === 0) nul = true;
  }
  return nul;
}
