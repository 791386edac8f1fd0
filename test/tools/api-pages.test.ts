import { describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { fixture } from "../helpers/paths.js";

/** API reference pages generated from an OpenAPI spec, through the MCP client. */
describe("generated API pages", () => {
  it("are found by search through their operation summaries, readable as files, and the spec answers jq", async () => {
    const runtime = await DocsRuntime.load({ root: fixture("api-demo"), baseUrl: "https://docs.parcel.example" });
    const c = await connect(runtime);
    for (const [query, path] of [
      ["track a parcel", "/api-reference/parcels/track-a-parcel"],
      ["create shipping label", "/api-reference/parcels/create-a-shipping-label"],
    ] as const) {
      const r = (await c.call("search_parcel_api", { query, pageSize: 1 })).structuredContent as { results: { path: string; title: string }[] };
      expect(r.results[0]?.path).toBe(path);
    }
    const page = c.text(await c.call("query_docs_filesystem_parcel_api", { command: "head -4 /api-reference/parcels/track-a-parcel.mdx" }));
    expect(page).toBe('---\ntitle: "Track a parcel"\ndescription: "Returns the current location and delivery estimate of a parcel."\nopenapi: "api/openapi.yaml GET /parcels/{parcelId}"\n');
    const paths = c.text(await c.call("query_docs_filesystem_parcel_api", { command: "yq -o json '.paths | keys' /api/openapi.yaml" }));
    expect(paths).toBe('[\n  "/parcels",\n  "/parcels/{parcelId}"\n]\n');
    await c.close();
  });
});
