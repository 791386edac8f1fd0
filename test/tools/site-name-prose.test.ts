import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * A site whose name already ends with its documentation word (spree's "Spree Commerce
 * documentation", "Dify Docs") is named in prose by its product, so the instructions, the tools'
 * descriptions and the generated skill never read "Documentation for Spree Commerce
 * documentation" or "Search the Dify Docs documentation". Titles keep the name as written.
 */
const site = (name: string) => ({
  "docs.json": JSON.stringify({ name, navigation: { groups: [{ group: "Start", pages: ["index"] }] } }),
  "index.mdx": "---\ntitle: Welcome\n---\n\nHello.\n",
});

describe.each([
  ["Spree Commerce documentation", "Spree Commerce", "spree_commerce"],
  ["Dify Docs", "Dify", "dify"],
  ["Nimbus Storage", "Nimbus Storage", "nimbus_storage"],
])("a site named %j", (name, product, slug) => {
  let repo: { dir: string; cleanup: () => void };
  let runtime: DocsRuntime;
  let c: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    repo = makeRepo(site(name));
    runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.example.test" });
    c = await connect(runtime);
  });
  afterAll(async () => {
    await c.close();
    await runtime.close();
    repo.cleanup();
  });

  it("is named by its product in the instructions, the tool descriptions and the generated skill", async () => {
    expect(c.client.getInstructions()).toBe(
      `Documentation for ${product}. It covers: Start. Use search_${slug} to find pages for a question, then query_docs_filesystem_${slug} to read them (pages are files: /a/b.mdx is the page at https://docs.example.test/a/b). Cite page links in answers.`,
    );
    const tools = (await c.client.listTools()).tools;
    const first = (toolName: string) => tools.find((t) => t.name === toolName)?.description?.split(". ")[0];
    expect([first(`search_${slug}`), first(`query_docs_filesystem_${slug}`)]).toEqual([
      `Search the ${product} documentation`,
      `Read and navigate the ${product} documentation as a read-only filesystem with shell commands`,
    ]);
    const skill = (await c.client.listResources()).resources.find((r) => r.uri === `docs://${slug}/skill.md`);
    expect(skill?.description).toBe(`How to use the ${product} documentation tools (generated)`);
    const text = (await c.client.readResource({ uri: `docs://${slug}/skill.md` })).contents[0];
    expect((text as { text: string }).text.split("\n").slice(0, 6)).toEqual([
      "---",
      `name: ${slug}`,
      `description: Answer questions about ${product} from its documentation, using the search_${slug} and query_docs_filesystem_${slug} tools.`,
      "---",
      "",
      `# ${product} documentation`,
    ]);
  });
});
