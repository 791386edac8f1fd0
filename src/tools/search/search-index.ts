import type { PagePlacement } from "../../config/site-config.js";
import { LIMITS } from "../../limits.js";
import { isIndexed, type Page, placementOf, type Site, type SiteFile } from "../../vfs/site.js";
import { InvertedIndex } from "./inverted-index.js";
import { RANKING, RankScratch, type RankingParams, rankPages, resolveTerms } from "./ranking.js";
import { type Section, sectionText, splitSections } from "./sections.js";
import { makeSnippet } from "./snippet.js";
import { type Expanded, expandIncludes, isCurrent } from "./includes.js";
import { foldVersionTwins, twinKeys } from "./version-twins.js";
import { Analyzer, tokenMatcher } from "./terms.js";
import { IdBuffer, Vocabulary } from "./vocabulary.js";

/** What a search asks for, beyond the query. */
export interface SearchRequest {
  readonly query: string;
  readonly pageSize?: number;
  readonly scoreThreshold?: number;
  readonly version?: string;
  readonly language?: string;
  /** The reader's visibility rule: pages it rejects are never scored, so never leave the index. */
  readonly canRead: (page: Page) => boolean;
}

/** One search hit: a page and its best-matching section. */
export interface SearchHit {
  readonly page: Page;
  readonly section: Section;
  /** 0..1, comparable across queries: see the README section "Search". */
  readonly score: number;
  readonly snippet: string;
  /** Where navigation lists the page (its versions and languages), if anywhere. */
  readonly placement: PagePlacement | undefined;
  /** The same page in other versions, folded into this hit (see `foldVersionTwins`): best first. */
  readonly otherVersions: readonly VersionTwin[];
}

/** A page folded into a hit as the same page in another version. */
export interface VersionTwin {
  readonly page: Page;
  readonly placement: PagePlacement | undefined;
  readonly score: number;
}

/** What the index keeps per indexed page. */
interface IndexedPage {
  readonly page: Page;
  readonly placement: PagePlacement | undefined;
  /** The body with its snippets inlined, when it imports MDX (`includes.ts`); else `page.body`. */
  readonly expanded: Expanded | undefined;
  readonly id: number;
  readonly sections: readonly StoredSection[];
  /** Section ids in the inverted index, parallel to `sections`. */
  readonly sectionIds: readonly number[];
  /** What tells the same page in another version (`twinKeys`); undefined under no version. */
  readonly twinKeys: readonly string[] | undefined;
}

/** A section as the index keeps it: its text is rebuilt from the page body for the hits only
 *  (keeping every section's text would double the index's memory). */
interface StoredSection {
  readonly heading: string;
  readonly parents: readonly string[];
  readonly anchor: string;
  readonly start: number;
  readonly end: number;
}

const EMPTY_SECTION: StoredSection = { heading: "", parents: [], anchor: "", start: 0, end: 0 };

/**
 * The search index of a site: pages split into heading sections, in an inverted index scored
 * with BM25F at page and section level. `sync` updates it page by page, so an edit is
 * searchable within milliseconds instead of after a rebuild.
 */
export class SearchIndex {
  private readonly vocabulary = new Vocabulary();
  private readonly index = new InvertedIndex(this.vocabulary);
  private readonly analyzer = new Analyzer(this.vocabulary);
  private readonly buffer = new IdBuffer();
  private readonly byPath = new Map<string, IndexedPage>();
  private readonly byId = new Map<number, IndexedPage>();
  private readonly sectionOf = new Map<number, StoredSection>();
  private readonly ranking: RankingParams;
  private readonly scratch = new RankScratch();
  /** The site's default version (set by `sync`); undefined for a site without versions. */
  private defaultVersion: string | undefined;

  private readonly foldVersions: boolean;

  /** `ranking` overrides ranking parameters (for tuning and tests; production uses the defaults);
   *  `foldVersions: false` keeps version twins apart (for the bench's comparison). */
  constructor(options: { ranking?: Partial<RankingParams>; foldVersions?: boolean } = {}) {
    this.ranking = { ...RANKING, ...options.ranking };
    this.foldVersions = options.foldVersions ?? true;
  }

  /** Number of indexed sections. */
  get size(): number {
    return this.index.sectionCount;
  }

  /** Number of indexed pages. */
  get pageCount(): number {
    return this.index.pageCount;
  }

  /**
   * Bring the index in line with a site: add new or changed pages, drop removed ones. A page
   * whose object and placement are unchanged is not touched.
   */
  sync(site: Site): { added: number; removed: number } {
    this.defaultVersion = site.config.versions.length > 0 ? (site.config.defaultVersion ?? site.config.versions[0]) : undefined;
    const wanted = new Map<string, { page: Page; placement: PagePlacement | undefined }>();
    for (const page of site.pages.values()) {
      if (isIndexed(site, page)) wanted.set(page.path, { page, placement: placementOf(site, page) });
    }
    const fileAt = (path: string): SiteFile | undefined => site.files.get(path);
    let added = 0;
    let removed = 0;
    for (const [path, entry] of this.byPath) {
      const next = wanted.get(path);
      // A page is unchanged when its object, its place and the snippets it inlines all are.
      if (next !== undefined && next.page === entry.page && samePlacement(next.placement, entry.placement) && snippetsCurrent(entry, fileAt)) {
        wanted.delete(path);
        continue;
      }
      this.remove(entry);
      removed++;
    }
    for (const { page, placement } of wanted.values()) {
      this.add(page, placement, expandIncludes(page, fileAt));
      added++;
    }
    if (added > 0) this.analyzer.releaseCaches();
    return { added, removed };
  }

  /** Search: best section per page, filtered by reader, version and language, scores in 0..1. */
  search(req: SearchRequest): SearchHit[] {
    const pageSize = req.pageSize ?? LIMITS.search.defaultPageSize;
    const terms = [...new Set(this.analyzer.terms(req.query))].slice(0, LIMITS.search.maxQueryTerms);
    if (terms.length === 0) return [];
    const query = resolveTerms(this.index, terms, this.ranking, this.joinedWords(req.query));
    const accept = (id: number): boolean => {
      const p = this.byId.get(id);
      return p !== undefined && inScope(p.placement, req.version, req.language) && req.canRead(p.page);
    };
    const threshold = req.scoreThreshold ?? 0;
    const prior = (id: number): number => ((this.byId.get(id) as IndexedPage).page.generated ? this.ranking.generatedPageWeight : 1);
    // Without a version filter on a versioned site, the same page in several versions is one
    // hit (see `foldVersionTwins`): rank more candidates so that folding still fills the page.
    const fold = this.foldVersions && req.version === undefined && this.defaultVersion !== undefined;
    const limit = fold ? Math.max(pageSize * 2, LIMITS.search.minTwinCandidates) : pageSize;
    const ranked = rankPages(this.index, query, accept, this.ranking, this.scratch, prior, limit)
      .map((r) => ({ section: r.section, score: round3(r.score), entry: this.byId.get(r.page) as IndexedPage }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || (a.entry.page.path < b.entry.page.path ? -1 : 1));
    // The threshold applies to each result's own score, after folding: a result is the same
    // with or without it (its twins may score lower; they are shown as its other versions).
    const hits = (fold ? foldVersionTwins(ranked, this.defaultVersion as string, this.ranking.versionTwinTolerance) : ranked.map((r) => ({ ...r, twins: [] })))
      .filter((r) => r.score >= threshold)
      .slice(0, pageSize);
    const matched = new Set(query.flatMap((q) => q.matches.map((m) => m.entry.id)));
    return hits.map(({ entry, section: sid, score, twins }) => {
      const stored = (sid !== undefined ? this.sectionOf.get(sid) : undefined) ?? entry.sections[0] ?? EMPTY_SECTION;
      const { heading, parents, anchor } = stored;
      const section: Section = { heading, parents, anchor, text: sectionText(entry.expanded?.body ?? entry.page.body, stored.start, stored.end) };
      return {
        page: entry.page,
        section,
        score,
        snippet: snippetOf(entry.page, section, matched, this.analyzer),
        placement: entry.placement,
        otherVersions: twins.map((t) => ({ page: t.entry.page, placement: t.entry.placement, score: t.score })),
      };
    });
  }

  /**
   * Words of the query that the docs write as one ("log in" -> `login`, "set up" -> `setup`,
   * "web hook" -> `webhook`): for each query term, the site's terms formed by joining it with
   * its neighbour.
   */
  private joinedWords(query: string): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const words = [...query.matchAll(tokenMatcher())].map((m) => m[0]).filter((w) => /^\p{L}+$/u.test(w));
    for (let i = 0; i + 1 < words.length; i++) {
      const a = words[i] as string;
      const b = words[i + 1] as string;
      const joined = this.analyzer.term(a + b);
      if (joined === null || this.index.get(joined) === undefined) continue;
      for (const w of [a, b]) {
        const t = this.analyzer.term(w);
        if (t !== null && t !== joined) out.set(t, [...(out.get(t) ?? []), joined]);
      }
    }
    return out;
  }

  private add(page: Page, placement: PagePlacement | undefined, expanded: Expanded | undefined): void {
    const split = splitSections(expanded?.body ?? page.body);
    const title = [page.title];
    const sidebar = page.frontMatter.sidebarTitle;
    if (typeof sidebar === "string" && sidebar !== page.title) title.push(sidebar);
    const meta = [page.meta.description ?? "", ...keywordsOf(page.frontMatter.keywords)];
    const context = [...(placement?.breadcrumbs ?? []), page.path.replaceAll("/", " ")];
    const { page: id, sections: sectionIds } = this.index.addPage(
      this.sequence(title.join("\n"), meta.join("\n"), context.join("\n")),
      split.map((s) => this.sequence([...s.parents, s.heading].join("\n"), s.prose, s.code)),
    );
    // Only what search returns is kept; prose and code were needed for indexing alone.
    const sections: StoredSection[] = split.map((s) => ({ heading: s.heading, parents: s.parents, anchor: s.anchor, start: s.start, end: s.end }));
    const entry: IndexedPage = { page, placement, expanded, id, sections, sectionIds, twinKeys: twinKeys(page, placement) };
    sectionIds.forEach((sid, i) => this.sectionOf.set(sid, sections[i] as StoredSection));
    this.byPath.set(page.path, entry);
    this.byId.set(id, entry);
  }

  /** The term sequence of a unit's three fields. */
  private sequence(a: string, b: string, c: string): Int32Array {
    const buf = this.buffer;
    buf.clear();
    this.analyzer.appendTermIds(a, buf);
    buf.push(-1);
    this.analyzer.appendTermIds(b, buf);
    buf.push(-1);
    this.analyzer.appendTermIds(c, buf);
    return buf.copy();
  }

  private remove(entry: IndexedPage): void {
    this.index.removePage(entry.id);
    for (const sid of entry.sectionIds) this.sectionOf.delete(sid);
    this.byPath.delete(entry.page.path);
    this.byId.delete(entry.id);
  }
}

/** `keywords` front matter: a list of phrases, or one comma-separated string. */
function keywordsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

/** The snippet of a hit: from the section's text (prose and code), else the page description. */
function snippetOf(page: Page, section: Section, matched: ReadonlySet<number>, analyzer: Analyzer): string {
  return makeSnippet(section.text !== "" ? section.text : (page.meta.description ?? ""), matched, analyzer);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function inScope(p: PagePlacement | undefined, version: string | undefined, language: string | undefined): boolean {
  if (version !== undefined && p?.versions !== undefined && !p.versions.includes(version)) return false;
  if (language !== undefined && p?.languages !== undefined && !p.languages.includes(language)) return false;
  return true;
}

/** Whether the snippets a page inlined are still the site's, and those it missed still missing. */
function snippetsCurrent(entry: IndexedPage, fileAt: (path: string) => SiteFile | undefined): boolean {
  return entry.expanded === undefined || isCurrent(entry.expanded, fileAt);
}

function samePlacement(a: PagePlacement | undefined, b: PagePlacement | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return (
    String(a.versions) === String(b.versions) &&
    String(a.languages) === String(b.languages) &&
    a.hidden === b.hidden &&
    a.breadcrumbs.join("\u0000") === b.breadcrumbs.join("\u0000")
  );
}
