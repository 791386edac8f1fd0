/**
 * The characters that show as nothing or as blank space, as a regular expression character class
 * (for the `u` flag): space separators (`\p{Zs}`: U+00A0, U+3000...), line and paragraph
 * separators (U+2028, U+2029), format characters (`\p{Cf}`: zero-width space, joiners, U+2060,
 * bidi marks, U+FEFF, U+180E), the other code points Unicode says to render as nothing
 * (`Default_Ignorable_Code_Point`: U+034F, the Hangul fillers), control characters that are white
 * space (tab, line ends, vertical tab, form feed, U+001C-U+001F, U+0085) and the blank braille
 * pattern U+2800. Where one of them stands in what decides a page's rule (before its opening
 * `---`, inside a `groups` key), an author reading the file sees none of it (adversary round 63 F2).
 */
export const INVISIBLE_CLASS = "\\p{Zs}\\p{Zl}\\p{Zp}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\s\\x1C-\\x1F\\x85\\u2800";

/** One or more of `INVISIBLE_CLASS`, anywhere in a text. */
export const INVISIBLE_RUN = new RegExp(`[${INVISIBLE_CLASS}]+`, "gu");
