import { describe, expect, it } from "vitest";
import { frontMatterSpecFile, type SpecFileLookup } from "../../src/config/openapi/front-matter-spec.js";

/** A repository holding `files`: the lookup `frontMatterSpecFile` asks. */
const repo = (files: readonly string[]): SpecFileLookup => ({ exists: (rel) => files.includes(rel), specFiles: () => files });

describe("the spec file a front matter openapi names", () => {
  it("a name without its extension is the spec file of that name anywhere (firecrawl writes `v1-openapi GET /crawl`)", () => {
    const files = ["api-reference/v1-openapi.json", "api-reference/v0-openapi.json", "docs.json"];
    expect(frontMatterSpecFile("v1-openapi", "api-reference/endpoint/crawl.mdx", repo(files))).toBe("api-reference/v1-openapi.json");
    expect(frontMatterSpecFile("/v1-openapi", "api-reference/endpoint/crawl.mdx", repo(files))).toBe("api-reference/v1-openapi.json");
    expect(frontMatterSpecFile("api-reference/v0-openapi", "x.mdx", repo(files))).toBe("api-reference/v0-openapi.json");
  });

  it("only one file may answer, and a name written with its extension is not taken for a stem", () => {
    expect(frontMatterSpecFile("openapi", "a.mdx", repo(["v1/openapi.json", "v2/openapi.yaml"]))).toBeUndefined();
    expect(frontMatterSpecFile("openapi.json", "a.mdx", repo(["api/openapi.json.yaml"]))).toBeUndefined();
    expect(frontMatterSpecFile("v1-open", "a.mdx", repo(["api/v1-openapi.json"]))).toBeUndefined();
  });

  it("a file found by its full name still comes first", () => {
    expect(frontMatterSpecFile("spec", "a.mdx", repo(["spec", "api/spec.json"]))).toBe("spec");
    expect(frontMatterSpecFile("/analytics.openapi.json", "guides/a.mdx", repo(["api/analytics.openapi.json"]))).toBe("api/analytics.openapi.json");
  });
});
