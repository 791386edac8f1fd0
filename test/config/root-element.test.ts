import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "./temp-repo.js";

// `check` judged the navigation under the first root key in precedence even when the schema had
// refused it as a whole: with `"versions": 5` beside a good `"groups"`, it said "versions" was
// used and never checked the groups, while the server (and `nav`) read the groups.

const docsJson = `{
  "name": "R",
  "navigation": {
    "groups": [{"group": "Guides", "pages": ["index", "missing/page"]}],
    "versions": 5
  }
}
`;

describe("a root element the schema refuses beside one it reads", () => {
  it("check names the root the server uses, and reports that root's problems", async () => {
    const root = tempRepo({ "docs.json": docsJson, "index.mdx": "# Home\n" });
    const run = await runCli(["check", "--dir", root]);
    expect(run).toEqual({
      code: 1,
      stdout: [
        'docs.json:3:17 navigation: warning: has several root navigation elements: "groups" is used, "versions" is ignored',
        'docs.json:4:55 navigation.groups[0].pages[1]: warning: page "missing/page" not found: no missing/page.mdx or missing/page.md',
        "docs.json:5:17 navigation.versions: must be an array; got 5",
        "checked docs.json and 1 page: 1 error, 2 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
    const nav = await runCli(["nav", "--dir", root]);
    expect(nav.stdout.split("\n").slice(0, 2)).toEqual(["R", "root: groups"]);
  });

  it("when every root is refused, the first is still the one named (no configuration is read)", async () => {
    const root = tempRepo({ "docs.json": { navigation: { versions: 5, groups: "x" } }, "index.mdx": "# Home\n" });
    const run = await runCli(["check", "--dir", root]);
    expect(run.stdout.split("\n")[0]).toBe('docs.json:2:17 navigation: warning: has several root navigation elements: "versions" is used, "groups" is ignored');
    expect(run.code).toBe(1);
  });

  it("the API reference reads the same root: a spec on one of the groups generates its pages", async () => {
    const spec = { openapi: "3.0.3", info: { title: "T", version: "1" }, paths: { "/users": { get: { summary: "List users", responses: { "200": { description: "ok" } } } } } };
    const root = tempRepo({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "api/openapi.json" }], versions: 5 } }, "api/openapi.json": spec, "index.mdx": "# Home\n" });
    const run = await runCli(["check", "--dir", root]);
    expect(run.stdout.split("\n").at(-2)).toBe("checked docs.json and 1 page (+1 generated from API specs): 1 error, 2 warnings");
  });
});
