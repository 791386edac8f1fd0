/**
 * A text as one line of terminal output: control characters (C0, DEL, C1) written as escapes
 * (`\n`, `\t`, `\x1b`, `\x85`). A file name comes from whoever wrote the repository: one with an
 * escape sequence rewrote the terminal that printed it, and one with a line break broke the
 * one-finding-a-line format `check` promises. Backslashes are left as they are (Windows-style
 * paths and messages quoting them stay readable); `--json` output is escaped by JSON already.
 */
export function visibleText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A text of several lines for a terminal: control characters escaped as `visibleText` writes them,
 * its line breaks kept (the layout of `svc-mcp search`'s answer is lines). An escape sequence in a
 * page title from the repository no longer rewrites the terminal that prints it.
 */
export function terminalText(text: string): string {
  return text.split("\n").map(visibleText).join("\n");
}
