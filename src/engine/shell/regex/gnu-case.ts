import { caseFoldedCounterparts } from "./case-counterparts.js";
import { GLIBC_TOLOWER, GLIBC_TOUPPER } from "./glibc-ctype-tables.js";

/**
 * GNU grep's `-i` and sed's `I` (glibc, C.UTF-8) on a translated pattern source (JS `u` mode).
 * JS's `iu` flags fold by Unicode, where a letter and all its case forms match one another;
 * GNU matches a pattern character with its counterparts (case-counterparts.ts), which differs for
 * a few dozen characters: `k` does not match the Kelvin sign, `ß` not `ẞ`, `ω` not the Ohm sign,
 * `ı` matches `I` and `i`. A pattern that holds none of them keeps the `iu` flags; one that does
 * is spelled out, each letter as the class of what it matches, and compiled without `i` (no
 * flag of V8 can leave a case form out).
 */
export interface CaseSource {
  readonly source: string;
  /** Whether the source still needs the `i` flag. */
  readonly ignoreCase: boolean;
}

interface GnuCase {
  /** Each character's counterparts, where it has any. */
  readonly of: ReadonlyMap<number, readonly number[]>;
  /** The characters that have counterparts, ascending (for the ones inside a range). */
  readonly cased: readonly number[];
  /** Whether what the `iu` flags match for a character is not what GNU matches (decided when first asked). */
  readonly differs: (cp: number) => boolean;
}

function parsePairs(text: string): Map<number, number> {
  const map = new Map<number, number>();
  for (const pair of text.split(" ")) {
    const [from, to] = pair.split(":");
    map.set(Number.parseInt(from as string, 16), Number.parseInt(to as string, 16));
  }
  return map;
}

// Built on first use (a grep -i or sed I) from the recorded tables; what V8 folds is asked per
// character when a pattern holds it (a whole table of V8's folds took ~100 ms of CPU).
let table: GnuCase | undefined;

function build(): GnuCase {
  const upper = parsePairs(GLIBC_TOUPPER);
  const lower = parsePairs(GLIBC_TOLOWER);
  const up = (c: number) => upper.get(c) ?? c;
  const low = (c: number) => lower.get(c) ?? c;
  const of = new Map<number, readonly number[]>();
  for (const c of new Set([...upper.keys(), ...upper.values(), ...lower.keys(), ...lower.values()])) {
    const counterparts = caseFoldedCounterparts(c, up, low);
    if (counterparts.length > 0) of.set(c, counterparts);
  }
  // Every character glibc changes case of or changes to, in one string: what V8 folds a character
  // with is among them (but characters newer than glibc's Unicode, which glibc leaves alone).
  const casedText = [...new Set([...upper.keys(), ...upper.values(), ...lower.keys(), ...lower.values()])].map((c) => String.fromCodePoint(c)).join("");
  const memo = new Map<number, boolean>();
  const key = (list: Iterable<number>) => [...new Set(list)].sort((a, b) => a - b).join();
  const differs = (cp: number): boolean => {
    let d = memo.get(cp);
    if (d === undefined) {
      // What V8 folds together with it: its matches among every character that may change case.
      const js = [cp];
      for (const m of casedText.matchAll(new RegExp(`[\\u{${cp.toString(16)}}]`, "giu"))) js.push(m[0].codePointAt(0) as number);
      d = key(js) !== key([cp, ...(of.get(cp) ?? [])]);
      memo.set(cp, d);
    }
    return d;
  };
  return { of, cased: [...of.keys()].sort((a, b) => a - b), differs };
}

/** One escape of a translated source, copied whole: `\p{..}`, `\u{..}`, `\uXXXX`, `\xXX`, or one character. */
const ESCAPE = /\\(?:[pPu]\{[^}]*\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/y;

/** The character an escape stands for, if it is one character (`\u{6b}`, `\x41`, `\.`); undefined for `\w`, `\b`... */
function escapedChar(esc: string): number | undefined {
  if (esc.startsWith("\\u{")) return Number.parseInt(esc.slice(3, -1), 16);
  if (/^\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2})$/.test(esc)) return Number.parseInt(esc.slice(2), 16);
  if (esc.length === 2 && !/[a-zA-Z0-9]/.test(esc[1] as string)) return esc.codePointAt(1);
  return undefined;
}

/** A code point as class member text: ASCII letters and digits as themselves (the byte search reads `[kK]`), the rest escaped. */
function member(cp: number): string {
  return /^[A-Za-z0-9]$/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : `\\u{${cp.toString(16)}}`;
}

/** A back-reference (`\1`, `\k<..>`): GNU compares it ignoring case too, which only the `i` flag does. */
const BACK_REFERENCE = /^\\([1-9]|k)$/;

/** The source for GNU's case folding, and whether it still needs the `i` flag. */
export function gnuIgnoreCase(source: string): CaseSource {
  table ??= build();
  const t = table;
  let out = "";
  let affected = false;
  for (let i = 0; i < source.length; ) {
    const c = source[i] as string;
    if (c === "[") {
      const end = classEnd(source, i);
      const body = source.slice(i, end);
      const expanded = expandClass(body, t);
      if (expanded === undefined) return { source: withDotlessI(source), ignoreCase: true };
      affected ||= expanded.affected;
      out += expanded.text;
      i = end;
      continue;
    }
    let cp: number | undefined;
    let text: string;
    if (c === "\\") {
      ESCAPE.lastIndex = i;
      text = (ESCAPE.exec(source) as RegExpExecArray)[0];
      if (BACK_REFERENCE.test(text)) return { source: withDotlessI(source), ignoreCase: true };
      cp = escapedChar(text);
    } else {
      cp = source.codePointAt(i) as number;
      text = String.fromCodePoint(cp);
    }
    i += text.length;
    if (cp !== undefined) affected ||= t.differs(cp);
    const counterparts = cp === undefined ? undefined : t.of.get(cp);
    if (cp === undefined || counterparts === undefined) {
      out += text;
      continue;
    }
    out += `[${member(cp)}${counterparts.map(member).join("")}]`;
  }
  return affected ? { source: out, ignoreCase: false } : { source, ignoreCase: true };
}

/** Where the class starting at `start` (a `[`) ends: the index after its `]`. */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === "^") i++;
  for (; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      ESCAPE.lastIndex = i;
      i += (ESCAPE.exec(source) as RegExpExecArray)[0].length - 1;
    } else if (c === "]") return i + 1;
  }
  return source.length;
}

/** Classes seen before, expanded (the word assertions of `-w` are one large class, in every pattern). */
const expandedClasses = new Map<string, { readonly text: string; readonly affected: boolean } | undefined>();
const MAX_CACHED_CLASSES = 256;

/**
 * A class with each member's counterparts added (for a range, those of the characters in it),
 * so that it matches without the `i` flag what GNU's matches with it; a negated class is the
 * complement of that. Undefined where a member cannot be read (a back-reference inside).
 */
function expandClass(body: string, t: GnuCase): { readonly text: string; readonly affected: boolean } | undefined {
  if (expandedClasses.has(body)) return expandedClasses.get(body);
  const ranges: [number, number][] = [];
  let i = body[1] === "^" ? 2 : 1;
  const close = body.endsWith("]") ? body.length - 1 : body.length;
  let prev: number | undefined;
  while (i < close) {
    const c = body[i] as string;
    if (c === "-" && prev !== undefined && i + 1 < close) {
      const next = readItem(body, i + 1);
      if (next.cp !== undefined) {
        (ranges[ranges.length - 1] as [number, number])[1] = next.cp;
        i = next.end;
        prev = undefined;
        continue;
      }
    }
    const item = readItem(body, i);
    if (item.backReference) return undefined;
    if (item.cp !== undefined) ranges.push([item.cp, item.cp]);
    prev = item.cp;
    i = item.end;
  }
  const inside = (cp: number) => ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
  let added = "";
  let affected = false;
  for (const [lo, hi] of ranges) {
    affected ||= t.differs(lo) || t.differs(hi);
    for (let k = firstAtLeast(t.cased, lo); k < t.cased.length && (t.cased[k] as number) <= hi; k++) {
      const cp = t.cased[k] as number;
      affected ||= t.differs(cp);
      for (const d of t.of.get(cp) ?? []) {
        if (!inside(d)) {
          added += member(d);
          ranges.push([d, d]);
        }
      }
    }
  }
  const result = { text: body.slice(0, close) + added + body.slice(close), affected };
  if (expandedClasses.size >= MAX_CACHED_CLASSES) expandedClasses.clear();
  expandedClasses.set(body, result);
  return result;
}

/** One class member at `i`: the character it is (if one), and where it ends. */
function readItem(body: string, i: number): { readonly cp: number | undefined; readonly end: number; readonly backReference?: boolean } {
  if (body[i] === "\\") {
    ESCAPE.lastIndex = i;
    const esc = (ESCAPE.exec(body) as RegExpExecArray)[0];
    return { cp: escapedChar(esc), end: i + esc.length, backReference: BACK_REFERENCE.test(esc) };
  }
  const cp = body.codePointAt(i) as number;
  return { cp, end: i + String.fromCodePoint(cp).length };
}

/** The first index of `sorted` whose value is at least `value`. */
function firstAtLeast(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The `iu` source where it must keep the flag (a back-reference): `I`, `i` and `ı` match one
 * another as in GNU, which `iu` alone does not do for `ı`. Each `I`, `i` or `ı` becomes `[Iiı]`,
 * and a bracket holding one of them (or a range over `I` or `i`) gains `ı`. (The Kelvin sign,
 * `ß` and the others stay folded as `iu` folds them there.)
 */
export function withDotlessI(source: string): string {
  const DOTLESS = "\u0131";
  let out = "";
  let inClass = false;
  let classHasI = false;
  let prev = -1; // the last single character in the class, for a range's start
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      // An escape: copy it whole (`\p{..}`, `\u{..}`, `\uXXXX`, `\xXX`, or one character).
      ESCAPE.lastIndex = i;
      const m = ESCAPE.exec(source);
      const esc = m === null ? c : m[0];
      out += esc;
      i += esc.length - 1;
      prev = esc.length === 2 && !/[a-zA-Z0-9]/.test(esc[1] as string) ? (esc.codePointAt(1) as number) : -1;
      continue;
    }
    if (inClass) {
      if (c === "]") {
        out += (classHasI ? DOTLESS : "") + c;
        inClass = false;
        continue;
      }
      if (c === "-" && prev !== -1 && i + 1 < source.length && source[i + 1] !== "]") {
        const end = source.codePointAt(i + 1) as number;
        if ((prev <= 0x49 && end >= 0x49) || (prev <= 0x69 && end >= 0x69)) classHasI = true;
        out += c;
        prev = -1;
        continue;
      }
      if (c === "I" || c === "i" || c === "\u0131") classHasI = true;
      prev = c.codePointAt(0) as number;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      classHasI = false;
      prev = -1;
      out += c;
      if (source[i + 1] === "^") out += source[++i];
      continue;
    }
    out += c === "I" || c === "i" || c === "\u0131" ? `[Ii${DOTLESS}]` : c;
  }
  return out;
}
