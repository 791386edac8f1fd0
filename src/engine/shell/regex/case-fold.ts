/**
 * One representative per class of characters that a JS regex with the `iu` flags treats as the
 * same letter (Unicode simple case folding: `k`, `K` and the Kelvin sign `K`; `σ`, `ς` and
 * `Σ`), so that a search can fold its patterns and its text and compare them exactly. The
 * classes are read from V8's own regex engine, not from a table of ours, so a fold always agrees
 * with what `new RegExp(x, "iu")` would match: every character in a class of more than one has
 * `Changes_When_Casemapped` or `Changes_When_Casefolded` (a few thousand), and each of those is
 * tested against all the others once.
 */

/** Folded BMP code units (identity where no class), and astral code points that fold. */
interface FoldTable {
  readonly bmp: Uint16Array;
  readonly astral: ReadonlyMap<number, number>;
}

/** The last code point that may change case: the end of plane 1. */
export const LAST_CASED = 0x1ffff;

// Built on first use and kept: it depends on nothing but the engine's Unicode data (~20 ms).
let table: FoldTable | undefined;

function buildTable(): FoldTable {
  const cased: number[] = [];
  const mapped = /^[\p{Changes_When_Casemapped}\p{Changes_When_Casefolded}]$/u;
  // No character past plane 1 changes case (checked by test/shell/fixed-strings.test.ts).
  for (let cp = 0; cp <= LAST_CASED; cp++) {
    if ((cp < 0xd800 || cp > 0xdfff) && mapped.test(String.fromCodePoint(cp))) cased.push(cp);
  }
  // All of them in one string: one global case-insensitive search per character finds its class.
  const all = cased.map((cp) => String.fromCodePoint(cp)).join("");
  const bmp = new Uint16Array(0x10000);
  for (let i = 0; i < bmp.length; i++) bmp[i] = i;
  const astral = new Map<number, number>();
  const done = new Set<number>();
  for (const cp of cased) {
    if (done.has(cp)) continue;
    const members: number[] = [];
    for (const m of all.matchAll(new RegExp(escapeForClass(cp), "giu"))) members.push(m[0].codePointAt(0) as number);
    let least = cp;
    for (const m of members) if (m < least) least = m;
    for (const m of members) {
      done.add(m);
      // A class whose members differ in UTF-16 length would move offsets: keep such a member as itself.
      if ((m > 0xffff) !== (least > 0xffff)) continue;
      if (m <= 0xffff) bmp[m] = least;
      else if (m !== least) astral.set(m, least);
    }
  }
  return { bmp, astral };
}

function escapeForClass(cp: number): string {
  return `[\\u{${cp.toString(16)}}]`;
}

function foldTable(): FoldTable {
  table ??= buildTable();
  return table;
}

/**
 * `text` with every character replaced by its class's representative; same length, so offsets in
 * the result are offsets in `text`. Two strings match case-insensitively (as with the `iu` flags)
 * exactly where their folds are equal.
 */
export function foldCase(text: string): string {
  const { bmp, astral } = foldTable();
  let out: string[] | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    let folded: string | undefined;
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < text.length) {
      const cp = text.codePointAt(i) as number;
      const f = astral.get(cp);
      if (f !== undefined) folded = String.fromCodePoint(f);
      if (cp > 0xffff) {
        if (folded !== undefined) {
          out ??= [];
          out.push(text.slice(from, i), folded);
          from = i + 2;
        }
        i++;
        continue;
      }
    }
    const f = bmp[u] as number;
    if (f === u) continue;
    out ??= [];
    out.push(text.slice(from, i), String.fromCharCode(f));
    from = i + 1;
  }
  if (out === undefined) return text;
  out.push(text.slice(from));
  return out.join("");
}
