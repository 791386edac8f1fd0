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
  /** Fingerprints one after another, each page's ending at `printEnds[i]`. */
  readonly prints: Uint32Array;
  readonly printEnds: Int32Array;
  readonly stale: readonly string[];
}

/** The pages a fingerprint is on, by title and by place: the path of the one page with that title
 *  (or place), as most are, or a set of them. A set per page was ~100 bytes a page's fingerprint:
 *  on a large site of distinct pages, where copied sections share a title and differ in place,
 *  most of the records' memory (issue 22). */
interface PrintPages {
  readonly titles: Map<string, Set<string> | string>;
  readonly places: Map<string, Set<string> | string>;
}

export class RepeatedSections {
  /** Fingerprint (with the rule) -> the pages it is on, by title and by place; or the path of the
   *  one page it is on, as most sections of a large site are (two maps and two sets per section
   *  were 80 bytes a section's word at 50,000 pages, the index's largest part of the heap). */
  private readonly byPrint = new Map<number, PrintPages | string>();
  /** Set by `restore`: `byPrint` is made from `byPath` when first asked (a start from the cache
   *  whose pages are all unchanged never asks: a third of a second at 25,000 pages). */
  private unbuilt = false;
  /** Path -> what was recorded of it. Its fingerprints are a view into `RepeatedSectionsState.prints`
   *  for a page restored from the cache: an array each, of numbers past a small integer's range
   *  (a heap number each), was ~0.1 s of a warm start at 25,000 pages. */
  private readonly byPath = new Map<string, { readonly title: string; readonly place: string; readonly rule: number; readonly prints: readonly number[] | Uint32Array }>();
  /** Pages whose sections were indexed with an answer that has changed since. */
  private readonly stale = new Set<string>();
  /** The fingerprints of a list of sections under a rule, all and distinct: the copies of a page
   *  (its versions and languages) are recorded with one list, made once per text. */
  private readonly printsOf = new WeakMap<Float64Array, { readonly rule: number; readonly all: readonly number[]; readonly distinct: readonly number[] }>();
  /** Moves whenever a fingerprint becomes repeated or stops being so (`isRepeated` may answer
   *  otherwise): what was derived from the answers before is stale when it has moved. */
  private moves = 0;

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
      const all = Array.from(sections, (print) => fingerprint(rule, print)).filter((p) => p !== undefined);
      made = { rule, all, distinct: [...new Set(all)] };
      this.printsOf.set(sections, made);
    }
    const prints = made.all;
    const known = this.byPath.get(path);
    if (known !== undefined && known.title === title && known.place === place && known.rule === rule && samePrints(known.prints, prints)) return;
    this.forget(path);
    this.byPath.set(path, { title, place, rule, prints });
    const on = this.on;
    const distinct = made.distinct;
    for (let i = 0; i < distinct.length; i++) {
      const p = distinct[i] as number;
      const pages = this.pagesOf(on, p);
      if (pages === undefined) {
        on.set(p, path);
        continue;
      }
      const before = repeated(pages);
      add(pages.titles, title, path);
      add(pages.places, place, path);
      if (repeated(pages) !== before) this.markAll(pages.titles, path);
    }
  }

  /** The pages of a fingerprint on some already, in full (one held by its path is made so). */
  private pagesOf(on: Map<number, PrintPages | string>, p: number): PrintPages | undefined {
    const pages = on.get(p);
    if (typeof pages !== "string") return pages;
    const known = this.byPath.get(pages) as { readonly title: string; readonly place: string };
    const full: PrintPages = { titles: new Map([[known.title, pages]]), places: new Map([[known.place, pages]]) };
    on.set(p, full);
    return full;
  }

  /** Whether a section of a page in `rule` is repeated boilerplate now. */
  isRepeated(rule: number, print: number): boolean {
    const p = fingerprint(rule, print);
    const pages = p === undefined ? undefined : this.on.get(p);
    return pages !== undefined && typeof pages !== "string" && repeated(pages);
  }

  /** Whether a section of a page in `rule` is indexed whole in the `code` field (its heading,
   *  prose and code in turn), not in its three fields (see `SECTION_FIELDS`). */
  codeOnly(rule: number, print: number, errorResponse: boolean): boolean {
    return errorResponse || this.isRepeated(rule, print);
  }

  /** Forget a page that left the index or changed. */
  forget(path: string): void {
    const known = this.byPath.get(path);
    if (known === undefined) return;
    this.byPath.delete(path);
    this.stale.delete(path);
    for (const p of new Set(known.prints)) {
      const pages = this.on.get(p);
      if (pages === undefined) continue;
      if (typeof pages === "string") {
        if (pages === path) this.on.delete(p);
        continue;
      }
      const before = repeated(pages);
      remove(pages.titles, known.title, path);
      remove(pages.places, known.place, path);
      if (repeated(pages) !== before) this.markAll(pages.titles, path);
      if (pages.titles.size === 0) this.on.delete(p);
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
    state.paths.forEach((path, i) => {
      const end = state.printEnds[i] as number;
      this.byPath.set(path, { title: state.titles[i] as string, place: state.places[i] as string, rule: state.rules[i] as number, prints: state.prints.subarray(from, end) });
      from = end;
    });
    for (const p of state.stale) this.stale.add(p);
    this.unbuilt = true;
  }

  /** Which pages each fingerprint is on (made from `byPath` after a `restore`). */
  private get on(): Map<number, PrintPages | string> {
    if (this.unbuilt) {
      this.unbuilt = false;
      this.moves++;
      for (const [path, { title, place, prints }] of this.byPath) {
        for (const p of new Set(prints)) {
          const pages = this.pagesOf(this.byPrint, p);
          if (pages === undefined) {
            this.byPrint.set(p, path);
            continue;
          }
          add(pages.titles, title, path);
          add(pages.places, place, path);
        }
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

  private markAll(titles: ReadonlyMap<string, ReadonlySet<string> | string>, except: string): void {
    this.moves++;
    for (const paths of titles.values()) {
      for (const p of typeof paths === "string" ? [paths] : paths) {
        if (p === except || this.stale.has(p)) continue;
        this.stale.add(p);
      }
    }
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
function repeated(pages: { readonly titles: ReadonlyMap<string, unknown>; readonly places: ReadonlyMap<string, unknown> }): boolean {
  return Math.min(pages.titles.size, pages.places.size) >= MIN_PAGES;
}

function add(m: Map<string, Set<string> | string>, key: string, path: string): void {
  const paths = m.get(key);
  if (paths === undefined) m.set(key, path);
  else if (typeof paths !== "string") paths.add(path);
  else if (paths !== path) m.set(key, new Set([paths, path]));
}

function remove(m: Map<string, Set<string> | string>, key: string, path: string): void {
  const paths = m.get(key);
  if (paths === path) m.delete(key);
  else if (typeof paths !== "string" && paths !== undefined) {
    paths.delete(path);
    if (paths.size === 0) m.delete(key);
  }
}

/** A 32-bit hash of a rule and a section's heading and text (`textPrint`). A section with no text
 *  (a heading alone, whose subsections hold the words) is never boilerplate: it has none. */
function fingerprint(rule: number, print: number): number | undefined {
  return print === NO_PRINT ? undefined : Math.imul(print ^ rule, 0x01000193) >>> 0;
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

/** Whether two lists of fingerprints are the same. */
function samePrints(a: readonly number[] | Uint32Array, b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
