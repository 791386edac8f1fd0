/**
 * Adversary round 49 N3: `svc-mcp nav` named a group's first spec for every operation listed
 * under it, so an operation found only in the group's second OpenAPI file was shown "in" the
 * first: the entry's and the generated pages' spec is the file the operation is read from.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { makeRepo } from "../helpers/repo.js";

const spec = (title: string, path: string, summary: string): string =>
  JSON.stringify({ openapi: "3.1.0", info: { title, version: "1" }, paths: { [path]: { get: { summary, responses: { "200": { description: "Done" } } } } } });

describe("svc-mcp nav with two OpenAPI files in a group", () => {
  let repo: ReturnType<typeof makeRepo>;
  beforeAll(() => {
    repo = makeRepo({
      "docs.json": JSON.stringify({
        name: "Acme",
        navigation: {
          groups: [
            { group: "Listed", openapi: ["api/first.json", "api/second.json"], pages: ["api/first.json GET /a", "api/second.json GET /b"] },
            { group: "Whole", openapi: ["api/third.json", "api/fourth.json"] },
          ],
        },
      }),
      "api/first.json": spec("First", "/a", "Get A"),
      "api/second.json": spec("Second", "/b", "Get B"),
      "api/third.json": spec("Third", "/c", "Get C"),
      "api/fourth.json": spec("Fourth", "/d", "Get D"),
    });
  });
  afterAll(() => repo.cleanup());

  it("names the spec each operation is read from", async () => {
    const out = await runCli(["nav", "--dir", repo.dir]);
    expect(out).toEqual({
      code: 0,
      stderr: "",
      stdout: [
        "Acme",
        "root: groups",
        "eyebrows: theme default",
        "drilldown: theme default",
        "",
        "group Listed  (openapi api/first.json, api/second.json)",
        "  Get A  /api-reference/get-a  [api/first.json GET /a in api/first.json]",
        "  Get B  /api-reference/get-b  [api/second.json GET /b in api/second.json]",
        "group Whole  (openapi api/third.json, api/fourth.json)",
        "  Get C  /api-reference/get-c  [operation in api/third.json]",
        "  Get D  /api-reference/get-d  [operation in api/fourth.json]",
        "",
      ].join("\n"),
    });
  });
});
