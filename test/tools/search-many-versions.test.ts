import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * A site that copies every page into many releases (crewAI's docs: 35 versions, each page in
 * all of them). Unfiltered, the copies fold into one result each; the ranked candidates used to
 * stop at 20, which 12 copies of two pages fill, so a search for three pages returned two. And
 * each result listed every other copy, eleven links before the next page.
 */
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
const VERSIONS = Array.from({ length: 12 }, (_, i) => `v1.${11 - i}`);
const files: Record<string, string> = {};
for (const v of VERSIONS) {
  files[`${v}/alpha.mdx`] = page("Alpha", "Webhooks webhooks webhooks: every webhook is signed.");
  files[`${v}/beta.mdx`] = page("Beta", "Webhooks are retried. The retry waits a minute between attempts and gives up after a day.");
  files[`${v}/gamma.mdx`] = page("Gamma", "Gamma pages mention a webhook once among many other words about queues, workers, storage, logs and metrics.");
}
const docs = {
  name: "Releases",
  navigation: { versions: VERSIONS.map((v, i) => ({ version: v, ...(i === 0 ? { default: true } : {}), groups: [{ group: "Guide", pages: [`${v}/alpha`, `${v}/beta`, `${v}/gamma`] }] })) },
};

let repo: ReturnType<typeof makeRepo>;
let client: Awaited<ReturnType<typeof connect>>;
beforeAll(async () => {
  repo = makeRepo({ "docs.json": JSON.stringify(docs), ...files });
  client = await connect(await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.example.com" }));
});
afterAll(async () => {
  await client.close();
  repo.cleanup();
});

describe("a page copied into many versions", () => {
  it("folds into one result each, and the page still holds as many pages as asked", async () => {
    const r = await client.call("search_releases", { query: "webhook", pageSize: 3 });
    const results = (r.structuredContent as { results: { path: string; otherVersions?: { path: string }[]; moreVersions?: number }[] }).results;
    expect(results.map((x) => [x.path, ...(x.otherVersions ?? []).map((o) => o.path), x.moreVersions])).toEqual([
      ["/v1.11/alpha", "/v1.0/alpha", "/v1.1/alpha", 9],
      ["/v1.11/beta", "/v1.0/beta", "/v1.1/beta", 9],
      ["/v1.11/gamma", "/v1.0/gamma", "/v1.1/gamma", 9],
    ]);
  });

  it("lists two other versions and counts the rest", async () => {
    const r = await client.call("search_releases", { query: "retry attempts", pageSize: 1 });
    expect((r.content as { text: string }[])[0]?.text).toBe(
      [
        "1. Beta",
        "   https://docs.example.com/v1.11/beta",
        "   file: /v1.11/beta.mdx · score 0.414 · version v1.11",
        "   also in v1.0: https://docs.example.com/v1.0/beta",
        "   also in v1.1: https://docs.example.com/v1.1/beta",
        "   also in 9 more versions (search with version to get one)",
        "   Webhooks are retried. The retry waits a minute between attempts and gives up after a day.",
      ].join("\n"),
    );
  });

  it("with a version filter, one copy and nothing counted", async () => {
    const r = await client.call("search_releases", { query: "retry attempts", version: "v1.3" });
    const results = (r.structuredContent as { results: Record<string, unknown>[] }).results;
    expect(results.map((x) => [x.path, x.otherVersions, x.moreVersions])).toEqual([["/v1.3/beta", undefined, undefined]]);
  });
});
