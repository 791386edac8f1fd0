import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { connect } from "../../helpers/mcp.js";
import { makeRepo } from "../../helpers/repo.js";

/**
 * A reader in trouble writes what happened ("my key leaked", "a stuck run"), and the page that
 * helps names the task ("Revoke a key", "Timeouts"): no word in common (issue 24, sixty-fourth
 * round, `paraphrases.ts`). Through the SDK client, whole ranked lists.
 */
const page = (title: string, ...lines: string[]): string => ["---", `title: ${title}`, "---", "", ...lines].join("\n");

const docs = {
  name: "Keys Demo",
  navigation: { groups: [{ group: "Guides", pages: ["authentication", "keys/revoke", "runs", "runs/timeouts", "errors"] }] },
};

let repo: ReturnType<typeof makeRepo>;
let runtime: DocsRuntime;
let mcp: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  repo = makeRepo({
    "docs.json": JSON.stringify(docs, null, 2),
    "authentication.mdx": page("Authentication", "Send your API key in the Authorization header. Each key belongs to a project, and a project may have several keys."),
    "keys/revoke.mdx": page("Revoke a key", "Revoke it from the dashboard: every request made with it fails from then on. Then rotate the others."),
    "runs.mdx": page("Runs", "A run executes your job on a worker. Each run has logs and a status you can watch in the dashboard."),
    "runs/timeouts.mdx": page("Timeouts", "Set a timeout on a job: a run still going when it is reached is stopped and marked failed."),
    "errors.mdx": page("Errors", "A request with a wrong API key gets a 401. A job that fails shows its error in the run's logs."),
  });
  runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.example.com" });
  mcp = await connect(runtime);
});
afterAll(async () => {
  await mcp.close();
  repo.cleanup();
});

async function paths(query: string): Promise<string[]> {
  const r = await mcp.call("search_keys_demo", { query });
  expect(r.isError).toBeFalsy();
  return (r.structuredContent as { results: { path: string }[] }).results.map((x) => x.path);
}

describe("words of a reader in trouble, through the MCP client", () => {
  // Before: "leaked" matched nothing; the pages saying "API key" came first, the revoke page third.
  it("a leaked key finds the page on revoking one", async () => {
    expect(await paths("my API key leaked, make it stop working")).toEqual(["/keys/revoke", "/authentication", "/errors", "/runs/timeouts", "/runs"]);
  });

  // Before: "stuck" matched nothing; the runs overview came first, the timeouts page second.
  it("a stuck run finds the page on timeouts", async () => {
    expect(await paths("my job run is stuck")).toEqual(["/runs/timeouts", "/runs", "/errors"]);
  });
});
