import { z } from "zod";
import { LIMITS } from "../../limits.js";
import { pageUrl } from "../../vfs/site.js";
import { READ_ONLY_TOOL, defineTool } from "./tool.js";

const input = z
  .object({
    query: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, { error: "must not be empty" })
      .max(LIMITS.search.maxQueryLength, { error: `must be at most ${LIMITS.search.maxQueryLength} characters` })
      .describe("What to look for, in plain words or exact terms (an API name, an error message)."),
    pageSize: z
      .number({ error: "must be an integer from 1 to 50" })
      .int({ error: "must be an integer from 1 to 50" })
      .min(LIMITS.search.minPageSize, { error: "must be an integer from 1 to 50" })
      .max(LIMITS.search.maxPageSize, { error: "must be an integer from 1 to 50" })
      .optional()
      .describe(`Number of results, 1 to 50 (default ${LIMITS.search.defaultPageSize}).`),
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
  title: (site) => `Search ${site}`,
  description: ({ siteName, names }) =>
    `Search the ${siteName} documentation. Returns the best-matching pages, each with its title, link, ` +
    `file path and a snippet of the matching section. Use it first for any question about ${siteName}; then read ` +
    `the full pages with ${names.filesystem} (e.g. \`cat /path/to/page.mdx\`). Scores are 0 to 1 and mean the same for every query: how much of the query a page answers (0.5 and above is a strong match, under 0.2 a weak one).`,
  input,
  annotations: { ...READ_ONLY_TOOL, title: "Search documentation" },
  run: async (args, ctx) => {
    const { runtime, reader } = ctx;
    const hits = runtime.search(reader, {
      query: args.query,
      ...(args.pageSize !== undefined ? { pageSize: args.pageSize } : {}),
      ...(args.scoreThreshold !== undefined ? { scoreThreshold: args.scoreThreshold } : {}),
      ...(args.version !== undefined ? { version: args.version } : {}),
      ...(args.language !== undefined ? { language: args.language } : {}),
    });
    const base = runtime.baseUrl;
    const results = hits.map((h) => {
      const url = pageUrl(base, h.page.path) + (h.section.anchor !== "" ? `#${h.section.anchor}` : "");
      return {
        title: h.page.title,
        section: h.section.heading,
        path: h.page.path,
        file: h.page.file.path,
        url,
        snippet: h.snippet,
        score: h.score,
      };
    });
    const text =
      results.length === 0
        ? `No results for "${args.query}". Try other words, fewer terms, or search the files: ${runtime.names.filesystem} with \`rg -il "term" /\`.`
        : results
            .map(
              (r, i) =>
                `${i + 1}. ${r.title}${r.section !== "" && r.section !== r.title ? ` › ${r.section}` : ""}\n` +
                `   ${r.url}\n   file: ${r.file} · score ${r.score}\n   ${r.snippet}`,
            )
            .join("\n\n");
    return { content: [{ type: "text", text }], structuredContent: { results } };
  },
});
