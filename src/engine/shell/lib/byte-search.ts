import type { StoredText } from "../../../vfs/stored-text.js";

/**
 * Whether a file matches at all, read from its stored UTF-8 bytes without decoding them, for
 * the patterns most searches are: ASCII literals (`rg -il checkout`, `grep -rl "base URL"`).
 *
 * Why (issue 22): `rg -il` over 50,000 pages held as UTF-8 (the shell's shared snapshot) spent
 * most of its time decoding every page into a string before one regex call on it. The bytes read
 * as Latin-1 (a copy into a one-byte string, no decoding) hold every ASCII character of the text
 * at its place, and a UTF-8 sequence of a wider character only as bytes 0x80-0xff, which no ASCII
 * character matches, even ignoring case: a pattern whose every match is ASCII characters matches
 * the text exactly when it matches that view. Under case folding two wider characters stand for
 * ASCII letters (U+212A KELVIN SIGN for k, U+017F LONG S for s): a text holding one of them is
 * decoded and searched as before. GNU grep's `-i` comes spelled out without the flag where it
 * differs from it (`[kK]`, `[sSſ]`, `[iIı]`: regex/gnu-case.ts): a class of an ASCII letter's two
 * cases is read the same way, one with `ſ` or `ı` only for a text that holds none.
 */

/** A pattern source made only of ASCII literal characters (escaped punctuation included), in
 *  non-capturing groups joined by `|`: every match is ASCII, none is empty, nothing looks around. */
const ASCII_LITERALS =
  /^(?:[\x20-\x23\x25-\x27\x2c\x2d\x2f-\x3e\x40-\x5a\x5f-\x7a\x7e]|\\[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]|\[[A-Za-z]{2}(?:\\u\{17f\}|\\u\{131\})?\]|\(\?:|\)|\|)+$/;
/** What the pattern source must not hold besides: an empty alternative. */
const EMPTY_ALTERNATIVE = /\(\?:\)|\|\||\(\?:\||\|\)|^\||\|$/;

/** The UTF-8 bytes of the two wider characters that case folding maps to ASCII letters. */
const KELVIN = Buffer.from("\u212a", "utf8");
const LONG_S = Buffer.from("\u017f", "utf8");
/** The dotless ı, which GNU's `-i` spells beside `i` and `I`. */
const DOTLESS_I = Buffer.from("\u0131", "utf8");

interface ByteSearch {
  /** The pattern as a regex over the Latin-1 view (no `g`/`y`: searched from the start). */
  readonly regex: RegExp;
  /** Whether a text with a KELVIN SIGN or LONG S could match differently from its view. */
  readonly folds: boolean;
  /** Whether a text with a LONG S or a dotless ı could (a spelled-out class holds it). */
  readonly spelled: boolean;
}

const searches = new WeakMap<RegExp, ByteSearch | null>();

function byteSearchOf(regex: RegExp): ByteSearch | undefined {
  let search = searches.get(regex);
  if (search === undefined) {
    search = null;
    if (ASCII_LITERALS.test(regex.source) && !EMPTY_ALTERNATIVE.test(regex.source) && /^[gimsuy]*$/.test(regex.flags)) {
      const ignoreCase = regex.flags.includes("i");
      search = { regex: new RegExp(regex.source, regex.flags.replace(/[gy]/g, "")), folds: ignoreCase && /[ks]/i.test(regex.source), spelled: regex.source.includes("\\u{") };
    }
    searches.set(regex, search);
  }
  return search ?? undefined;
}

/**
 * Whether `regex` matches anywhere in the text `stored` holds (a line with a match: a literal
 * never matches across a line end, nor empty), or undefined when that cannot be told from the
 * bytes: a text not held as UTF-8, a pattern that is not ASCII literals, a case fold to check.
 */
export function literalHitInBytes(stored: StoredText | undefined, regex: RegExp): boolean | undefined {
  if (stored?.encoding !== "utf8") return undefined;
  const search = byteSearchOf(regex);
  if (search === undefined) return undefined;
  const bytes = Buffer.from(stored.buffer, stored.offset, stored.length);
  // A match in the view is a match in the text (it is ASCII characters at their places); only a
  // text without one may hold a wider character that folds to a letter of the pattern, so only
  // then is it scanned for one (most files `rg -il` lists were scanned three times).
  if (search.regex.test(bytes.toString("latin1"))) return true;
  if (search.folds && (bytes.includes(KELVIN) || bytes.includes(LONG_S))) return undefined;
  if (search.spelled && (bytes.includes(LONG_S) || bytes.includes(DOTLESS_I))) return undefined;
  return false;
}
