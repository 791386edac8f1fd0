import { SecondChance } from "./second-chance.js";

/**
 * A guide's endpoint page: the generated reference page of the operation a guide is written about
 * (`/features/map` and `/api-reference/endpoint/map`, `/guide/invoicing/void` and
 * `/api-reference/invoices/void`). A question in words finds the guide; the reader then wants the
 * operation's parameters too, and the endpoint page, written in schema words, rarely matches the
 * question by itself. `SearchIndex.liftCompanions` shows it beside the guide (`companionWeight`).
 *
 * Read from paths alone, the only place sites name both the same way: every word of the endpoint
 * page's last path segment is a word of the guide's last two. Only one page, or none:
 *
 * - the most specific: the most words in its last segment (`/features/batch-scrape` is about
 *   `batch-scrape`, not `scrape`);
 * - then the most words of its folders in the guide's path (`terminate` under `subscriptions/`
 *   for `/guide/subscriptions/terminate-subscription`, not under `wallets/`);
 * - a tie lifts nothing: two operations the guide could be about are a guess, and a wrong page
 *   shown beside a guide costs a place in the list;
 * - nor a page of another version or language (its path's version words, `v0`, differ from the
 *   guide's, or navigation lists it in none of the guide's versions or languages): the v0
 *   guide's operation is the v0 one;
 * - nor anything for a guide named like a folder of endpoint pages (`/guide/webhooks` beside
 *   `/api-reference/webhooks/...`): it is about the whole resource, not one of its operations.
 */

/** An indexed page unit as the rule reads it (`SearchIndex` lists them by unit id). */
export interface CompanionUnit {
  readonly id: number;
  readonly path: string;
  /** Whether the page is an endpoint page (`isApiPage`). */
  readonly endpoint: boolean;
  /** Its navigation versions and languages; undefined when it is in all. */
  readonly versions: readonly string[] | undefined;
  readonly languages: readonly string[] | undefined;
}

/** An endpoint page, read once per change of the pages. */
interface Endpoint {
  readonly id: number;
  /** The terms of its last path segment. */
  readonly last: readonly string[];
  /** The terms of its folders. */
  readonly folders: readonly string[];
  readonly versions: readonly string[] | undefined;
  readonly languages: readonly string[] | undefined;
  readonly versionWords: string;
}

/** What `EndpointCompanions` reads endpoint pages with: the units, and a word's index term (null for a stop word). */
export interface CompanionSource {
  units(): Iterable<CompanionUnit>;
  term(word: string): string | null;
}

const NONE = -1;

/** Each guide's endpoint page per scope of search, found once and kept until the pages change. */
export class EndpointCompanions {
  /** Endpoint pages by the first term of their last segment: a guide's candidates are under its words. */
  private byTerm: Map<string, Endpoint[]> | undefined;
  /** The endpoint pages of each folder, by its last segment's terms joined: a guide named like a
   *  folder holding one the search may score lifts nothing (one the reader may not read is not
   *  there for the reader, else its absence of a lift would tell the folder exists). */
  private folders: Map<string, number[]> | undefined;
  private readonly found: SecondChance<string, number>;

  constructor(
    private readonly source: CompanionSource,
    cached: number,
  ) {
    this.found = new SecondChance(cached);
  }

  /** Forget the endpoint pages and what was found: the pages, their units or their places changed. */
  clear(): void {
    this.byTerm = undefined;
    this.folders = undefined;
    this.found.clear();
  }

  /**
   * The unit id of `guide`'s endpoint page among the units `accepted` flags (the search's version,
   * language and reader: a page the reader may not read is never one), or undefined. `scope`
   * names `accepted` for the cache. `placeOf`: an endpoint page's versions and languages for the
   * reader, where they are not those of every reader (a page outside navigation is placed by
   * the navigation pages the reader may read, `ReaderPlacements`); `scope` names it too.
   */
  companionOf(guide: CompanionUnit, scope: string, accepted: Uint8Array, placeOf?: (id: number) => Pick<CompanionUnit, "versions" | "languages">): number | undefined {
    const key = `${scope}\u0000${guide.id}`;
    let id = this.found.get(key);
    if (id === undefined) {
      id = this.find(guide, accepted, placeOf);
      this.found.set(key, id);
    }
    return id === NONE ? undefined : id;
  }

  private find(guide: CompanionUnit, accepted: Uint8Array, placeOf: ((id: number) => Pick<CompanionUnit, "versions" | "languages">) | undefined): number {
    if (guide.endpoint) return NONE;
    const segments = pathSegments(guide.path);
    const last = segments[segments.length - 1];
    if (last === undefined) return NONE;
    const byTerm = this.table();
    const lastTerms = this.terms(last);
    if (lastTerms.length === 0 || (this.folders?.get(lastTerms.join(" ")) ?? []).some((id) => accepted[id] === 1)) return NONE;
    const near = new Set([...lastTerms, ...(segments.length > 1 ? this.terms(segments[segments.length - 2] as string) : [])]);
    const all = new Set(segments.flatMap((s) => this.terms(s)));
    const versions = versionWords(guide.path);
    let best = NONE;
    let bestWords = -1;
    let bestOverlap = -1;
    let tied = false;
    // Each endpoint page is filed under one term of its last segment, so it is met at most once.
    for (const term of near) {
      for (const e of byTerm.get(term) ?? []) {
        if (accepted[e.id] !== 1) continue;
        const place = placeOf?.(e.id) ?? e;
        if (!shares(place.versions, guide.versions) || !shares(place.languages, guide.languages) || e.versionWords !== versions || !e.last.every((t) => near.has(t))) continue;
        const words = e.last.length;
        const overlap = e.folders.filter((t) => all.has(t)).length;
        if (words > bestWords || (words === bestWords && overlap > bestOverlap)) {
          best = e.id;
          bestWords = words;
          bestOverlap = overlap;
          tied = false;
        } else if (words === bestWords && overlap === bestOverlap) tied = true;
      }
    }
    return tied ? NONE : best;
  }

  /** The endpoint pages by term, read at the first search after a change. */
  private table(): Map<string, Endpoint[]> {
    if (this.byTerm !== undefined) return this.byTerm;
    const byTerm = new Map<string, Endpoint[]>();
    const folders = new Map<string, number[]>();
    for (const unit of this.source.units()) {
      if (!unit.endpoint) continue;
      const segments = pathSegments(unit.path);
      const lastSegment = segments.pop();
      if (lastSegment === undefined) continue;
      const last = this.terms(lastSegment);
      const folder = segments[segments.length - 1];
      const name = folder === undefined ? "" : this.terms(folder).join(" ");
      const members = folders.get(name);
      if (members !== undefined) members.push(unit.id);
      else if (name !== "") folders.set(name, [unit.id]);
      // A last segment of stop words alone (`all`, `me`) names no topic.
      const first = last[0];
      if (first === undefined) continue;
      const list = byTerm.get(first);
      const endpoint: Endpoint = { id: unit.id, last, folders: segments.flatMap((s) => this.terms(s)), versions: unit.versions, languages: unit.languages, versionWords: versionWords(unit.path) };
      if (list === undefined) byTerm.set(first, [endpoint]);
      else list.push(endpoint);
    }
    this.byTerm = byTerm;
    this.folders = folders;
    return byTerm;
  }

  /** A path segment's index terms, each once: `terminate-subscription` -> `termin`, `subscription`. */
  private terms(segment: string): string[] {
    const out = new Set<string>();
    for (const word of segment.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      const term = word === "" ? null : this.source.term(word);
      if (term !== null) out.add(term);
    }
    return [...out];
  }
}

function pathSegments(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

/** Whether two pages' versions (or languages) meet: undefined is all of them. */
function shares(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a === undefined || b === undefined || a.some((x) => b.includes(x));
}

/** The version words of a path (`v0`, `v2`), sorted: a guide and its operation name the same. */
function versionWords(path: string): string {
  return [...new Set(path.toLowerCase().match(/(?<![\p{L}\p{N}])v\d+(?![\p{L}\p{N}])/gu) ?? [])].sort().join(" ");
}
