/**
 * LaTeX math as searchable text. Mintlify renders `$...$` (inline) and `$$...$$` (block) as math
 * (its docs: "Use single dollar signs, `$`, for inline mathematical expressions"), so the braces in
 * `\mathrm{maxLIF}` or `u_{target}` are TeX groups, not JSX expressions. Read as expressions they
 * were dropped with their words, and the TeX command names stayed as words: Berachain's
 * liquidation formula was indexed as `\mathrm = \min \left( \mathrm ,\ \frac \right)`. What a
 * reader sees of a formula is its symbols and names: groups keep their text, commands go
 * (operator names such as `\min` read as the word), escaped characters are the characters.
 * LaTeX's `\(...\)` and `\[...\]` are not read as math: Mintlify's LaTeX page names only dollar
 * signs and the `<Latex>` component, and in Markdown `\(` is an escaped `(`, shown as written.
 */

/** Commands KaTeX prints as the word itself (`\min` is "min"); every other command is markup or a symbol. */
const OPERATOR_NAMES = new Set(["min", "max", "log", "ln", "exp", "sin", "cos", "tan", "lim", "det", "gcd", "sup", "inf", "arg", "mod", "deg", "dim", "ker", "sec", "csc", "cot"]);

/** Characters a backslash writes as themselves in TeX (`\{`, `\_`, `\%`). */
const ESCAPED_LITERALS = "{}_%$&#";

/** The longest math span read (a block of formulas rarely passes a few KB; an unclosed `$$` must not scan a whole page). */
const MAX_SPAN = 8_000;

/** Characters the scans for a closing `$` may read per character of a text, over all its spans. */
const READS_PER_CHAR = 4;

/**
 * The math spans of one text, read as the scan reaches each `$`. The reads for a closing `$` are
 * bounded for the whole text (`READS_PER_CHAR`): a page of `$$` runs that never close
 * (`a$$$a$$$...`, each run 8,000 characters from a close) cost 1.7 s per 200 KB read one by one;
 * past the bound the text's remaining dollars are characters, as in a text without math.
 */
export class MathSpans {
  private left: number;

  constructor(private readonly s: string) {
    this.left = READS_PER_CHAR * s.length + 1_024;
  }

  /** The run of `$` starting at `at`. */
  runLength(at: number): number {
    let n = 0;
    while (this.s.charCodeAt(at + n) === 36 /* $ */) n++;
    return n;
  }

  /**
   * The span opened by the `$` run at `at`: `$...$` on one line, `$$...$$` over lines within a
   * paragraph; undefined when none closes it, or when its text holds no TeX group or command
   * (`$5 and $10` reads the same either way, so prose with prices is left exactly as it was).
   */
  at(at: number): { readonly from: number; readonly to: number; readonly end: number } | undefined {
    const s = this.s;
    const n = this.runLength(at);
    if (n > 2 || this.left <= 0) return undefined;
    const limit = Math.min(s.length, at + n + MAX_SPAN, at + n + this.left);
    let found: { from: number; to: number; end: number } | undefined;
    let j = at + n;
    for (; j < limit; j++) {
      const c = s.charCodeAt(j);
      if (c === 92 /* \ */) {
        j++;
        continue;
      }
      if (c === 10 /* \n */ && (n === 1 || s.charCodeAt(j + 1) === 10)) break;
      if (c !== 36) continue;
      const run = this.runLength(j);
      if (run !== n) {
        j += run - 1;
        continue;
      }
      if (j > at + n && /[\\{}]/.test(s.slice(at + n, j))) found = { from: at + n, to: j, end: j + n };
      break;
    }
    this.left -= j - at;
    return found;
  }
}

/** A formula's TeX as the words and symbols a reader sees, with a space on each side. */
export function mathText(tex: string): string {
  let out = "";
  // Per open group: whether it is a subscript's or superscript's (`u_{target}` reads `u_target`).
  const joined: boolean[] = [];
  for (let j = 0; j < tex.length; j++) {
    const c = tex.charCodeAt(j);
    if (c === 92 /* \ */) {
      let k = j + 1;
      while (k < tex.length && isLetter(tex.charCodeAt(k))) k++;
      if (k > j + 1) {
        const name = tex.slice(j + 1, k);
        // A command right after `_` or `^` wraps the subscript (`u_{\text{target}}` is `u_target`).
        const last = out.charCodeAt(out.length - 1);
        out += OPERATOR_NAMES.has(name) ? ` ${name} ` : last === 95 || last === 94 ? "" : " ";
        j = k - 1;
      } else if (j + 1 < tex.length) {
        const e = tex[j + 1] as string;
        out += ESCAPED_LITERALS.includes(e) ? e : " ";
        j++;
      }
    } else if (c === 123 /* { */) {
      const last = out.charCodeAt(out.length - 1);
      const sub = last === 95 /* _ */ || last === 94; /* ^ */
      joined.push(sub);
      if (!sub) out += " ";
    } else if (c === 125 /* } */) {
      if (joined.pop() !== true) out += " ";
    } else out += tex[j];
  }
  return ` ${out} `;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
