import { nextIndexOf } from "./text-scan.js";

/**
 * Links and images as their text: `[text](url)` and `![alt](src)` (the text may wrap onto
 * following lines, as prettier's proseWrap writes it, never across a blank line), then
 * reference links `[text][ref]` on one line. What the regular expressions
 * `/!?\[([^\]\n]*(?:\n[^\]\n]+)*)\]\([^)\n]*\)/g` and `/\[([^\]\n]*)\]\[[^\]\n]*\]/g` replace
 * by `$1`, found in one pass each: tried at every `[`, those read to the end of the line for
 * each `[` that opens no link (a page of 100,000 `[a](` took minutes, issue 25).
 */
export function linkTexts(text: string): string {
  let s = text;
  if (s.includes("](")) s = inlineLinks(s);
  if (s.includes("][")) s = referenceLinks(s);
  return s;
}

function inlineLinks(s: string): string {
  const close = nextIndexOf(s, "]");
  const blank = nextIndexOf(s, "\n\n");
  const paren = nextIndexOf(s, ")");
  const newline = nextIndexOf(s, "\n");
  let out = "";
  let done = 0;
  for (let a = s.indexOf("["); a !== -1; a = s.indexOf("[", a + 1)) {
    if (a < done) continue;
    const b = close(a + 1);
    if (b === -1) break;
    // The text: no blank line in it, and no line of it empty (so it does not end with a newline).
    const k = blank(a + 1);
    if ((k !== -1 && k + 1 < b) || (b - 1 > a && s.charCodeAt(b - 1) === 10)) continue;
    if (s.charCodeAt(b + 1) !== 40 /* ( */) continue;
    const p = paren(b + 2);
    const n = newline(b + 2);
    if (p === -1 || (n !== -1 && n < p)) continue;
    const start = a - 1 >= done && s.charCodeAt(a - 1) === 33 /* ! */ ? a - 1 : a;
    out += s.slice(done, start) + s.slice(a + 1, b);
    done = p + 1;
    a = p;
  }
  return out + s.slice(done);
}

function referenceLinks(s: string): string {
  const close = nextIndexOf(s, "]");
  const newline = nextIndexOf(s, "\n");
  // The reference's own `]` and line end are asked from later positions than the text's.
  const refClose = nextIndexOf(s, "]");
  const refNewline = nextIndexOf(s, "\n");
  let out = "";
  let done = 0;
  for (let a = s.indexOf("["); a !== -1; a = s.indexOf("[", a + 1)) {
    if (a < done) continue;
    const b = close(a + 1);
    if (b === -1) break;
    const n = newline(a + 1);
    if ((n !== -1 && n < b) || s.charCodeAt(b + 1) !== 91 /* [ */) continue;
    const c = refClose(b + 2);
    if (c === -1) continue;
    const m = refNewline(b + 2);
    if (m !== -1 && m < c) continue;
    out += s.slice(done, a) + s.slice(a + 1, b);
    done = c + 1;
    a = c;
  }
  return out + s.slice(done);
}
