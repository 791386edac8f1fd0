import { type SectionReuse, slugify, toPlainText } from "./sections.js";

/**
 * A section's analysis kept for the sections written the same in other bodies: its units (the
 * section, or its text and a long table's rows or a reference list's items, `block-units.ts`),
 * each with its place relative to the section's start, its `textPrint` and the term ids of its
 * prose then its code (`prose` of them are prose's). The heading's ids are not kept: they depend
 * on the headings above it, which the section's key leaves out.
 */
export interface KnownUnit {
  readonly from: number;
  readonly to: number;
  readonly print: number | null;
  readonly ids: Int32Array;
  readonly prose: number;
}

/** Heading texts kept (`heading`) before starting afresh. */
const MAX_HEADINGS = 50_000;

/** A generation whose sections were found for less than this share of the characters it looked
 *  up (found and kept) was not worth keeping (`KnownSections.consult`). */
const WORTH_FINDING = 1 / 16;

/** At most 2^this generations' worth of characters analysed without looking up in a row. */
const MAX_SLEEPS = 4;

/**
 * Sections analysed before, by heading and lines (`SectionReuse`), for the bodies of one
 * analyser (one vocabulary: the ids are its own). A large site's copies of a page (versions with a
 * few lines edited, products sharing a guide) differ in a section or two: splitting and
 * tokenizing were most of a build's CPU (issue 22), and each section written the same is done
 * once. Results are the same: a section's units depend on its heading and lines alone once it
 * starts clean, and on whether its body is looked at for tables and reference lists at all
 * (`forBody`), which the key holds.
 *
 * Bounded by the characters of the keys held (`maxChars`), in two generations: when the newer
 * is full the older goes, and a section found in the older moves to the newer. A site's copies
 * of a page come a copy of the site apart, so what is kept is what the last copy held.
 *
 * Where sections are seldom written twice (a site of distinct pages), looking each up and keeping
 * it cost a quarter of the analysis and found next to nothing: a generation that ends having found
 * under `WORTH_FINDING` of what it looked up lets the next bodies go unlooked-at (`consult`) for
 * two generations' worth of characters, then four, up to 2^`MAX_SLEEPS`, and looks again; one
 * worth it resets the count. A generation that had no older one to look in (the first, the first
 * after a rest) is not judged: copies a generation apart are found only from the next. Decided
 * by the text alone, never the clock: the analyses are the same either way, only the work differs.
 */
export class KnownSections implements SectionReuse<readonly KnownUnit[]> {
  private newer = new Map<string, readonly KnownUnit[]>();
  private older = new Map<string, readonly KnownUnit[]>();
  private chars = 0;
  private prefix = "";
  private readonly headings = new Map<string, { readonly text: string; readonly slug: string }>();
  /** Sections found kept so far (what the reuse saved, for tests and measurements). */
  found = 0;
  /** Characters of the sections found in this generation. */
  private foundChars = 0;
  /** Characters of bodies still to go unlooked-at (`consult`); 0 while looking up. */
  private idle = 0;
  private sleeps = 0;
  /** Whether the newer generation began with no older one (see the class). */
  private unjudged = true;

  constructor(private readonly maxChars: number) {}

  /** Whether a body of `chars` characters is to look its sections up and keep them (false while
   *  resting after generations not worth keeping, see the class). */
  consult(chars: number): boolean {
    if (this.idle <= 0) return true;
    this.idle -= chars;
    return false;
  }

  /** Set what the next body's keys start with: whether it is read for tables and for reference
   *  lists (`withTableRows`, `withReferenceListItems` decide on the whole body). */
  forBody(tables: boolean, lists: boolean): this {
    this.prefix = tables ? (lists ? "3" : "2") : lists ? "1" : "0";
    return this;
  }

  key(heading: string, normal: string, start: number, end: number): string {
    // The heading's length first: no heading and lines make the key of another pair.
    return `${this.prefix}${heading.length}:${heading}${normal.slice(start, end)}`;
  }

  find(key: string): readonly KnownUnit[] | undefined {
    const kept = this.newer.get(key);
    if (kept !== undefined) {
      this.found++;
      this.foundChars += key.length;
      return kept;
    }
    const old = this.older.get(key);
    if (old !== undefined) {
      this.found++;
      this.foundChars += key.length;
      this.keep(key, old);
    }
    return old;
  }

  heading(raw: string): { readonly text: string; readonly slug: string } {
    let made = this.headings.get(raw);
    if (made === undefined) {
      const text = toPlainText(raw);
      made = { text: copied(text), slug: copied(slugify(text)) };
      // Headings are short and repeat across a site: bounded by count, afresh past it.
      if (this.headings.size >= MAX_HEADINGS) this.headings.clear();
      this.headings.set(copied(raw), made);
    }
    return made;
  }

  keep(key: string, units: readonly KnownUnit[]): void {
    if (this.chars + key.length > this.maxChars / 2) {
      if (this.unjudged) {
        this.unjudged = false;
        this.older = this.newer;
      } else if (this.foundChars < WORTH_FINDING * (this.foundChars + this.chars)) {
        this.sleeps = Math.min(this.sleeps + 1, MAX_SLEEPS);
        this.idle = 2 ** this.sleeps * (this.maxChars / 2);
        this.unjudged = true;
        this.older = new Map();
      } else {
        this.sleeps = 0;
        this.older = this.newer;
      }
      this.newer = new Map();
      this.chars = 0;
      this.foundChars = 0;
    }
    this.chars += key.length;
    this.newer.set(copied(key), units);
  }
}

/** A copy of a string that holds none of the string it was cut from (a slice of a body would
 *  keep the whole body alive as long as it is kept here). */
function copied(s: string): string {
  return ` ${s}`.slice(1);
}
