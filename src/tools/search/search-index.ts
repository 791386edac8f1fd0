import MiniSearch, { type SearchResult } from "minisearch";
import type { PagePlacement } from "../../config/site-config.js";
import { LIMITS } from "../../limits.js";
import { isIndexed, type Page, placementOf, type Site } from "../../vfs/site.js";
import { type Section, splitSections } from "./sections.js";
import { makeSnippet } from "./snippet.js";
import { analyzeTerm, tokenize } from "./terms.js";

/** One indexed section of one page. */
interface SectionDoc {
  readonly id: number;
  readonly page: Page;
  readonly placement: PagePlacement | undefined;
  readonly section: Section;
  /** True for the page's first section, which alone carries the page description. */
  readonly first: boolean;
}

/** What a search asks for, beyond the query. */
export interface SearchRequest {
  readonly query: string;
  readonly pageSize?: number;
  readonly scoreThreshold?: number;
  readonly version?: string;
  readonly language?: string;
  /** The reader's visibility rule: hits on pages it rejects never leave the index. */
  readonly canRead: (page: Page) => boolean;
}

/** One search hit: the best-matching section of a page. */
export interface SearchHit {
  readonly page: Page;
  readonly section: Section;
  /** 0..1; comparable across queries (see `normalizeScores`). */
  readonly score: number;
  readonly snippet: string;
}

/** Field weights: a match in a page title says far more than one in body text. */
const BOOST = { title: 4, heading: 2.5, description: 1.5, body: 1 } as const;

/**
 * A BM25 index of page sections, updated incrementally as pages change (so an edit is
 * searchable within milliseconds instead of after a full rebuild).
 */
export class SearchIndex {
  private readonly mini: MiniSearch<{ id: number }>;
  private readonly docs = new Map<number, SectionDoc>();
  /** Section doc IDs of each indexed page, keyed by the Page object (identity = unchanged). */
  private readonly byPage = new Map<string, { page: Page; placement: PagePlacement | undefined; ids: number[] }>();
  private nextId = 1;

  constructor() {
    this.mini = new MiniSearch<{ id: number }>({
      idField: "id",
      fields: ["title", "heading", "description", "body"],
      storeFields: [],
      tokenize,
      processTerm: analyzeTerm,
      extractField: (doc, field) => {
        const d = this.docs.get((doc as { id: number }).id);
        if (d === undefined) return "";
        if (field === "id") return d.id as unknown as string;
        return fieldText(d, field);
      },
      // Large docs sites rewrite thousands of sections on a config reload; vacuum in the background.
      autoVacuum: { minDirtCount: 200, minDirtFactor: 0.2, batchSize: 2_000, batchWait: 5 },
    });
  }

  /** Number of indexed sections. */
  get size(): number {
    return this.docs.size;
  }

  /**
   * Bring the index in line with a site: add new or changed pages, drop removed ones. Pages
   * whose object and placement are unchanged are left alone.
   */
  sync(site: Site): { added: number; removed: number } {
    const wanted = new Map<string, { page: Page; placement: PagePlacement | undefined }>();
    for (const page of site.pages.values()) {
      if (isIndexed(site, page)) wanted.set(page.path, { page, placement: placementOf(site, page) });
    }
    let added = 0;
    let removed = 0;
    for (const [path, entry] of this.byPage) {
      const next = wanted.get(path);
      if (next !== undefined && next.page === entry.page && samePlacement(next.placement, entry.placement)) {
        wanted.delete(path);
        continue;
      }
      for (const id of entry.ids) {
        this.mini.discard(id);
        this.docs.delete(id);
      }
      this.byPage.delete(path);
      removed++;
    }
    for (const [path, { page, placement }] of wanted) {
      const ids: number[] = [];
      const docs: { id: number }[] = [];
      for (const section of splitSections(page.body)) {
        const id = this.nextId++;
        this.docs.set(id, { id, page, placement, section, first: ids.length === 0 });
        ids.push(id);
        docs.push({ id });
      }
      if (ids.length === 0) {
        // A page with only front matter is still findable by its title.
        const id = this.nextId++;
        this.docs.set(id, { id, page, placement, section: { heading: "", parents: [], anchor: "", text: "" }, first: true });
        ids.push(id);
        docs.push({ id });
      }
      this.mini.addAll(docs);
      this.byPage.set(path, { page, placement, ids });
      added++;
    }
    return { added, removed };
  }

  /** Search: best section per page, filtered by reader, version and language, scores in 0..1. */
  search(req: SearchRequest): SearchHit[] {
    const pageSize = req.pageSize ?? LIMITS.search.defaultPageSize;
    const query = req.query.trim();
    if (query === "") return [];
    const queryTerms = [...new Set(tokenize(query).map(analyzeTerm).filter((t): t is string => typeof t === "string" && t !== ""))];
    if (queryTerms.length === 0) return [];
    const filter = (r: SearchResult): boolean => {
      const d = this.docs.get(r.id as number);
      return d !== undefined && inScope(d.placement, req.version, req.language) && req.canRead(d.page);
    };
    const results = this.mini.search(query, {
      boost: BOOST,
      combineWith: "OR",
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      weights: { fuzzy: 0.45, prefix: 0.6 },
      filter,
    });
    const best = new Map<string, { doc: SectionDoc; raw: number; coverage: number }>();
    for (const r of results) {
      const doc = this.docs.get(r.id as number);
      if (doc === undefined) continue;
      const coverage = new Set(r.queryTerms).size / queryTerms.length;
      const prev = best.get(doc.page.path);
      if (prev === undefined || r.score > prev.raw) best.set(doc.page.path, { doc, raw: r.score, coverage });
    }
    const ranked = normalizeScores([...best.values()]);
    const threshold = req.scoreThreshold ?? 0;
    const hits: SearchHit[] = [];
    for (const { doc, score } of ranked) {
      if (score < threshold) continue;
      hits.push({ page: doc.page, section: doc.section, score, snippet: makeSnippet(doc.section.text || (doc.page.meta.description ?? ""), queryTerms) });
      if (hits.length >= pageSize) break;
    }
    return hits;
  }
}

/**
 * Scores in 0..1 that mean the same across queries: the share of the query's terms the page
 * matches (coverage), scaled by how close its BM25 score is to the best hit's. A page that
 * matches every term as strongly as the best hit scores 1; one that matches half the terms
 * at most 0.5, whatever the query.
 */
function normalizeScores<T extends { raw: number; coverage: number; doc: SectionDoc }>(items: T[]): (T & { score: number })[] {
  const top = items.reduce((m, x) => Math.max(m, x.raw), 0);
  return items
    .map((x) => ({ ...x, score: top > 0 ? round3(Math.min(1, x.coverage) * Math.sqrt(x.raw / top)) : 0 }))
    .sort((a, b) => b.score - a.score || b.raw - a.raw || (a.doc.page.path < b.doc.page.path ? -1 : 1));
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function fieldText(d: SectionDoc, field: string): string {
  switch (field) {
    case "title":
      return d.page.title;
    case "heading":
      return [...d.section.parents, d.section.heading].join(" ");
    case "description":
      // Only the first section carries the page description, so it counts once per page.
      return d.first ? (d.page.meta.description ?? "") : "";
    case "body":
      return d.section.text;
    default:
      return "";
  }
}

function inScope(p: PagePlacement | undefined, version: string | undefined, language: string | undefined): boolean {
  if (version !== undefined && p?.versions !== undefined && !p.versions.includes(version)) return false;
  if (language !== undefined && p?.languages !== undefined && !p.languages.includes(language)) return false;
  return true;
}

function samePlacement(a: PagePlacement | undefined, b: PagePlacement | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return (
    String(a.versions) === String(b.versions) &&
    String(a.languages) === String(b.languages) &&
    a.breadcrumbs.join("\u0000") === b.breadcrumbs.join("\u0000")
  );
}
