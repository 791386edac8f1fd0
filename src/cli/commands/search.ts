import { readerWithGroups } from "../../vfs/access.js";
import { localContext } from "../../vfs/request-context.js";
import { describeIssues, INVALID_PARAMS } from "../../tools/mcp/issues.js";
import { LIMITS } from "../../limits.js";
import { PAGE_SIZE_RANGE, type SearchResult, searchTool } from "../../tools/mcp/search-tool.js";
import { defineCommand } from "../command.js";
import { loadDocs } from "../load-docs.js";
import { CliError } from "../io.js";
import { parseGroups, withDir, withGroups, withJson } from "../options.js";

/** `--json`: the tool's results without `section` and `file` (the URL and path say them). */
type SearchResultJson = Pick<SearchResult, "title" | "path" | "url" | "snippet" | "score" | "versions" | "languages" | "products" | "otherVersions">;

/** The tool's messages name its arguments; the CLI's user wrote options. */
function optionNames(message: string): string {
  return message
    .replace(/\bpageSize\b/g, "--page-size")
    .replace(/\bscoreThreshold\b/g, "--score-threshold")
    .replace(/(^|; )(version|language):/g, "$1--$2:");
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
    // Same validation and messages as the MCP tool.
    const parsed = searchTool.input.safeParse(
      {
        query: args.query,
        ...(args["page-size"] !== undefined ? { pageSize: args["page-size"] } : {}),
        ...(args["score-threshold"] !== undefined ? { scoreThreshold: args["score-threshold"] } : {}),
        ...(args.version !== undefined ? { version: args.version } : {}),
        ...(args.language !== undefined ? { language: args.language } : {}),
      },
      { reportInput: true },
    );
    if (!parsed.success) {
      throw new CliError(optionNames(describeIssues(parsed.error)), 2);
    }
    const runtime = await loadDocs(io, args.dir, args["base-url"] !== undefined ? { baseUrl: args["base-url"] } : {});
    const context = localContext(readerWithGroups(parseGroups(args.groups)));
    let result;
    try {
      result = await searchTool.run(parsed.data as never, { runtime, request: context, state: runtime.readerState(context), endpoint: "cli" });
    } catch (error) {
      // An argument only the site can judge (an unknown --version): the tool's InvalidParams.
      if ((error as { code?: unknown }).code !== INVALID_PARAMS) throw error;
      throw new CliError(optionNames((error as Error).message.replace(/^Invalid arguments for \S+: /, "")), 2);
    } finally {
      await runtime.close();
    }
    const results = (result.structuredContent as { results: SearchResult[] }).results;
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
        ...(r.otherVersions !== undefined ? { otherVersions: r.otherVersions } : {}),
      }));
      io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      const first = result.content[0];
      io.stdout(`${first !== undefined && first.type === "text" ? first.text : ""}\n`);
    }
    return 0;
  },
});
