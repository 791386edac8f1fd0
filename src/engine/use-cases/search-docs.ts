import { z } from "zod";
import { LIMITS } from "../../limits.js";
import type { PagePlacement } from "../../config/site-config.js";
import type { SiteOutline } from "../../vfs/outline.js";
import { pageUrl, sectionUrl } from "../../vfs/site.js";
import { versionList } from "../instructions.js";
import { resolveLanguage, resolveVersion } from "../search/scope.js";
import { type SearchHit, readerTitle } from "../search/search-index.js";
import type { ToolNames } from "../tool-names.js";
import type { DocsRuntime } from "../runtime.js";
import { type DocsContext, readerStateOf } from "./docs-context.js";
import { type ArgumentIssue, type Outcome, failure, success } from "./outcome.js";
import { SearchAnswer, SearchAnswers } from "./search-answers.js";
import { type SearchResult, searchResultSchema } from "./search-result.js";

/** The accepted page sizes, as the tool and the CLI describe them. */
export const PAGE_SIZE_RANGE = `${LIMITS.search.minPageSize} to ${LIMITS.search.maxPageSize}`;
const PAGE_SIZE = `must be an integer from ${PAGE_SIZE_RANGE}`;

/** What a search asks for: the search tool's arguments, `svc-mcp search`'s options. */
export const searchInput = z
  .object({
    query: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, { error: "must not be empty" })
      .max(LIMITS.search.maxQueryLength, { error: `must be at most ${LIMITS.search.maxQueryLength} characters` })
      .describe("What to look for, in plain words or exact terms (an API name, an error message)."),
    pageSize: z
      .number({ error: PAGE_SIZE })
      .int({ error: PAGE_SIZE })
      .min(LIMITS.search.minPageSize, { error: PAGE_SIZE })
      .max(LIMITS.search.maxPageSize, { error: PAGE_SIZE })
      .optional()
      .describe(`Number of results, ${PAGE_SIZE_RANGE} (default ${LIMITS.search.defaultPageSize}).`),
    scoreThreshold: z
      .number({ error: "must be a number from 0 to 1" })
      .min(0, { error: "must be a number from 0 to 1" })
      .max(1, { error: "must be a number from 0 to 1" })
      .optional()
      .describe("Only return results scoring at least this (0 to 1; 0.5 and above is a strong match)."),
    version: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).optional().describe("Only content of this documentation version (or in every version)."),
    language: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).optional().describe("Only content in this language code, such as en, zh, es (or in every language)."),
  })
  .strict();

export type SearchInput = z.infer<typeof searchInput>;

/** The search tool's `structuredContent`. */
export const searchOutput = z.object({ results: z.array(searchResultSchema).describe("Best first.") });

/**
 * Search the docs as the context's reader: the best-matching sections of the pages they may
 * read, best first. A `version` or `language` the reader's site does not have is an issue (it
 * would otherwise quietly return only the pages that are in every version).
 */
export async function searchDocs(context: DocsContext, input: SearchInput): Promise<Outcome<readonly SearchResult[]>> {
  const found = await searchAnswer(context, input);
  return found.ok ? success(found.value.results) : found;
}

/** The answer cache of each runtime (see `SearchAnswers`), emptied on every change of its site. */
const ANSWERS = new WeakMap<DocsRuntime, SearchAnswers>();

function answersOf(runtime: DocsRuntime): SearchAnswers {
  let answers = ANSWERS.get(runtime);
  if (answers === undefined) {
    const made = new SearchAnswers();
    runtime.onChange(() => made.clear());
    ANSWERS.set(runtime, (answers = made));
  }
  return answers;
}

/**
 * `searchDocs`'s answer with its text, and room for the forms adapters make of it (the MCP
 * tool's result, the bridge's JSON), kept for a repeat of the same search by a reader who sees
 * the same: a repeated search is answered with the same frozen answer until the site changes.
 */
export async function searchAnswer(context: DocsContext, input: SearchInput): Promise<Outcome<SearchAnswer>> {
  const { runtime, request } = context;
  const state = readerStateOf(context);
  const { outline } = state;
  // Checked against what the reader sees of the site, which the schema cannot know.
  const version = input.version !== undefined ? resolveVersion(input.version, { known: outline.knownVersions, listed: outline.versions, segments: outline.versionSegments, latest: outline.latestVersion }) : undefined;
  const language = input.language !== undefined ? resolveLanguage(input.language, { known: outline.knownLanguages, listed: outline.languages }) : undefined;
  const issues: ArgumentIssue[] = [
    ...(version !== undefined && !version.ok ? [{ argument: "version", message: version.message }] : []),
    ...(language !== undefined && !language.ok ? [{ argument: "language", message: language.message }] : []),
  ];
  if (issues.length > 0) return failure(issues);
  const versionValue = version?.ok === true ? version.value : undefined;
  const languageValue = language?.ok === true ? language.value : undefined;
  // One search at a time per caller, one per turn of the event loop (`CallerTurns`): a caller
  // who sent many cannot hold the thread for all of them, and one who has gone away runs none.
  // Weighed by the work it is expected to make (counted from the index, microseconds), so that a
  // cheap search is not queued behind heavy ones when the callers' charges do not tell them apart
  // (callers never seen, or none charged yet).
  const expected = runtime.expectedSearchWork({ query: input.query, ...(versionValue !== undefined ? { version: versionValue } : {}), ...(languageValue !== undefined ? { language: languageValue } : {}) });
  const endTurn = await runtime.searchTurns.take(request.caller, context.signal, expected);
  if (endTurn === undefined) return failure([{ message: "the call was given up before its search ran" }]);
  let hits: Awaited<ReturnType<DocsRuntime["search"]>>;
  // Charged to its caller by the work it made (an answer kept from before costs none): callers
  // whose searches are heavy take the thread less often than one whose are light.
  const workBefore = runtime.searchWork;
  try {
    hits = await runtime.search(request, {
      query: input.query,
      ...(input.pageSize !== undefined ? { pageSize: input.pageSize } : {}),
      ...(input.scoreThreshold !== undefined ? { scoreThreshold: input.scoreThreshold } : {}),
      ...(versionValue !== undefined ? { version: versionValue } : {}),
      ...(languageValue !== undefined ? { language: languageValue } : {}),
    });
  } finally {
    endTurn(runtime.searchWork - workBefore);
  }
  const base = runtime.baseUrl;
  const names = runtime.names;
  // The normalised arguments, the query last. A key two argument lists could share (a version
  // with a line break in it) only misses: an answer is used only with the hits it was written from.
  const args = `${input.pageSize ?? ""}\n${input.scoreThreshold ?? ""}\n${versionValue ?? ""}\n${languageValue ?? ""}\n${input.query}`;
  const { view } = state;
  return success(
    answersOf(runtime).answer({ request, view, base, names }, args, hits, () => {
      // Frozen when the answer may be shared (`SearchAnswer.shared`): kept hits only.
      const results = Object.isFrozen(hits) ? deepFreeze(resultsOf(hits, base)) : resultsOf(hits, base);
      return new SearchAnswer(hits, view, results, () => searchText(results, input.query, names));
    }),
  );
}

/** The results of a list of hits. */
function resultsOf(hits: readonly SearchHit[], base: string): readonly SearchResult[] {
  return hits.map((h): SearchResult => {
    const url = sectionUrl(base, h.page.path, h.section.anchor);
    const others = h.otherVersions.map((t) => ({
      versions: [...(t.placement?.versions ?? [])],
      ...(t.placement?.products !== undefined ? { products: [...t.placement.products] } : {}),
      path: t.page.path,
      url: pageUrl(base, t.page.path),
      score: t.score,
    }));
    const languages = h.otherLanguages.map((t) => ({
      languages: [...(t.placement?.languages ?? [])],
      ...(t.placement?.versions !== undefined ? { versions: [...t.placement.versions] } : {}),
      path: t.page.path,
      url: pageUrl(base, t.page.path),
      score: t.score,
    }));
    return {
      title: readerTitle(h.page),
      section: h.section.heading,
      path: h.page.path,
      file: h.page.file.path,
      url,
      snippet: h.snippet,
      score: h.score,
      ...scopeFields(h.placement),
      ...(others.length > 0 ? { otherVersions: others } : {}),
      ...(h.moreVersions > 0 ? { moreVersions: h.moreVersions } : {}),
      ...(languages.length > 0 ? { otherLanguages: languages } : {}),
      ...(h.moreLanguages > 0 ? { moreLanguages: h.moreLanguages } : {}),
    };
  });
}

/**
 * Snippets at least this long, written the same as an earlier result's, are not repeated in the
 * text: pages made from one template (OpenLIT's sixty "Monitor X using OpenTelemetry › Get
 * started" sections) fill half a page of hits with one paragraph, which a model reads five times.
 * The result's title, link and file still tell the pages apart; the structured results keep
 * every snippet. Shorter snippets ("application/json") are cheaper repeated than pointed at.
 */
const SAME_TEXT_MIN = 80;

/**
 * The results as text for a model or a terminal: numbered, each with its link, file, score,
 * scope and snippet (or which earlier result's it repeats); no results say what to try next
 * (`names.filesystem` with `rg`).
 */
export function searchText(results: readonly SearchResult[], query: string, names: ToolNames): string {
  if (results.length === 0) return `No results for "${query}". Try other words, fewer terms, or search the files: ${names.filesystem} with \`rg -il "term" /\`.`;
  // The pieces pushed to one list and joined once: each result's template made a chain of joined
  // strings that the final join copied again (~11 KB a search's text, issue 23).
  const out: string[] = [];
  const firstWithSnippet = new Map<string, number>();
  results.forEach((r, i) => {
    if (i > 0) out.push("\n\n");
    out.push(`${i + 1}. `, r.title);
    if (r.section !== "" && r.section !== r.title) out.push(" › ", r.section);
    out.push("\n   ", r.url, "\n   file: ", r.file, " · score ", String(r.score));
    scopeMarker(r, out);
    out.push("\n");
    for (const o of r.otherVersions ?? []) out.push("   also in ", [...(o.products ?? []), ...o.versions].join(", "), ": ", o.url, "\n");
    if (r.moreVersions !== undefined) out.push(`   also in ${r.moreVersions} more version${r.moreVersions === 1 ? "" : "s"} (search with version to get one)\n`);
    for (const o of r.otherLanguages ?? []) out.push("   in ", o.languages.join(", "), ": ", o.url, "\n");
    if (r.moreLanguages !== undefined) out.push(`   in ${r.moreLanguages} more language${r.moreLanguages === 1 ? "" : "s"} (search with language to get one)\n`);
    const same = SAME_TEXT_MIN <= r.snippet.length ? firstWithSnippet.get(r.snippet) : undefined;
    if (same === undefined) {
      out.push("   ", r.snippet);
      firstWithSnippet.set(r.snippet, i + 1);
    } else {
      out.push(`   (same text as result ${same})`);
    }
  });
  return out.join("");
}

/** ` Filter values: versions v2, v1 (default v2); languages en, fr.`: the reader's, for `version` and `language`. */
export function filterValues(outline: SiteOutline): string {
  const parts = [
    ...(outline.versions.length > 0 ? [`versions ${versionList(outline)}`] : []),
    ...(outline.languages.length > 0 ? [`languages ${outline.languages.join(", ")}`] : []),
  ];
  return parts.length > 0 ? ` Filter values: ${parts.join("; ")}.` : "";
}

/** `versions`/`languages` of a placement, as result fields (absent when in every one). */
function scopeFields(placement: PagePlacement | undefined): Pick<SearchResult, "versions" | "languages" | "products"> {
  return {
    ...(placement?.versions !== undefined ? { versions: [...placement.versions] } : {}),
    ...(placement?.languages !== undefined ? { languages: [...placement.languages] } : {}),
    ...(placement?.products !== undefined ? { products: [...placement.products] } : {}),
  };
}

/** ` · version v5.x · language fr`, pushed to `out`: what tells a result apart from its copies in other versions. */
function scopeMarker(r: Pick<SearchResult, "versions" | "languages" | "products">, out: string[]): void {
  if (r.products !== undefined) out.push(r.products.length === 1 ? " · product " : " · products ", r.products.join(", "));
  if (r.versions !== undefined) out.push(r.versions.length === 1 ? " · version " : " · versions ", r.versions.join(", "));
  if (r.languages !== undefined) out.push(r.languages.length === 1 ? " · language " : " · languages ", r.languages.join(", "));
}

/** Freeze a plain value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
