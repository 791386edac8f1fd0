import { describe, expect, it } from "vitest";
import { siteTitle } from "../../src/engine/tool-names.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

describe("the site's title", () => {
  it("adds \"docs\" unless the name already ends with docs or documentation", () => {
    expect(["Nimbus Storage", "Dify Docs", "Spree Commerce documentation", "Acme doc", "Docs", " Acme "].map(siteTitle)).toEqual([
      "Nimbus Storage docs",
      "Dify Docs",
      "Spree Commerce documentation",
      "Acme doc",
      "Docs",
      "Acme docs",
    ]);
  });

  it("is what the server and its tools call a site named \"Dify Docs\" (not \"Dify Docs docs\")", async () => {
    const repo = makeRepo({ "docs.json": JSON.stringify({ name: "Dify Docs", navigation: { pages: ["index"] } }), "index.mdx": "---\ntitle: Home\n---\n\nHello.\n" });
    const runtime = await DocsRuntime.load({ root: repo.dir });
    const c = await connect(runtime);
    try {
      expect(c.client.getServerVersion()?.title).toBe("Dify Docs");
      expect((await c.client.listTools()).tools.map((t) => t.title)).toEqual(["Search Dify Docs", "Query the Dify Docs filesystem"]);
    } finally {
      await c.close();
      await runtime.close();
      repo.cleanup();
    }
  });
});
