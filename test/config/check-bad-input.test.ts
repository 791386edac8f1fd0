import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "./temp-repo.js";

/**
 * `check` on input written wrong, whole output: each problem said once, with its position, and
 * nothing said that contradicts another finding.
 */
describe("svc-mcp check: an element left out", () => {
  it("a group without a title gets the error only, not also a warning that it is shown empty", async () => {
    const root = tempRepo({
      "docs.json": '{"name": "D", "navigation": {"groups": [{"foo": 1}, {"group": "ok", "pages": ["index", {"icon": "x"}]}]}}',
      "index.mdx": "# Home\n",
    });
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 1,
      stdout: ['docs.json:1:41 navigation.groups[0]: "group" is required', 'docs.json:1:88 navigation.groups[1].pages[1]: "group" is required', "checked docs.json and 1 page: 2 errors, 0 warnings", ""].join("\n"),
      stderr: "",
    });
  });
});
