import { describe, expect, it } from "vitest";
import { lines, load } from "./helpers.js";

/**
 * A `$ref` inside an example, a default, an enum or an `x-svc` value that points back up the
 * value holding it: the value reads as written up to that reference, the page and the rest of
 * the site are served, and `check` says where. (A loop in `x-mint.metadata` took every command
 * down with "Converting circular structure to JSON".) A schema that refers to itself stays a
 * recursive schema, also through a property named like a keyword (`default`).
 */
describe("a spec's data value whose $ref points back into it", () => {
  const op = "#/paths/~1open/get";
  const spec = {
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    components: {
      schemas: {
        Node: { type: "object", properties: { name: { type: "string" }, default: { $ref: "#/components/schemas/Node" } } },
      },
    },
    paths: {
      "/open": {
        get: {
          summary: "Open op",
          "x-mint": { metadata: { tag: "BETA", loop: { $ref: `${op}/x-mint/metadata` } } },
          parameters: [
            {
              name: "q",
              in: "query",
              schema: { type: "object", default: { loop: { $ref: `${op}/parameters/0/schema/default` } }, enum: [{ loop: { $ref: `${op}/parameters/0/schema/enum/0` } }] },
            },
          ],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Node" }, example: { name: "a", loop: { $ref: `${op}/responses/200/content/application~1json/example` } } } },
            },
          },
        },
      },
    },
  };

  it("reads as written up to the reference, which reads as \"(circular $ref)\", with a warning for each", async () => {
    const site = await load({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "api.json" }] } }, "api.json": spec, "index.mdx": "# Home\n" });
    expect(lines(site)).toEqual([
      'api.json warning: $ref at paths./open.get.x-mint.metadata.loop points back into the value that holds it: read as "(circular $ref)"',
      'api.json warning: $ref at paths./open.get.responses.200.content.application/json.example.loop points back into the value that holds it: read as "(circular $ref)"',
      'api.json warning: $ref at paths./open.get.parameters.0.schema.default.loop points back into the value that holds it: read as "(circular $ref)"',
      'api.json warning: $ref at paths./open.get.parameters.0.schema.enum.0.loop points back into the value that holds it: read as "(circular $ref)"',
    ]);
    const text = site.pages.get("/api-reference/open-op")?.file.text ?? "";
    expect(text.slice(0, text.indexOf("# Open op"))).toBe('---\ntitle: "Open op"\nopenapi: "api.json GET /open"\nplayground: "interactive"\ntag: "BETA"\nloop: "(circular $ref)"\n---\n\n');
    expect(text.split("\n").filter((l) => l.includes("circular") || l.startsWith("- `"))).toEqual([
      'loop: "(circular $ref)"',
      '- [`q`](#q) `object` (one of: {"loop":"(circular $ref)"}; default: {"loop":"(circular $ref)"})',
      // The recursive schema is read as it is everywhere: its fields, the recursion not followed.
      "- `name` `string`",
      "- `default` `object`",
      '  "loop": "(circular $ref)"',
    ]);
  });
});
