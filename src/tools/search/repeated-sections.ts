import type { SplitSection } from "./sections.js";

/**
 * Sections written the same on many different pages: boilerplate (issue 24, item 2). An API's
 * shared error responses (`402: Payment required` / `application/json error string` on every
 * operation), a "Next steps" block pasted under every guide, a support footer. Such a section says
 * nothing about the page it is on, yet its heading and its short text matched a question better
 * than the one page written about the topic, so ten operation pages outranked the errors guide.
 *
 * A section is repeated when the same heading and text are on at least `MIN_PAGES` pages with
 * different titles and the same access rule. The same page in several versions (identical by
 * design) counts once, so a versioned site's pages are not boilerplate of one another. Counting
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

/** The field texts of a section (see `SECTION_FIELDS`). */
export interface SectionFieldTexts {
  readonly heading: string;
  readonly body: string;
  readonly code: string;
}

export class RepeatedSections {
  /** Fingerprint (with the rule) -> page titles it is on -> paths of the pages with that title. */
  private readonly on = new Map<number, Map<string, Set<string>>>();
  /** Path -> what was recorded of it. */
  private readonly byPath = new Map<string, { readonly title: string; readonly rule: number; readonly prints: readonly number[] }>();
  /** Pages whose sections were indexed with an answer that has changed since. */
  private readonly stale = new Set<string>();

  /** Record a page's sections before indexing it (nothing changes if it is recorded as it is). */
  record(path: string, title: string, rule: number, sections: readonly SplitSection[]): void {
    const prints = sections.map((s) => fingerprint(rule, s)).filter((p) => p !== undefined);
    const known = this.byPath.get(path);
    if (known !== undefined && known.title === title && known.rule === rule && known.prints.length === prints.length && known.prints.every((p, i) => p === prints[i])) return;
    this.forget(path);
    this.byPath.set(path, { title, rule, prints });
    for (const p of new Set(prints)) {
      let titles = this.on.get(p);
      if (titles === undefined) this.on.set(p, (titles = new Map()));
      const paths = titles.get(title) ?? new Set<string>();
      paths.add(path);
      titles.set(title, paths);
      if (titles.size === MIN_PAGES) this.markAll(titles, path);
    }
  }

  /** The field texts a section of a page in `rule` is indexed with. */
  fields(rule: number, section: SplitSection): SectionFieldTexts {
    const heading = [...section.parents, section.heading].join("\n");
    const p = fingerprint(rule, section);
    if (p !== undefined && (this.on.get(p)?.size ?? 0) >= MIN_PAGES) return { heading: "", body: "", code: [heading, section.prose, section.code].join("\n") };
    return { heading, body: section.prose, code: section.code };
  }

  /** Forget a page that left the index or changed. */
  forget(path: string): void {
    const known = this.byPath.get(path);
    if (known === undefined) return;
    this.byPath.delete(path);
    this.stale.delete(path);
    for (const p of new Set(known.prints)) {
      const titles = this.on.get(p);
      const paths = titles?.get(known.title);
      if (titles === undefined || paths === undefined) continue;
      paths.delete(path);
      if (paths.size > 0) continue;
      titles.delete(known.title);
      if (titles.size === MIN_PAGES - 1) this.markAll(titles, path);
      if (titles.size === 0) this.on.delete(p);
    }
  }

  /** Pages to index again: whether a section of theirs is repeated has changed since. */
  takeStale(): string[] {
    const out = [...this.stale];
    this.stale.clear();
    return out;
  }

  private markAll(titles: ReadonlyMap<string, ReadonlySet<string>>, except: string): void {
    for (const paths of titles.values()) for (const p of paths) if (p !== except) this.stale.add(p);
  }
}

/** A 32-bit FNV-1a hash of a rule and a section's heading and text. A section with no text (a
 *  heading alone, whose subsections hold the words) is never boilerplate: it has none. */
function fingerprint(rule: number, s: SplitSection): number | undefined {
  if (s.prose === "" && s.code === "") return undefined;
  let h = Math.imul(0x811c9dc5 ^ rule, 0x01000193);
  for (const part of [s.heading, s.prose, s.code]) {
    for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0x0a, 0x01000193);
  }
  return h >>> 0;
}
