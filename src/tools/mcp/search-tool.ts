import { z } from "zod";
import { LIMITS } from "../../limits.js";
import type { PagePlacement } from "../../config/site-config.js";
import type { SiteOutline } from "../../vfs/outline.js";
import { pageUrl } from "../../vfs/site.js";
import { versionList } from "../instructions.js";
import { resolveLanguage, resolveVersion } from "../search/scope.js";
import { readerTitle } from "../search/search-index.js";
import { invalidParams } from "./issues.js";
import { READ_ONLY_TOOL, defineTool } from "./tool.js";

/** One result as the tool returns it (`structuredContent.results[]`). */
export interface SearchResult {
  title: string;
  section: string;
  path: string;
  file: string;
  url: string;
  snippet: string;
  score: number;
  /** Versions navigation lists the page under; absent when under none (so in every version). */
  versions?: string[];
  /** Likewise for languages. */
  languages?: string[];
  /** Likewise for products (Cloud / Self-host editions). */
  products?: string[];
  /** The same page in other versions (or products), folded into this result (unfiltered searches only). */
  otherVersions?: ({ versions: string[]; path: string; url: string; score: number } & Pick<SearchResult, "products">)[];
}

/** `versions`/`languages` of a placement, as result fields (absent when in every one). */
function scopeFields(placement: PagePlacement | undefined): Pick<SearchResult, "versions" | "languages" | "products"> {
  return {
    ...(placement?.versions !== undefined ? { versions: [...placement.versions] } : {}),
    ...(placement?.languages !== undefined ? { languages: [...placement.languages] } : {}),
    ...(placement?.products !== undefined ? { products: [...placement.products] } : {}),
  };
}

/** ` · version v5.x · language fr`: what tells a result apart from its copies in other versions. */
function scopeMarker(r: Pick<SearchResult, "versions" | "languages" | "products">): string {
  const parts: string[] = [];
  if (r.products !== undefined) parts.push(`${r.products.length === 1 ? "product" : "products"} ${r.products.join(", ")}`);
  if (r.versions !== undefined) parts.push(`${r.versions.length === 1 ? "version" : "versions"} ${r.versions.join(", ")}`);
  if (r.languages !== undefined) parts.push(`${r.languages.length === 1 ? "language" : "languages"} ${r.languages.join(", ")}`);
  return parts.map((p) => ` · ${p}`).join("");
}

/** ` Filter values: versions v2, v1 (default v2); languages en, fr.`: the reader's, for `version` and `language`. */
function filterValues(outline: SiteOutline): string {
  const parts = [
    ...(outline.versions.length > 0 ? [`versions ${versionList(outline)}`] : []),
    ...(outline.languages.length > 0 ? [`languages ${outline.languages.join(", ")}`] : []),
  ];
  return parts.length > 0 ? ` Filter values: ${parts.join("; ")}.` : "";
}

/** The accepted page sizes, as the tool and the CLI describe them. */
export const PAGE_SIZE_RANGE = `${LIMITS.search.minPageSize} to ${LIMITS.search.maxPageSize}`;
const PAGE_SIZE_ERROR = `must be an integer from ${PAGE_SIZE_RANGE}`;

const input = z
  .object({
    query: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, { error: "must not be empty" })
      .max(LIMITS.search.maxQueryLength, { error: `must be at most ${LIMITS.search.maxQueryLength} characters` })
      .describe("What to look for, in plain words or exact terms (an API name, an error message)."),
    pageSize: z
      .number({ error: PAGE_SIZE_ERROR })
      .int({ error: PAGE_SIZE_ERROR })
      .min(LIMITS.search.minPageSize, { error: PAGE_SIZE_ERROR })
      .max(LIMITS.search.maxPageSize, { error: PAGE_SIZE_ERROR })
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

export const searchTool = defineTool({
  key: "search",
  name: (n) => n.search,
  title: ({ siteName }) => `Search ${siteName}`,
  description: ({ siteName, names, outline }) =>
    `Search the ${siteName} documentation. Returns the best-matching pages, each with its title, link, ` +
    `file path and a snippet of the matching section. Use it first for any question about ${siteName}; then read ` +
    `the full pages with ${names.filesystem} (e.g. \`cat /path/to/page.mdx\`). On a versioned or multilingual site each result names ` +
    `its version(s) and language; without a version filter, the same page in other versions is one result (its other versions listed under it). Scores are 0 to 1 and mean the same for every query: how much of the query a page answers (0.5 and above is a strong match, under 0.2 a weak one).` +
    filterValues(outline),
  input,
  annotations: { ...READ_ONLY_TOOL, title: "Search documentation" },
  run: async (args, ctx) => {
    const { runtime, request, state } = ctx;
    const { outline } = state;
    // Checked against what the reader sees of the site (not the schema): an unknown version would
    // otherwise quietly return only the pages that are in every version.
    const version = args.version !== undefined ? resolveVersion(args.version, { known: outline.knownVersions, listed: outline.versions, segments: outline.versionSegments, latest: outline.latestVersion }) : undefined;
    const language = args.language !== undefined ? resolveLanguage(args.language, { known: outline.knownLanguages, listed: outline.languages }) : undefined;
    const problems = [
      ...(version !== undefined && !version.ok ? [`version: ${version.message}`] : []),
      ...(language !== undefined && !language.ok ? [`language: ${language.message}`] : []),
    ];
    if (problems.length > 0) throw invalidParams(`Invalid arguments for ${runtime.names.search}: ${problems.join("; ")}`);
    const hits = runtime.search(request, {
      query: args.query,
      ...(args.pageSize !== undefined ? { pageSize: args.pageSize } : {}),
      ...(args.scoreThreshold !== undefined ? { scoreThreshold: args.scoreThreshold } : {}),
      ...(version?.ok === true && version.value !== undefined ? { version: version.value } : {}),
      ...(language?.ok === true && language.value !== undefined ? { language: language.value } : {}),
    });
    const base = runtime.baseUrl;
    const results = hits.map((h): SearchResult => {
      const url = pageUrl(base, h.page.path) + (h.section.anchor !== "" ? `#${h.section.anchor}` : "");
      const others = h.otherVersions.map((t) => ({
        versions: [...(t.placement?.versions ?? [])],
        ...(t.placement?.products !== undefined ? { products: [...t.placement.products] } : {}),
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
      };
    });
    const text =
      results.length === 0
        ? `No results for "${args.query}". Try other words, fewer terms, or search the files: ${runtime.names.filesystem} with \`rg -il "term" /\`.`
        : results
            .map(
              (r, i) =>
                `${i + 1}. ${r.title}${r.section !== "" && r.section !== r.title ? ` › ${r.section}` : ""}\n` +
                `   ${r.url}\n   file: ${r.file} · score ${r.score}${scopeMarker(r)}\n` +
                (r.otherVersions ?? []).map((o) => `   also in ${[...(o.products ?? []), ...o.versions].join(", ")}: ${o.url}\n`).join("") +
                `   ${r.snippet}`,
            )
            .join("\n\n");
    return { content: [{ type: "text", text }], structuredContent: { results } };
  },
});
