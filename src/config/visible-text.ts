/**
 * The one way user text is quoted for display (`svc-mcp check`, `nav`, the CLI's messages): a
 * text as one line of terminal output. Control characters (C0, DEL, C1) are written as escapes
 * (`\n`, `\t`, `\x1b`, `\x85`); invisible format characters (`\p{Cf}`: bidi controls U+202A-U+202E,
 * U+2066-U+2069, U+200E/U+200F, U+061C; zero-width U+200B-U+200D, U+2060, U+FEFF; soft hyphen,
 * tag characters) and the line and paragraph separators U+2028/U+2029 as `\u202E`, `\u{E0041}`.
 * A file name or docs.json key comes from whoever wrote the repository: one with an escape
 * sequence rewrote the terminal that printed it, one with a line break broke the
 * one-finding-a-line format `check` promises, and one with a bidi override or a zero-width space
 * showed other text than it holds (Trojan Source; a `\u200Bgroups` key printed as `groups`).
 * Backslashes are left as they are (Windows-style paths and messages quoting them stay
 * readable); `--json` output is escaped by JSON already, and keeps the text as it is.
 */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, escape);
}

/** Characters a terminal does not show as themselves. `u`: a tag character is one code point. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escape(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.codePointAt(0) as number;
  if (code <= 0x9f) return `\\x${code.toString(16).padStart(2, "0")}`;
  return code <= 0xffff ? `\\u${code.toString(16).toUpperCase().padStart(4, "0")}` : `\\u{${code.toString(16).toUpperCase()}}`;
}

/**
 * A text of several lines for a terminal: control characters escaped as `visibleText` writes them,
 * its line breaks kept (the layout of `svc-mcp search`'s answer is lines; a message of the CLI's
 * own on two lines). An escape sequence in a page title from the repository no longer rewrites
 * the terminal that prints it.
 */
export function terminalText(text: string): string {
  return text.split("\n").map(visibleText).join("\n");
}
