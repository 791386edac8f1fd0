/**
 * What a character matches under GNU grep's `-i` and sed's `I` besides itself: gnulib's
 * `case_folded_counterparts` (localeinfo.c), from glibc's towupper and towlower. Not Unicode's
 * case folding, which JS's `iu` flags follow: the Kelvin sign `K`, the Ohm sign `Ω` and the
 * Angstrom sign `Å` lower to `k`, `ω` and `å`, but those upper to `K`, `Ω` and `Å`, so each sign
 * matches only itself and the letters never match it; `ß` and `ẞ` do not match each other (`ß`
 * has no one-character upper case); the dotless `ı` matches `I` and `i` (it uppers to `I`).
 * Checked against the real grep and sed for every character that has a case by
 * scripts/record-glibc-ctype.mjs.
 */

/** gnulib's "lonesome lower" letters: lower case letters that are not their upper case's lower case (`ı`, `ſ`, `ς`, `µ`...). */
const LONESOME_LOWER = [
  0x00b5, 0x0131, 0x017f, 0x01c5, 0x01c8, 0x01cb, 0x01f2, 0x0345, 0x03c2, 0x03d0, 0x03d1, 0x03d5, 0x03d6, 0x03f0, 0x03f1, 0x03f2, 0x03f5, 0x1e9b, 0x1fbe,
] as const;

/** The characters `c` matches ignoring case, itself left out, by glibc's `toUpper`/`toLower` (code points). */
export function caseFoldedCounterparts(c: number, toUpper: (c: number) => number, toLower: (c: number) => number): number[] {
  const out: number[] = [];
  const uc = toUpper(c);
  const lc = toLower(uc);
  if (uc !== c) out.push(uc);
  if (lc !== uc && lc !== c && toUpper(lc) === uc) out.push(lc);
  for (const li of LONESOME_LOWER) if (li !== lc && li !== uc && li !== c && toUpper(li) === uc) out.push(li);
  return out;
}
