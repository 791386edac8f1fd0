/**
 * Case conversion one character at a time, as glibc's towupper/towlower do for GNU sed's
 * `\U`/`\L` and gawk's toupper/tolower: a character whose full Unicode mapping is several
 * characters (`ß` -> `SS`, `ﬁ` -> `FI`) keeps its own, and `İ` lowers to a plain `i`.
 */
export function upperChar(ch: string): string {
  const u = ch.toUpperCase();
  return u.length === ch.length || [...u].length === 1 ? u : ch;
}

/** The lower-case counterpart of {@link upperChar}. */
export function lowerChar(ch: string): string {
  if (ch === "\u0130") return "i";
  const l = ch.toLowerCase();
  return l.length === ch.length || [...l].length === 1 ? l : ch;
}
