import type { SplitSection } from "./sections.js";

/** What `isErrorResponse` reads of a section: its heading and parents. */
export interface HeadedSection {
  readonly heading: string;
  readonly parents: readonly string[];
}

/** A section's `textPrint` when it has no text (a print is 32 bits, never negative). */
export const NO_PRINT = -1;

/**
 * Sections written the same on many different pages: boilerplate (issue 24, item 2). An API's
 * shared error responses (`402: Payment required` / `application/json error string` on every
 * operation), a "Next steps" block pasted under every guide, a support footer. Such a section says
 * nothing about the page it is on, yet its heading and its short text matched a question better
 * than the one page written about the topic, so ten operation pages outranked the errors guide.
 *
 * A section is repeated when the same heading and text are on at least `MIN_PAGES` pages with
 * different titles, different places and the same access rule. The same page in several versions
 * (identical by design) or languages (translated prose, the same code) counts once, so a
 * versioned or multilingual site's pages are not boilerplate of one another. Counting
 * within one rule keeps search as a reader equal to search over the pages that reader may read:
 * readers read every page of a rule or none. A repeated section's words are indexed in the
 * low-weight `code` field only: still found by an exact search, after the pages that say
 * something of their own.
 *
 * Whether a section is repeated changes as pages come and go; pages indexed under the other
 * answer are reported by `takeStale` to be indexed again (their content unchanged, so indexing
 * them again changes no count).
 */
export const MIN_PAGES = 3;

/**
 * `RepeatedSections` as data (`state`, `restore`): what was recorded of each page, in columns
 * (maps of sets of paths took a second and a half to read back at 25,000 pages); which pages
 * each fingerprint is on is made again from them.
 */
export interface RepeatedSectionsState {
  readonly paths: readonly string[];
  readonly titles: readonly string[];
  readonly places: readonly string[];
  readonly rules: Int32Array;
  /** Fingerprints one after another, each page's ending at `printEnds[i]` (their 32 bits, read
   *  back as the signed numbers `fingerprint` gives). */
  readonly prints: Uint32Array;
  readonly printEnds: Int32Array;
  readonly stale: readonly string[];
}

/**
 * Pages recorded with one list of sections (one text, as its copies share it) under one rule,
 * title and place: the same page in each version of a versioned site. Only the first of them
 * counts a title and a place on each of the text's fingerprints; the others join its `paths`, which
 * change no count (issue 22: a cold start of the 25k-page versioned site spent ~0.3 s of its main
 * thread adding each copy's path to two sets per fingerprint, a tenth of the thread's CPU).
 */
class Group {
  /** The paths recorded in it, in the order they were (made with its first: an array pushed to
   *  from empty takes room for 17, and most groups hold one path, issue 22). */
  paths: string[] = NO_PATHS;
  constructor(
    readonly title: string,
    readonly place: string,
    /** Its fingerprints, each once. */
    readonly prints: readonly number[],
    /** What it is found by (its text's, `printsOf`); none for a page restored. */
    readonly made?: Made,
  ) {}
}

/** A text's fingerprints under a rule, all and each once, and the groups of pages recorded with
 *  it: most texts have one (a map each cost a large site of distinct pages more than the
 *  groups saved it), a text on many titles or places a map of them too (`MANY_GROUPS`). */
interface Made {
  readonly rule: number;
  readonly all: readonly number[];
  readonly distinct: readonly number[];
  /** A few in an array, more by `groupKey`. */
  groups: Group[] | Map<string, Group>;
}

/** The paths of a group not yet joined, and the groups of a text not yet recorded: shared, never
 *  pushed to (replaced by an array of one when the first comes). */
const NO_PATHS: string[] = [];
const NO_GROUPS: Group[] = [];

/** Groups of one text past which they are found by a map rather than by a look at each. */
const MANY_GROUPS = 8;

/** The group of a text's pages with this title and place, if it has pages. */
function groupOf(made: Made, title: string, place: string): Group | undefined {
  if (!Array.isArray(made.groups)) return made.groups.get(groupKey(title, place));
  for (const group of made.groups) if (group.title === title && group.place === place) return group;
  return undefined;
}

function groupKey(title: string, place: string): string {
  return `${title}\0${place}`;
}

/** The groups a fingerprint is on, with how many of them have each title and each place (the
 *  counts' keys are the distinct titles and places: `repeated`). A fingerprint on one group only,
 *  as most sections of a large site are, is held as that group. */
class PrintPages {
  readonly titles: Map<string, number>;
  readonly places: Map<string, number>;
  readonly groups: Set<Group>;
  constructor(first: Group) {
    this.titles = new Map([[first.title, 1]]);
    this.places = new Map([[first.place, 1]]);
    this.groups = new Set([first]);
  }
}

/** What is recorded of a page. */
interface Recorded {
  readonly title: string;
  readonly place: string;
  readonly rule: number;
  /** All its fingerprints: a view into `RepeatedSectionsState.prints` for a page restored from the
   *  cache (an array each, of numbers past a small integer's range, a heap number each, was ~0.1 s
   *  of a warm start at 25,000 pages). */
  readonly prints: readonly number[] | Int32Array;
  /** Its group; none for a page restored and not yet counted (`on` gives it one of its own). */
  group: Group | undefined;
  /** When it was recorded: the order `markAll` marks pages in (that of the sets of paths by
   *  title this replaced, so that pages are indexed again in the same order). */
  readonly seq: number;
}

export class RepeatedSections {
  /** Fingerprint (with the rule) -> the groups of pages it is on; or the one group it is on. */
  private readonly byPrint = new Map<number, PrintPages | Group>();
  /** Set by `restore`: `byPrint` is made from `byPath` when first asked (a start from the cache
   *  whose pages are all unchanged never asks: a third of a second at 25,000 pages). */
  private unbuilt = false;
  /** Path -> what was recorded of it, in the order recorded. */
  private readonly byPath = new Map<string, Recorded>();
  /** Pages whose sections were indexed with an answer that has changed since. */
  private readonly stale = new Set<string>();
  /** The fingerprints of a list of sections under a rule, all and distinct: the copies of a page
   *  (its versions and languages) are recorded with one list, made once per text; and the groups
   *  of pages recorded with it, by rule, title and place. */
  private readonly printsOf = new WeakMap<Float64Array, Made>();
  /** Moves whenever a fingerprint becomes repeated or stops being so (`isRepeated` may answer
   *  otherwise): what was derived from the answers before is stale when it has moved. */
  private moves = 0;
  /** The next `Recorded.seq`. */
  private recorded = 0;

  /** Changes with every change of an `isRepeated` answer (see `moves`). */
  get generation(): number {
    return this.moves;
  }

  /**
   * Record a page's sections before indexing it (nothing changes if it is recorded as it is).
   * `place` is the page's path without its version and language segments: two pages count as
   * one when they share a title (`Scrape` in v1 and v2 folders) or a place (a page and its
   * translations, whose code examples are the same). `sections`: each section's `textPrint`
   * (`NO_PRINT`: no text), one array per text (what is made of it is kept by the array).
   */
  record(path: string, title: string, place: string, rule: number, sections: Float64Array): void {
    let made = this.printsOf.get(sections);
    if (made === undefined || made.rule !== rule) {
      // Loops rather than `Array.from(...).filter(...)` and `[...new Set(all)]`: made once per
      // text, which at 50,000 distinct pages is once per page (issue 22: `record` was ~9% of the
      // cold build's index thread, much of it these arrays and sets made and dropped).
      const all: number[] = [];
      for (let i = 0; i < sections.length; i++) {
        const p = fingerprint(rule, sections[i] as number);
        if (p !== undefined) all.push(p);
      }
      // Exact copies, not the pushed arrays' spare room (the fingerprints of 50,000 texts), and
      // one array for both when no fingerprint is there twice (most texts).
      const exact = all.slice();
      const distinct = distinctOf(exact);
      made = { rule, all: exact, distinct: distinct.length === exact.length ? exact : distinct, groups: NO_GROUPS };
      this.printsOf.set(sections, made);
    }
    const prints = made.all;
    const known = this.byPath.get(path);
    if (known !== undefined && known.title === title && known.place === place && known.rule === rule && samePrints(known.prints, prints)) return;
    this.forget(path);
    // A group left by all its pages was dropped from its text's (`forget`): one found has pages.
    let group = groupOf(made, title, place);
    if (group === undefined) {
      group = new Group(title, place, made.distinct, made);
      if (!Array.isArray(made.groups)) made.groups.set(groupKey(title, place), group);
      else if (made.groups.length === 0) made.groups = [group];
      else if (made.groups.push(group) > MANY_GROUPS) made.groups = new Map(made.groups.map((g) => [groupKey(g.title, g.place), g]));
    }
    const entry: Recorded = { title, place, rule, prints, group, seq: this.recorded++ };
    this.byPath.set(path, entry);
    // Counted with every other page when the fingerprints' pages are made from `byPath` now, as
    // before (nothing is marked stale then).
    if (this.unbuilt) {
      void this.on;
      return;
    }
    this.join(path, group, true);
  }

  /** Count a page in its group, and the group on its fingerprints if it is the group's first
   *  (marking pages stale where an answer changes, when `mark`). */
  private join(path: string, group: Group, mark: boolean): void {
    if (group.paths.length === 0) group.paths = [path];
    else group.paths.push(path);
    if (group.paths.length > 1) return;
    const on = this.byPrint;
    const distinct = group.prints;
    for (let i = 0; i < distinct.length; i++) {
      const p = distinct[i] as number;
      let pages = on.get(p);
      if (pages === undefined) {
        on.set(p, group);
        continue;
      }
      if (pages instanceof Group) {
        pages = new PrintPages(pages);
        on.set(p, pages);
      }
      const before = repeated(pages);
      count(pages.titles, group.title, 1);
      count(pages.places, group.place, 1);
      pages.groups.add(group);
      if (mark && repeated(pages) !== before) this.markAll(pages, path);
    }
  }

  /** Whether a section of a page in `rule` is repeated boilerplate now. */
  isRepeated(rule: number, print: number): boolean {
    const p = fingerprint(rule, print);
    const pages = p === undefined ? undefined : this.on.get(p);
    return pages instanceof PrintPages && repeated(pages);
  }

  /** Forget a page that left the index or changed. */
  forget(path: string): void {
    const known = this.byPath.get(path);
    if (known === undefined) return;
    this.byPath.delete(path);
    this.stale.delete(path);
    // Made without it, as a page with fingerprints is forgotten (the page is in no group yet).
    const on = known.prints.length > 0 ? this.on : this.byPrint;
    const group = known.group;
    const at = group === undefined ? -1 : group.paths.indexOf(path);
    if (group === undefined || at < 0) return;
    group.paths.splice(at, 1);
    if (group.paths.length > 0) return;
    this.dropGroup(group);
    for (let i = 0; i < group.prints.length; i++) {
      const p = group.prints[i] as number;
      const pages = on.get(p);
      if (pages === undefined) continue;
      if (pages instanceof Group) {
        if (pages === group) on.delete(p);
        continue;
      }
      if (!pages.groups.delete(group)) continue;
      const before = repeated(pages);
      count(pages.titles, group.title, -1);
      count(pages.places, group.place, -1);
      if (repeated(pages) !== before) this.markAll(pages, path);
      if (pages.titles.size === 0) on.delete(p);
    }
  }

  /** What the persistent cache keeps (`site-cache.ts`): everything, as plain data. */
  state(): RepeatedSectionsState {
    const n = this.byPath.size;
    const paths: string[] = [];
    const titles: string[] = [];
    const places: string[] = [];
    const rules = new Int32Array(n);
    const printEnds = new Int32Array(n);
    let size = 0;
    for (const known of this.byPath.values()) size += known.prints.length;
    const prints = new Uint32Array(size);
    let at = 0;
    for (const [path, known] of this.byPath) {
      const i = paths.length;
      paths.push(path);
      titles.push(known.title);
      places.push(known.place);
      rules[i] = known.rule;
      prints.set(known.prints, at);
      at += known.prints.length;
      printEnds[i] = at;
    }
    return { paths, titles, places, rules, prints, printEnds, stale: [...this.stale] };
  }

  /** Take a `state()` (an empty instance only). */
  restore(state: RepeatedSectionsState): void {
    if (this.byPath.size > 0) throw new Error("repeated sections are restored only while empty");
    let from = 0;
    // The same bits as the signed fingerprints they were written from (`fingerprint`).
    const signed = new Int32Array(state.prints.buffer, state.prints.byteOffset, state.prints.length);
    state.paths.forEach((path, i) => {
      const end = state.printEnds[i] as number;
      this.byPath.set(path, { title: state.titles[i] as string, place: state.places[i] as string, rule: state.rules[i] as number, prints: signed.subarray(from, end), group: undefined, seq: this.recorded++ });
      from = end;
    });
    for (const p of state.stale) this.stale.add(p);
    this.unbuilt = true;
  }

  /** Which pages each fingerprint is on (made from `byPath` after a `restore`: each page restored
   *  a group of its own, nothing marked stale). */
  private get on(): Map<number, PrintPages | Group> {
    if (this.unbuilt) {
      this.unbuilt = false;
      this.moves++;
      for (const [path, known] of this.byPath) {
        known.group ??= new Group(known.title, known.place, [...new Set(known.prints)]);
        this.join(path, known.group, false);
      }
    }
    return this.byPrint;
  }

  /** Pages to index again: whether a section of theirs is repeated has changed since. */
  takeStale(): string[] {
    const out = [...this.stale];
    this.stale.clear();
    return out;
  }

  /** Mark stale every page a fingerprint is on but `except`: by title, in the order each title came
   *  to the fingerprint, and each title's pages in the order they were recorded. */
  private markAll(pages: PrintPages, except: string): void {
    this.moves++;
    for (const title of pages.titles.keys()) {
      const paths: string[] = [];
      let groups = 0;
      for (const group of pages.groups) {
        if (group.title !== title) continue;
        groups++;
        for (const p of group.paths) paths.push(p);
      }
      if (groups > 1) paths.sort((a, b) => (this.byPath.get(a) as Recorded).seq - (this.byPath.get(b) as Recorded).seq);
      for (const p of paths) {
        if (p === except || this.stale.has(p)) continue;
        this.stale.add(p);
      }
    }
  }

  /** Let go of a group all of whose pages are forgotten: a page recorded again starts a new one. */
  private dropGroup(group: Group): void {
    const groups = group.made?.groups;
    if (groups === undefined) return;
    if (!Array.isArray(groups)) groups.delete(groupKey(group.title, group.place));
    else if (groups.includes(group)) groups.splice(groups.indexOf(group), 1);
  }
}

/**
 * An API page's error response (`### 429: Too many requests` under `## Responses`, as API pages
 * are written): boilerplate too, whether or not its schema is the same on other operations. Its
 * words are the status's reason phrase and the error object's fields, so "how many credits" or
 * "errors of a batch scrape" matched the `429`/`500` sections of every operation better than the
 * page that answers. Success responses say what the operation returns and stay as they are.
 */
export function isErrorResponse(section: HeadedSection): boolean {
  return section.parents.at(-1) === "Responses" && /^(?:[45](?:\d\d|XX)|default)\b/i.test(section.heading);
}

/** Repeated: on `MIN_PAGES` pages that differ in both title and place. */
function repeated(pages: PrintPages): boolean {
  return Math.min(pages.titles.size, pages.places.size) >= MIN_PAGES;
}

/** Add `by` to `key`'s count, dropping a key whose count is back to 0. */
function count(m: Map<string, number>, key: string, by: number): void {
  const n = (m.get(key) ?? 0) + by;
  if (n === 0) m.delete(key);
  else m.set(key, n);
}

/** A 32-bit hash of a rule and a section's heading and text (`textPrint`). A section with no text
 *  (a heading alone, whose subsections hold the words) is never boilerplate: it has none.
 *  Signed (`Math.imul`'s), not made unsigned: a small integer to V8 on 64-bit Node, where half of
 *  the unsigned ones (past 2^31) were each a heap number, made for every lookup in `byPrint` and
 *  kept for each of its keys (issue 22: `record` and `isRepeated` were ~10% of the cold build's
 *  index thread at 50,000 distinct pages). The cache keeps the same 32 bits (`state`). */
function fingerprint(rule: number, print: number): number | undefined {
  return print === NO_PRINT ? undefined : Math.imul(print ^ rule, 0x01000193);
}

/** A 32-bit FNV-1a hash of a section's heading and text, or null when it has no text. Made once
 *  per distinct body (`body-analysis.ts`): copies of a page (its versions) share it. */
export function textPrint(s: SplitSection): number | null {
  if (s.prose === "" && s.code === "") return null;
  let h = 0x811c9dc5;
  for (const part of [s.heading, s.prose, s.code]) {
    for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0x0a, 0x01000193);
  }
  return h >>> 0;
}

/** Sections past which `distinctOf` finds repeats with a set rather than by a look at each. */
const FEW_PRINTS = 32;

/** `all` each once, in the order each first comes (as `[...new Set(all)]`). A page has a few
 *  sections, whose fingerprints are seldom repeated: a look at each is cheaper than a set. */
function distinctOf(all: readonly number[]): number[] {
  if (all.length > FEW_PRINTS) return [...new Set(all)];
  const out: number[] = [];
  for (let i = 0; i < all.length; i++) {
    const p = all[i] as number;
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** Whether two lists of fingerprints are the same. */
function samePrints(a: readonly number[] | Int32Array, b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
