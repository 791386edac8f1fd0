import { describe, expect, it } from "vitest";
import { documentedIdentifiers, queryIdentifiers } from "../../../src/engine/search/documented-identifiers.js";
import type { RankingParams } from "../../../src/engine/search/ranking.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A page that gives an identifier a place of its own (a whole heading, a table row's first cell,
 * a ParamField or ResponseField name) documents it; when a question names it, that page is its
 * reference and comes before guides quoting it in their examples (issue 24, twenty-seventh round).
 */
function ranked(files: Record<string, string>, query: string, ranking: Partial<RankingParams> = {}): [string, string, number][] {
  const index = new SearchIndex({ ranking });
  index.sync(inlineSite(files));
  return index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.section.heading, h.score]);
}

const page = (title: string, ...lines: string[]): string => ["---", `title: ${title}`, "---", "", ...lines].join("\n");

const site = {
  // The guide quotes the variable in an example.
  "/guides/privacy.mdx": page(
    "Privacy",
    "We collect usage statistics to improve the product. To opt out, set the variable before you start the server:",
    "",
    "```bash",
    "export ANONYMIZED_TELEMETRY=false",
    "```",
    "",
    "Statistics never include your prompts.",
  ),
  // The reference gives it a table row of its own among other variables.
  "/reference/environment.mdx": page(
    "Environment variables",
    "## Server",
    "",
    "| Variable | Default | Meaning |",
    "|---|---|---|",
    "| `ANONYMIZED_TELEMETRY` | `true` | Send usage statistics |",
    "| `LOG_LEVEL` | `info` | Log verbosity |",
    "| `DATA_DIR` | `~/.app` | Where data is stored |",
    "| `PORT` | `8080` | Port to listen on |",
  ),
  // An endpoint described with Mintlify fields, its parameter's tag over several lines.
  "/api/runs.mdx": page(
    "Start a run",
    "<ParamField",
    '  body="run_timeout"',
    '  type="number"',
    ">",
    "Seconds before the run is stopped.",
    "</ParamField>",
  ),
  "/guides/runs.mdx": page("Long runs", "A long run may hit its run_timeout: raise run_timeout for jobs that take hours, or split the run."),
};

describe("documented identifiers", () => {
  it("are whole headings, first cells of table rows and field names, outside code", () => {
    const body = [
      "## ANONYMIZED_TELEMETRY",
      "## Install",
      "| Code | Meaning |",
      "|---|---|",
      "| **402** | Payment Required |",
      '<ResponseField name="runId" type="string">',
      "```md",
      "## NOT_DOCUMENTED",
      "```",
      "### `createClient()`",
      "The user_id is mentioned here only.",
    ].join("\n");
    expect(documentedIdentifiers(body)).toEqual(["anonymized_telemetry", "402", "createclient", "runid"]);
    // The same page saved with Windows line ends (484 of one real site's 1,210 pages are): a
    // heading's line kept its `\r`, which the heading pattern's end did not take, so its
    // identifier was not documented.
    expect(documentedIdentifiers(body.replaceAll("\n", "\r\n"))).toEqual(["anonymized_telemetry", "402", "createclient", "runid"]);
  });

  it("are read in a page's length: a heading of a million spaces, many unclosed field tags, a huge first cell (each was the square of it)", () => {
    expect(documentedIdentifiers(`# user_id${" ".repeat(1_000_000)}#\n`)).toEqual([]);
    expect(documentedIdentifiers(`${'<ParamField body="a_b" '.repeat(100_000)}\n<ParamField name="run_id">`)).toEqual(["a_b", "run_id"]);
    expect(documentedIdentifiers(`| ${"x_".repeat(500_000)}y |\n| 402 | Payment |\n`)).toEqual(["402"]);
    expect(documentedIdentifiers(`<ResponseField name="${"a".repeat(300)}_b">\n## run_id\n`)).toEqual(["run_id"]);
  });

  it("in a question are words with `_`, lower camelCase, joined with a capital or digit, and status codes", () => {
    expect(queryIdentifiers("why 402 for `user_id`, createClient() and X-API-Key on gpt-4o, not next.js or 2.0 or install?")).toEqual(["402", "user_id", "createclient", "x-api-key", "gpt-4o"]);
  });

  // Before (weight 1): the guide saying run_timeout twice in prose came before the endpoint whose
  // field it is. The table row's page was first already; it is lifted by the same factor.
  it("lift the page documenting the identifier the question names", () => {
    expect(ranked(site, "what does run_timeout do", { documentsWeight: 1 })).toEqual([
      ["/guides/runs", "", 0.621],
      ["/api/runs", "", 0.598],
    ]);
    expect(ranked(site, "what does run_timeout do")).toEqual([
      ["/api/runs", "", 0.658],
      ["/guides/runs", "", 0.621],
    ]);
    expect(ranked(site, "ANONYMIZED_TELEMETRY", { documentsWeight: 1 })).toEqual([
      ["/reference/environment", "Server", 0.326],
      ["/guides/privacy", "", 0.152],
    ]);
    expect(ranked(site, "ANONYMIZED_TELEMETRY")).toEqual([
      ["/reference/environment", "Server", 0.358],
      ["/guides/privacy", "", 0.152],
    ]);
  });

  it("leave a question naming no identifier as it was", () => {
    expect(ranked(site, "turn off usage statistics")).toEqual([
      ["/guides/privacy", "", 0.156],
      ["/reference/environment", "Server", 0.109],
    ]);
    expect(ranked(site, "turn off usage statistics", { documentsWeight: 1 })).toEqual(ranked(site, "turn off usage statistics"));
  });

  // The lift is within every bound: a search cut by bounds returns what scoring every page does
  // (at 1.5, past `namedOperationWeight`, which the bounds allowed for before).
  it("leave bound pruning exact", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      files[`/guides/g${i}.mdx`] = page(`Guide ${i}`, `Set max_retries to ${i} when the queue is busy.${" The queue retries.".repeat(i % 5)}`);
      if (i % 4 === 0) files[`/reference/r${i}.mdx`] = page(`Options ${i}`, "| Option | Meaning |", "|---|---|", "| `max_retries` | How often a job is retried |", "| `queue_name` | Which queue |");
    }
    for (const query of ["max_retries", "how do I set max_retries for the queue", "queue_name max_retries"]) {
      for (const pageSize of [1, 3, 10]) {
        const search = (boundPruning: boolean): unknown => {
          const index = new SearchIndex({ ranking: { boundPruning, documentsWeight: 1.5 }, cachedResults: 0 });
          index.sync(inlineSite(files));
          return index.search({ query, pageSize, canRead: () => true }).map((h) => [h.page.path, h.section.heading, h.score]);
        };
        expect(search(true)).toEqual(search(false));
      }
    }
  });
});
