import { GLIBC_CTYPE_RANGES } from "./glibc-ctype-tables.js";

/**
 * glibc's POSIX classes in a UTF-8 locale (what `[[:alpha:]]`, `\w`, `\s` and `-w` mean to GNU
 * grep and sed) as JS `u`-mode class bodies. Recorded from the real tools rather than read from
 * JS's Unicode properties: glibc counts non-ASCII digits (`١`, `１`) as letters, titlecase
 * letters as both upper and lower, every graphic non-alphanumeric character as punctuation, and
 * its space has no no-break spaces, none of which `\p{..}` says.
 */

type Stored = keyof typeof GLIBC_CTYPE_RANGES;

function body(name: Stored): string {
  let out = "";
  for (const range of GLIBC_CTYPE_RANGES[name].split(" ")) {
    const [lo, hi] = range.split("-");
    out += `\\u{${lo as string}}`;
    if (hi !== undefined) out += `-\\u{${hi}}`;
  }
  return out;
}

const alpha = body("alpha");
const graph = body("graph");
const alnum = `${alpha}0-9`;

/** `[[:name:]]` bodies, as glibc's C.UTF-8 locale defines them (`\n` in none). */
export const GLIBC_CLASSES: Readonly<Record<string, string>> = {
  alpha,
  digit: "0-9",
  alnum,
  upper: body("upper"),
  lower: body("lower"),
  space: body("space"),
  blank: body("blank"),
  punct: body("punct"),
  print: `${graph}${body("blank").replace("\\u{9}", "")}`,
  graph,
  cntrl: body("cntrl"),
  xdigit: "0-9A-Fa-f",
};

/** GNU word constituents (`\w`, `\b`, `-w`): glibc's alnum and `_`. */
export const GLIBC_WORD_BODY = `${alnum}_`;
