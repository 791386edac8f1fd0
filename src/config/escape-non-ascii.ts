/**
 * Text as `check` prints a key the author wrote: each character past printable ASCII written as
 * an escape (`gr\u043Eups`, `\u{1F600}`), so a key that reads as `groups` or `x-svc` but is not
 * written so (a Cyrillic о, a fullwidth letter, an invisible character) shows which character
 * differs and can be found; ASCII keys, the real ones, print as written.
 */
export function escapeNonAscii(text: string): string {
  return text.replace(/[^\x20-\x7E]/gu, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16).toUpperCase()}}` : `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
  });
}
