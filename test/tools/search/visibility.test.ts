import { describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { agentView } from "../../../src/engine/use-cases/agent-view.js";
import { readablePageAt } from "../../../src/engine/use-cases/preview-page.js";
import { ANONYMOUS } from "../../../src/vfs/access.js";
import { localContext } from "../../../src/vfs/request-context.js";
import { connect } from "../../helpers/mcp.js";
import { makeRepo } from "../../helpers/repo.js";

/**
 * `<Visibility for="humans|agents">` (issue 24): what agents get of a page (search's index, its
 * snippets, the agent panel's sections) leaves out `for="humans"` content and keeps
 * `for="agents"` content without its tags; `cat` prints the file as written.
 */
const PAGE = [
  "---",
  "title: Deploy",
  "---",
  "Deploy the worker.",
  "",
  '<Visibility for="humans">',
  "Click the **blue** zeppelin button in the dashboard.",
  "",
  "## Screenshots",
  "",
  "```bash",
  "open-dashboard --zeppelin",
  "```",
  "</Visibility>",
  "",
  '<Visibility for="agents">',
  "## Deploy from a script",
  "",
  "Call `POST /v1/deploy` with a walrus token.",
  "</Visibility>",
  "",
  '<Tabs>\n  <Tab title="CLI">\n    <Visibility for="agents">\n      ## Flags\n      Pass --walrus to skip prompts.\n    </Visibility>\n    <Visibility for="humans">\n      Press enter at each zeppelin prompt.\n    </Visibility>\n  </Tab>\n</Tabs>',
  "",
  'See <Visibility for="humans">the zeppelin picture</Visibility><Visibility for="agents">the walrus JSON</Visibility> below.',
  "",
].join("\n");
const FILES = { "docs.json": JSON.stringify({ name: "Acme", navigation: { pages: ["deploy"] } }), "deploy.mdx": PAGE };

async function open() {
  const repo = makeRepo(FILES);
  const runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.acme.test" });
  const client = await connect(runtime, ANONYMOUS);
  return {
    runtime,
    search: async (query: string) => (await client.call("search_acme", { query, pageSize: 20 })).structuredContent as { results: { path: string; section: string; snippet: string }[] },
    shell: async (command: string) => client.text(await client.call("query_docs_filesystem_acme", { command })),
    close: async () => {
      await client.close();
      await runtime.close();
      repo.cleanup();
    },
  };
}

describe("<Visibility> in what agents get", () => {
  it("indexes agents' content without its tags and none of people's: hits and snippets", async () => {
    const site = await open();
    try {
      const hits = (query: string) => site.search(query).then((r) => r.results.map((x) => [x.path, x.section, x.snippet]));
      expect(await hits("walrus token")).toEqual([["/deploy", "Deploy from a script", "Call POST /v1/deploy with a walrus token. CLI"]]);
      expect(await hits("skip prompts")).toEqual([["/deploy", "Flags", "Pass --walrus to skip prompts. See the walrus JSON below."]]);
      // People's words, code and heading are in no section.
      expect(await hits("zeppelin")).toEqual([]);
      expect(await hits("screenshots")).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it("shows the agent panel the sections agents get, and cat the file as written", async () => {
    const site = await open();
    try {
      const context = { request: localContext(ANONYMOUS), runtime: site.runtime };
      const view = await agentView(context, readablePageAt(context, "/deploy") ?? expect.fail("no page"));
      expect(view.sections).toEqual([
        { heading: "", parents: [], anchor: "", text: "Deploy the worker." },
        // The tab's title is words of the section it stands in, as on any page.
        { heading: "Deploy from a script", parents: [], anchor: "deploy-from-a-script", text: "Call POST /v1/deploy with a walrus token.\n\nCLI" },
        { heading: "Flags", parents: [], anchor: "flags", text: "Pass --walrus to skip prompts.\n\nSee the walrus JSON below." },
      ]);
      expect(view.cat.stdout).toBe(PAGE);
      expect(await site.shell("cat /deploy.mdx")).toBe(PAGE);
    } finally {
      await site.close();
    }
  });
});
