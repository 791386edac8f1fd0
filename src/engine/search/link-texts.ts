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

/** Brackets open at once that `inlineLinks` tracks: real text nests two (an image in a link);
 *  past this a `[` is read as a character, so a page of a million `[` keeps a small stack. */
const MAX_OPEN_BRACKETS = 32;

/**
 * Inline links and images, in one pass with a stack of open brackets, as CommonMark reads them:
 * a link's text may hold brackets of its own when they balance, so a linked image
 * (`[![alt](/shot.png)](https://youtu.be/x)`, crewAI's 272 integration pages) and a name with
 * brackets (`[FLUX.1 [dev] license](https://...)`, comfy) are read as their text. Matched
 * innermost first, the code before took the first `]` for the link's end: the outer link's
 * URL stayed in the text, its words indexed and shown in snippets.
 */
function inlineLinks(s: string): string {
  const paren = nextIndexOf(s, ")");
  const newline = nextIndexOf(s, "\n");
  const blank = nextIndexOf(s, "\n\n");
  // Where each open bracket is; and what the links found take out, as [from, to) pairs: the
  // `[` (or `![`) and the `](url)`. An inner link's pairs lie inside its outer link's text.
  const open = new Int32Array(MAX_OPEN_BRACKETS);
  let depth = 0;
  const cuts: number[] = [];
  let nextBlank = blank(0);
  let i = s.indexOf("[");
  while (i !== -1 && i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 91 /* [ */ || c === 93 /* ] */) {
      // A paragraph ends at a blank line: no bracket before it pairs with one after.
      if (nextBlank !== -1 && nextBlank < i) {
        depth = 0;
        nextBlank = blank(i);
      }
      if (c === 91) {
        if (depth < MAX_OPEN_BRACKETS) open[depth++] = i;
      } else if (depth > 0) {
        const a = open[--depth] as number;
        // The text: no line of it empty (so it does not end with a newline); then `(url)` on the line.
        if (!(i - 1 > a && s.charCodeAt(i - 1) === 10) && s.charCodeAt(i + 1) === 40 /* ( */) {
          const p = paren(i + 2);
          const n = newline(i + 2);
          if (p !== -1 && (n === -1 || p < n)) {
            cuts.push(a > 0 && s.charCodeAt(a - 1) === 33 /* ! */ ? a - 1 : a, a + 1, i, p + 1);
            i = p + 1;
            continue;
          }
        }
      }
    }
    i++;
  }
  if (cuts.length === 0) return s;
  const pairs: [number, number][] = [];
  for (let k = 0; k < cuts.length; k += 2) pairs.push([cuts[k] as number, cuts[k + 1] as number]);
  pairs.sort((x, y) => x[0] - y[0]);
  let out = "";
  let done = 0;
  for (const [from, to] of pairs) {
    out += s.slice(done, from);
    done = to;
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
