import { appendAll } from "../../arrays.js";

/**
 * A body's sections as the index keeps them (`SearchIndex`): what a hit shows of a section
 * (heading, parents, anchor) and where its text is in the body, in two values per body instead
 * of an object per section with its own strings. An object, a parents array and two strings a
 * section cost ~5.8 KB a page at 20,000 distinct pages (115 MB; the headings were slices of the
 * body's string, so a page's body stayed referenced besides), and a cold start's peak is what
 * issue 22 bounds.
 *
 * Plain data (an `Int32Array` and one string), so that the persistent cache stores and reads it
 * as it is (`site-cache-columns.ts`).
 */
export interface SectionTable {
  /**
   * `[sections, strings]`, then per section its start, end and where its parents end in the
   * parent references; then the parent references (string numbers, outermost first); then where
   * each string ends in `strings`. String `2k` is section k's heading, `2k + 1` its anchor; any
   * after those are parents that are no section's heading.
   */
  readonly ints: Int32Array;
  /** Every string, one after another. */
  readonly strings: string;
}

/** What a hit shows of a section, and where its text is in the body (`sectionText`). */
export interface StoredSection {
  readonly heading: string;
  readonly parents: readonly string[];
  readonly anchor: string;
  readonly start: number;
  readonly end: number;
}

const HEADER = 2;
const PER_SECTION = 3;
/** Characters all below 256: such a string is stored one byte a character. */
const LATIN1_RE = /^[\0-\xff]*$/;

/** The table of `sections`, in order. */
export function sectionTable(sections: readonly StoredSection[]): SectionTable {
  const n = sections.length;
  const strings: string[] = [];
  const refs: number[] = [];
  const refEnds: number[] = [];
  /** A heading's string number by its text: a parent is the heading of a section before it. */
  const headingNumber = new Map<string, number>();
  const extras: string[] = [];
  for (let k = 0; k < n; k++) {
    const s = sections[k] as StoredSection;
    for (const p of s.parents) {
      let ref = headingNumber.get(p);
      if (ref === undefined) {
        ref = 2 * n + extras.length;
        extras.push(p);
        headingNumber.set(p, ref);
      }
      refs.push(ref);
    }
    refEnds.push(refs.length);
    strings.push(s.heading, s.anchor);
    headingNumber.set(s.heading, 2 * k);
  }
  appendAll(strings, extras);
  const ints = new Int32Array(HEADER + PER_SECTION * n + refs.length + strings.length);
  ints[0] = n;
  ints[1] = strings.length;
  for (let k = 0; k < n; k++) {
    const s = sections[k] as StoredSection;
    ints[HEADER + PER_SECTION * k] = s.start;
    ints[HEADER + PER_SECTION * k + 1] = s.end;
    ints[HEADER + PER_SECTION * k + 2] = refEnds[k] as number;
  }
  ints.set(refs, HEADER + PER_SECTION * n);
  let end = 0;
  const ends = HEADER + PER_SECTION * n + refs.length;
  strings.forEach((s, i) => (ints[ends + i] = end += s.length));
  return { ints, strings: compact(strings.join("")) };
}

/**
 * `s` as a new flat string, one byte a character when it can be: joined from slices of a body
 * with any character past Latin-1, it would take two bytes a character.
 */
function compact(s: string): string {
  return LATIN1_RE.test(s) ? Buffer.from(s, "latin1").toString("latin1") : s;
}

/** How many sections the table holds. */
export function sectionCount(table: SectionTable): number {
  return table.ints[0] as number;
}

/** Section `k` of the table (`k` below `sectionCount`). */
export function sectionAt(table: SectionTable, k: number): StoredSection {
  const { ints } = table;
  const n = ints[0] as number;
  const at = HEADER + PER_SECTION * k;
  const refsAt = HEADER + PER_SECTION * n;
  const refsFrom = k === 0 ? 0 : (ints[at - 1] as number);
  const refsTo = ints[at + 2] as number;
  const parents: string[] = [];
  for (let r = refsFrom; r < refsTo; r++) parents.push(stringAt(table, ints[refsAt + r] as number));
  return { heading: stringAt(table, 2 * k), parents, anchor: stringAt(table, 2 * k + 1), start: ints[at] as number, end: ints[at + 1] as number };
}

/** Section `k`'s heading alone (`sectionAt(table, k).heading`, without its other strings). */
export function sectionHeading(table: SectionTable, k: number): string {
  return stringAt(table, 2 * k);
}

/** String `i` of the table. */
function stringAt(table: SectionTable, i: number): string {
  const { ints } = table;
  const n = ints[0] as number;
  const ends = HEADER + PER_SECTION * n + (n === 0 ? 0 : (ints[HEADER + PER_SECTION * (n - 1) + 2] as number));
  return table.strings.slice(i === 0 ? 0 : (ints[ends + i - 1] as number), ints[ends + i] as number);
}
