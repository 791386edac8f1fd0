import { describe, expect, it } from "vitest";
import { generated, lines, load } from "./helpers.js";

/** A spec with one operation whose 200 response is `schema`. */
function specWith(schema: Record<string, unknown>): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "A", version: "1" },
    paths: { "/a": { get: { summary: "Get A", responses: { "200": { description: "OK", content: { "application/json": { schema } } } } } } },
  };
}

/** docs.repository.md: ignored files are neither served nor indexed, whoever names them. */
describe("files the ignore rules exclude are not read as API specs", () => {
  it("a docs.json spec entry naming an ignored file is an error, as for a missing spec, and generates nothing", async () => {
    const site = await load({
      ".svcignore": "drafts/\n",
      "docs.json": { navigation: { groups: [{ group: "Intro", pages: ["index"] }, { group: "Drafts", openapi: "drafts/spec.yaml" }] } },
      "index.mdx": "# Home\n",
      "drafts/spec.yaml": specWith({ type: "object", properties: { IGNSPEC: { type: "string" } } }),
    });
    expect(lines(site)).toEqual(["docs.json navigation.groups[1].openapi: API spec drafts/spec.yaml: the ignore rules exclude it"]);
    expect(generated(site)).toEqual([]);
    expect([...site.files.keys()]).toEqual(["/index.mdx"]);
  });

  it("a $ref into an ignored file or a dot-folder is an unresolved $ref: the file's content reaches no page", async () => {
    const site = await load({
      ".svcignore": "drafts/\n",
      "docs.json": { navigation: { groups: [{ group: "API", openapi: "api/a.yaml" }] } },
      "api/a.yaml": specWith({
        type: "object",
        properties: { secret: { $ref: "../drafts/schema.yaml#/Secret" }, token: { $ref: "../.private/s.yaml#/Tok" } },
      }),
      "drafts/schema.yaml": { Secret: { type: "object", properties: { IGNSECRET: { type: "string" } } } },
      ".private/s.yaml": { Tok: { type: "object", properties: { DOTSECRET: { type: "string" } } } },
    });
    const path = "paths./a.get.responses.200.content.application/json.schema.properties";
    expect(lines(site)).toEqual([
      `api/a.yaml:20:23 warning: unresolved $ref "../drafts/schema.yaml#/Secret" (at ${path}.secret): $ref to drafts/schema.yaml: the ignore rules exclude it; left as is`,
      `api/a.yaml:23:23 warning: unresolved $ref "../.private/s.yaml#/Tok" (at ${path}.token): $ref to .private/s.yaml: the ignore rules exclude it; left as is`,
    ]);
    expect(generated(site)).toEqual(["/api-reference/get-a"]);
    const text = site.pages.get("/api-reference/get-a")?.file.text ?? "";
    expect(text.slice(text.indexOf("## Responses"), text.indexOf("## Examples"))).toBe("## Responses\n\n### 200: OK\n\n`application/json`\n\n- `object`\n\n");
    expect(["IGNSECRET", "DOTSECRET"].filter((name) => text.includes(name))).toEqual([]);
  });

  it("a docs.json $ref into an ignored file is refused like a missing file", async () => {
    const site = await load({
      ".svcignore": "drafts/\n",
      "docs.json": { navigation: { groups: [{ group: "Intro", pages: ["index"] }, { $ref: "drafts/group.json" }] } },
      "index.mdx": "# Home\n",
      "drafts/group.json": { group: "IGNGROUP", pages: ["index"] },
    });
    expect(lines(site)).toEqual(['docs.json:11:17 navigation.groups[1].$ref: cannot read "drafts/group.json": the ignore rules exclude it']);
    expect(JSON.stringify(site.config).includes("IGNGROUP")).toBe(false);
  });
});
