import { type SearchResult, filterValues, searchDocs, searchInput, searchOutput, searchText } from "../use-cases/search-docs.js";
import { success } from "../use-cases/outcome.js";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ToolNames } from "../tool-names.js";
import { READ_ONLY_TOOL, defineTool } from "./tool.js";

export type { SearchResult };

/** The search tool: an adapter over `searchDocs`, its results as text and as `structuredContent`. */
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
  input: searchInput,
  output: searchOutput,
  annotations: { ...READ_ONLY_TOOL, title: "Search documentation" },
  run: async (args, ctx) => {
    const found = await searchDocs(ctx, args);
    if (!found.ok) return found;
    return success(answerOf(found.value, args.query, ctx.runtime.names));
  },
});

/**
 * The tool's answer, once per shared list of results (`searchDocs` returns the same frozen list
 * for a repeated search), query and tool names; frozen too, so the bridge may write it once
 * (`direct-tool-call.ts`).
 */
const ANSWERS = new WeakMap<readonly SearchResult[], { readonly query: string; readonly names: ToolNames; readonly answer: CallToolResult }>();

function answerOf(results: readonly SearchResult[], query: string, names: ToolNames): CallToolResult {
  const known = ANSWERS.get(results);
  if (known !== undefined && known.query === query && known.names === names) return known.answer;
  const answer = Object.freeze({
    content: Object.freeze([Object.freeze({ type: "text" as const, text: searchText(results, query, names) })]),
    structuredContent: Object.freeze({ results }),
  }) as CallToolResult;
  if (Object.isFrozen(results)) ANSWERS.set(results, { query, names, answer });
  return answer;
}
