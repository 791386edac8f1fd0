import { describe, expect, it } from "vitest";
import { loadSite } from "../../src/vfs/load-site.js";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../config/temp-repo.js";

// One bad entry in an `openapi` array dropped every spec beside it and was reported twice (at
// `openapi` and at `openapi[1]`); in `api.openapi` it also hid the good entries' own problems
// (`nope.json: file not found`). A bad entry now costs only itself, as in a page list.

const SPEC = { openapi: "3.0.3", info: { title: "T", version: "1" }, paths: { "/users": { get: { summary: "List users", responses: { "200": { description: "ok" } } } } } };

describe("an openapi array with a bad entry", () => {
  it("on a group: one finding at the entry; the good spec beside it is loaded and its pages generated", async () => {
    const root = tempRepo({
      "docs.json": '{"navigation": {"groups": [{"group": "G", "pages": ["index"]}, {"group": "API", "openapi": ["api/openapi.json", 5]}]}}\n',
      "api/openapi.json": SPEC,
      "index.mdx": "# Home\n",
    });
    const run = await runCli(["check", "--dir", root]);
    expect(run).toEqual({
      code: 1,
      stdout: 'docs.json:1:113 navigation.groups[1].openapi[1]: must be a string or an object; got 5\nchecked docs.json and 1 page (+1 generated from API specs): 1 error, 0 warnings\n',
      stderr: "",
    });
    const loaded = await loadSite(root);
    expect([...loaded.site.config.navPages.keys()]).toEqual(["/index", "/api-reference/list-users"]);
  });

  it("in api.openapi: the good entries are loaded and checked (a missing file is reported at its own index)", async () => {
    const root = tempRepo({
      "docs.json": '{"api": {"openapi": ["nope.json", 5, "api/openapi.json"]}, "navigation": {"groups": [{"group": "G", "pages": ["index", "api/openapi.json GET /users"]}]}}\n',
      "api/openapi.json": SPEC,
      "index.mdx": "# Home\n",
    });
    const run = await runCli(["check", "--dir", root]);
    expect(run).toEqual({
      code: 1,
      stdout: [
        "docs.json:1:22 api.openapi[0]: API spec nope.json: file not found",
        "docs.json:1:35 api.openapi[1]: must be a string or an object; got 5",
        "checked docs.json and 1 page (+1 generated from API specs): 2 errors, 0 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});
