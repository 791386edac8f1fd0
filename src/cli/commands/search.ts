import { readerWithGroups } from "../../vfs/access.js";
import { localContext } from "../../vfs/request-context.js";
import { type ArgumentIssue, describeArgumentIssues, parseInput } from "../../engine/use-cases/outcome.js";
import { PAGE_SIZE_RANGE, searchDocs, searchInput, searchText } from "../../engine/use-cases/search-docs.js";
import type { SearchResult } from "../../engine/use-cases/search-result.js";
import { terminalText, visibleText } from "../../config/visible-text.js";
import { LIMITS } from "../../limits.js";
import { defineCommand } from "../command.js";
import { loadDocs } from "../load-docs.js";
import { CliError } from "../io.js";
import { parseGroups, withDir, withGroups, withJson } from "../options.js";

/** `--json`: the tool's results without `section` and `file` (the URL and path say them). */
type SearchResultJson = Pick<SearchResult, "title" | "path" | "url" | "snippet" | "score" | "versions" | "languages" | "products" | "otherVersions" | "moreVersions" | "otherLanguages" | "moreLanguages">;

/** The option that sets each argument of the search use case (`query` is the positional). */
const OPTION_OF: Readonly<Record<string, string>> = {
  pageSize: "--page-size",
  scoreThreshold: "--score-threshold",
  version: "--version",
  language: "--language",
};

/** A usage error naming the options the user wrote, not the use case's argument names. */
function usageError(issues: readonly ArgumentIssue[]): CliError {
  return new CliError(describeArgumentIssues(issues, (argument) => OPTION_OF[argument] ?? argument), 2);
}

export const searchCommand = defineCommand({
  command: "search <query>",
  describe: "Search the docs as the search tool does",
  builder: (y) =>
    withJson(withGroups(withDir(y)))
      .positional("query", { type: "string", demandOption: true, describe: "What to look for" })
      .option("page-size", { type: "number", describe: `Number of results, ${PAGE_SIZE_RANGE} (default ${LIMITS.search.defaultPageSize})` })
      .option("score-threshold", { type: "number", describe: "Minimum score, 0 to 1" })
      .option("version", { type: "string", describe: "Only this documentation version (and version-less pages)" })
      .option("language", { type: "string", describe: "Only this language code (and language-less pages)" })
      .option("base-url", { type: "string", describe: "{docs_url} used in result links" }),
  run: async (args, io) => {
    // Checked before the docs are loaded: a mistyped option answers at once.
    const input = parseInput(searchInput, {
      query: args.query,
      ...(args["page-size"] !== undefined ? { pageSize: args["page-size"] } : {}),
      ...(args["score-threshold"] !== undefined ? { scoreThreshold: args["score-threshold"] } : {}),
      ...(args.version !== undefined ? { version: args.version } : {}),
      ...(args.language !== undefined ? { language: args.language } : {}),
    });
    if (!input.ok) throw usageError(input.issues);
    const runtime = await loadDocs(io, args.dir, args["base-url"] !== undefined ? { baseUrl: args["base-url"] } : {});
    let found;
    try {
      found = await searchDocs({ runtime, request: localContext(readerWithGroups(parseGroups(args.groups))) }, input.value);
    } finally {
      await runtime.close();
    }
    // An argument only the site can judge (an unknown --version).
    if (!found.ok) throw usageError(found.issues);
    const results = found.value;
    if (args.json) {
      const out: SearchResultJson[] = results.map((r) => ({
        title: r.title,
        path: r.path,
        url: r.url,
        snippet: r.snippet,
        score: r.score,
        ...(r.versions !== undefined ? { versions: r.versions } : {}),
        ...(r.languages !== undefined ? { languages: r.languages } : {}),
        ...(r.products !== undefined ? { products: r.products } : {}),
        ...(r.products !== undefined ? { products: r.products } : {}),
        ...(r.otherVersions !== undefined ? { otherVersions: r.otherVersions } : {}),
        ...(r.moreVersions !== undefined ? { moreVersions: r.moreVersions } : {}),
        ...(r.otherLanguages !== undefined ? { otherLanguages: r.otherLanguages } : {}),
        ...(r.moreLanguages !== undefined ? { moreLanguages: r.moreLanguages } : {}),
      }));
      io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    } else if (results.length === 0) {
      // The tool's words name the filesystem tool, which a terminal has no way to call: the
      // command that does the same is named instead.
      io.stdout(`No results for "${visibleText(input.value.query)}". Try other words, fewer terms, or search the files: svc-mcp fs 'rg -il "term" /'\n`);
    } else {
      io.stdout(`${terminalText(searchText(results, input.value.query, runtime.names))}\n`);
    }
    return 0;
  },
});
