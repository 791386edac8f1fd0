import { z } from "zod";
import { LIMITS } from "../limits.js";
import { filterValues, searchAnswer, searchInput, searchText } from "../engine/use-cases/search-docs.js";
import { type SearchResult, searchResultSchema } from "../engine/use-cases/search-result.js";
import { type SearchAnswer, answerForm } from "../engine/use-cases/search-answers.js";
import { success } from "../engine/use-cases/outcome.js";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { productName, type ToolNames } from "../engine/tool-names.js";
import { withMember } from "../objects.js";
import { isoTime } from "./iso-times.js";
import { cutText, maxCharsArgument } from "./max-chars.js";
import { PROVENANCE_META_KEY, type Provenance, provenanceOf, provenanceSchema, readerCommit } from "./provenance.js";
import { READ_ONLY_TOOL, type ToolContext, defineTool } from "./tool.js";
import { appUri, hasApp } from "./ui-extension.js";

export type { SearchResult };

/** The tool's arguments: a search's, and how much text the answer may take. */
const searchToolInput = searchInput.extend({ maxChars: maxCharsArgument(LIMITS.mcp.maxSearchChars, "the answer's text") });

/** A result as the tool gives it: the search's, with when its page last changed. */
const toolResultSchema = searchResultSchema.extend({
  lastModified: z.string().optional().describe("When the page's file last changed (ISO 8601), as the reader's filesystem shows it."),
});

export type ToolSearchResult = z.infer<typeof toolResultSchema>;

/** The tool's `structuredContent`. */
export const searchToolOutput = z.object({
  results: z.array(toolResultSchema).describe("Best first."),
  provenance: provenanceSchema.describe("The commit the docs were read at and the newest of the results' pages."),
  leftOut: z.number().optional().describe("Results found but left out to keep the text within maxChars (absent when none were)."),
  snippetCut: z.boolean().optional().describe("True when even the first result did not fit within maxChars whole, and its snippet was cut."),
});

/** The search tool: an adapter over `searchDocs`, its results as text and as `structuredContent`, with their provenance. */
export const searchTool = defineTool({
  key: "search",
  name: (n) => n.search,
  title: ({ siteName }) => `Search ${siteName}`,
  description: ({ siteName, names, outline }) =>
    `Search the ${productName(siteName)} documentation. Returns the best-matching pages, each with its title, link, ` +
    `file path and a snippet of the matching section. Use it first for any question about ${productName(siteName)}; then read ` +
    `the full pages with ${names.filesystem} (e.g. \`cat /path/to/page.mdx\`). On a versioned or multilingual site each result names ` +
    `its version(s) and language; without a version filter, the same page in other versions is one result (its other versions listed under it). Scores are 0 to 1 and mean the same for every query: how much of the query a page answers (0.5 and above is a strong match, under 0.2 a weak one).` +
    filterValues(outline),
  input: searchToolInput,
  output: searchToolOutput,
  annotations: { ...READ_ONLY_TOOL, title: "Search documentation" },
  run: async (args, ctx) => {
    const { maxChars, ...search } = args;
    const found = await searchAnswer(ctx, search);
    if (!found.ok) return found;
    const commit = await readerCommit(ctx.runtime, ctx.state);
    const answer = toolResult(found.value, commit);
    return success(withApp(maxChars === undefined ? answer : withinChars(answer, args.query, ctx.runtime.names, maxChars), ctx));
  },
});

/**
 * For a client that renders MCP Apps: the result points at the playground app of its best API
 * operation hit (`_meta.ui.resourceUri`), which the host can open beside the answer. Any other
 * client gets the result as it was.
 */
function withApp(result: CallToolResult, ctx: ToolContext): CallToolResult {
  if (ctx.apps === undefined) return result;
  const { results } = result.structuredContent as { results: readonly ToolSearchResult[] };
  const hit = results.find((r) => hasApp(ctx.runtime, r.path, ctx.request));
  if (hit === undefined) return result;
  return { ...result, _meta: { ...result._meta, ui: { resourceUri: appUri(ctx.runtime, hit.path) } } };
}

/** The tool's result, a form of the search's answer (`SearchAnswer`). */
const TOOL_RESULT = answerForm<CallToolResult>("search tool result");

/**
 * The tool's result, made once per answer and commit (the answer is the reader's already: its
 * view gives the page times), and frozen when the answer is shared (`SearchAnswer.shared`); the
 * bridge writes its JSON once too (`direct-tool-call.ts`).
 */
function toolResult(found: SearchAnswer, commit: string | undefined): CallToolResult {
  return found.form(TOOL_RESULT, commit ?? "", () => {
    // The provenance from the times themselves, not parsed back from the results' strings.
    const times: Date[] = [];
    const results = found.results.map((r): ToolSearchResult => {
      const mtime = found.view.fileAt(r.file)?.mtime;
      if (mtime === undefined) return r;
      times.push(mtime);
      return withMember(r, "lastModified", isoTime(mtime));
    });
    const provenance = provenanceOf(commit, times);
    // `_meta` first, where the SDK's result schema puts it: the bridge's direct answers write the result's members in their order.
    const result: CallToolResult = {
      _meta: { [PROVENANCE_META_KEY]: provenance },
      content: [{ type: "text" as const, text: found.text }],
      structuredContent: { results, provenance },
    };
    return found.shared ? deepFreeze(result) : result;
  });
}

function resultsProvenance(results: readonly ToolSearchResult[], commit: string | undefined): Provenance {
  return provenanceOf(
    commit,
    results.flatMap((r) => (r.lastModified !== undefined ? [new Date(r.lastModified)] : [])),
  );
}

/**
 * The answer cut to `maxChars` characters of text: whole results from the best down while they
 * fit with the note saying what was left out; when not even the best fits, it alone with its
 * snippet cut. The structured results are the same ones the text shows.
 */
function withinChars(answer: CallToolResult, query: string, names: ToolNames, maxChars: number): CallToolResult {
  const text = (answer.content[0] as { text: string }).text;
  if (text.length <= maxChars) return answer;
  const { results, provenance } = answer.structuredContent as { results: readonly ToolSearchResult[]; provenance: Provenance };
  // No results, and a long query repeated in the text that says so: the text is cut, nothing else is.
  if (results.length === 0) return { ...answer, content: [{ type: "text", text: `${cutText(text, maxChars - 1)}…` }] };
  for (let shown = results.length - 1; shown >= 1; shown--) {
    const kept = results.slice(0, shown);
    const cut = `${searchText(kept, query, names)}\n\n${leftOutNote(results.length - shown, results.length, maxChars)}`;
    if (cut.length <= maxChars) return trimmed(kept, cut, results.length - shown, false, provenance.commit);
  }
  // Not even the best result fits whole: cut its snippet to what is left beside the rest of it.
  const best = results[0]!;
  const note = leftOutNote(results.length - 1, results.length, maxChars, true);
  const frame = `${searchText([{ ...best, snippet: "" }], query, names)}…\n\n${note}`;
  const snippet = `${cutText(best.snippet, maxChars - frame.length).trimEnd()}…`;
  const kept = [{ ...best, snippet }];
  let head = searchText(kept, query, names);
  // The frame alone (a long title and link) may still not fit: it is cut too, the note kept.
  const room = maxChars - note.length - 2;
  if (head.length > room) head = `${cutText(head, room - 1)}…`;
  return trimmed(kept, `${head}\n\n${note}`, results.length - 1, true, provenance.commit);
}

/** A cut answer: its provenance is that of the results it still shows. */
function trimmed(results: readonly ToolSearchResult[], text: string, leftOut: number, snippetCut: boolean, commit: string | undefined): CallToolResult {
  const kept = resultsProvenance(results, commit);
  return {
    _meta: { [PROVENANCE_META_KEY]: kept },
    content: [{ type: "text", text }],
    structuredContent: { results, provenance: kept, ...(leftOut > 0 ? { leftOut } : {}), ...(snippetCut ? { snippetCut } : {}) },
  };
}

/** `[8 of 10 results left out for maxChars 1500]`: short, so that a small budget still has room for a result. */
function leftOutNote(leftOut: number, total: number, maxChars: number, snippetCut = false): string {
  const what = snippetCut ? `first snippet cut${leftOut > 0 ? `, ${leftOut} of ${total} results left out` : ""}` : `${leftOut} of ${total} results left out`;
  return `[${what} for maxChars ${maxChars}; ask with a larger maxChars or a smaller pageSize]`;
}

/** Freeze a plain value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
