import { writeFileSync } from "node:fs";
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

describe("svc-mcp check: seo.metatags.canonical", () => {
  const site = (canonical: unknown) =>
    tempRepo({ "docs.json": JSON.stringify({ name: "C", seo: { metatags: { canonical } }, navigation: { pages: ["index"] } }), "index.mdx": "---\ntitle: Home\n---\nAbout buckets.\n" });

  it("a value that is not an http or https URL is said, and never used to make links", async () => {
    for (const canonical of ["javascript:alert(1)", "not a url", ""]) {
      const root = site(canonical);
      expect(await runCli(["check", "--dir", root])).toEqual({
        code: 0,
        stdout: [
          `docs.json:1:44 seo.metatags.canonical: warning: must be an http or https URL to make links; got ${JSON.stringify(canonical)}: not used, links in search results are made from --base-url, else http://localhost:3000`,
          "checked docs.json and 1 page: 0 errors, 1 warning",
          "",
        ].join("\n"),
        stderr: "",
      });
      const search = await runCli(["search", "buckets", "--dir", root, "--json"]);
      expect((JSON.parse(search.stdout) as { url: string }[]).map((r) => r.url)).toEqual(["http://localhost:3000/"]);
    }
  });

  it("a value that is not a string is an error", async () => {
    expect(await runCli(["check", "--dir", site(7)])).toEqual({
      code: 1,
      stdout: [
        "docs.json:1:44 seo.metatags.canonical: must be a string; got 7: not used, links in search results are made from --base-url, else http://localhost:3000",
        "checked docs.json and 1 page: 1 error, 0 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("an https URL is used, with no finding", async () => {
    const root = site("https://docs.example.com");
    expect((await runCli(["check", "--dir", root])).stdout).toBe("checked docs.json and 1 page: no problems\n");
    const search = await runCli(["search", "buckets", "--dir", root, "--json"]);
    expect((JSON.parse(search.stdout) as { url: string }[]).map((r) => r.url)).toEqual(["https://docs.example.com/"]);
  });
});

describe("svc-mcp check: file names a repository may hold", () => {
  it("a name holding a control character is skipped, said escaped (one finding a line, nothing sent to the terminal), and a name that is not UTF-8 is said to be skipped", async () => {
    const root = tempRepo({
      "docs.json": { name: "N", navigation: { pages: ["index"] } },
      "index.mdx": "# Home\n",
      "x\u001b[2K\u001b[1Aclean.mdx": "---\ntitle: ok\n---\n<Foo/>\n",
      "we\nird.mdx": "---\ntitle: [\n---\n",
    });
    writeFileSync(Buffer.concat([Buffer.from(`${root}/bad`), Buffer.from([0xff]), Buffer.from(".mdx")]), "---\ntitle: Bad name\n---\nzyxxyz\n");
    const run = await runCli(["check", "--dir", root]);
    expect({ ...run, stdout: run.stdout.split("\n").filter((l) => !l.includes("not in the navigation")) }).toEqual({
      code: 0,
      stdout: [
        "bad\uFFFD.mdx warning: skipped: the file name is not valid UTF-8",
        "we\\nird.mdx warning: skipped: the name holds a control character (U+000A), which svc-mcp does not serve: rename it",
        "x\\x1b[2K\\x1b[1Aclean.mdx warning: skipped: the name holds a control character (U+001B), which svc-mcp does not serve: rename it",
        "checked docs.json and 1 page: 0 errors, 3 warnings",
        "",
      ],
      stderr: "",
    });
    const json = JSON.parse((await runCli(["check", "--dir", root, "--json"])).stdout) as { diagnostics: { file: string }[] };
    expect(json.diagnostics.map((d) => d.file).filter((f) => f !== "docs.json")).toEqual(["bad\uFFFD.mdx", "we\nird.mdx", "x\u001b[2K\u001b[1Aclean.mdx"]);
  });
});

describe("svc-mcp nav and search: names a spec may hold", () => {
  it("an operation's summary with a line break and an escape sequence is printed escaped, one line a node, nothing sent to the terminal", async () => {
    const spec = { openapi: "3.0.3", info: { title: "T", version: "1" }, paths: { "/a": { get: { summary: "List\nthings \u001b[31mred", responses: { "200": { description: "ok" } } } } } };
    const root = tempRepo({ "docs.json": { name: "S", navigation: { groups: [{ group: "API", openapi: "api.json", pages: ["index"] }] } }, "index.mdx": "# Home\n", "api.json": spec });
    expect(await runCli(["nav", "--dir", root])).toEqual({
      code: 0,
      stdout: [
        "S",
        "root: groups",
        "eyebrows: theme default",
        "drilldown: theme default",
        "",
        "group API  (openapi api.json)",
        "  Home  /index",
        // The page path drops the controls (slugify): only the title, the summary as written, holds them.
        "  List\\nthings \\x1b[31mred  /api-reference/list-things-[31mred  [operation in api.json]",
        "",
      ].join("\n"),
      stderr: "",
    });
    const search = await runCli(["search", "things", "--dir", root]);
    expect(search.stdout.includes("\u001b")).toBe(false);
    // The page's heading is the summary on one line (a spec value never breaks a heading); the title keeps it as written.
    expect(search.stdout.split("\n").slice(0, 2)).toEqual(["1. List", "things \\x1b[31mred \u203a List things \\x1b[31mred"]);
  });
});

describe("svc-mcp check: a value of the wrong type", () => {
  it("is said once: api.asyncapi.source: [] is not also too short", async () => {
    const root = tempRepo({ "docs.json": '{"navigation": {"pages": ["index"]}, "api": {"asyncapi": {"source": []}}}', "index.mdx": "# Home\n" });
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 1,
      stdout: ["docs.json:1:69 api.asyncapi.source: must be a string; got an array", "checked docs.json and 1 page: 1 error, 0 warnings", ""].join("\n"),
      stderr: "",
    });
  });

  it("api.mdx.server (mint.json's api.baseUrl) that is not a URL string or a list of them is said at its own key, and the rest of api still serves", async () => {
    const spec = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {description: ok}\n";
    const docs = tempRepo({ "docs.json": '{"navigation": {"pages": ["index", "GET /a"]}, "api": {"openapi": "api.yaml", "mdx": {"server": 7}}}', "index.mdx": "# Home\n", "api.yaml": spec });
    expect(await runCli(["check", "--dir", docs])).toEqual({
      code: 1,
      stdout: ["docs.json:1:97 api.mdx.server: must be a string or an array; got 7", "checked docs.json and 1 page (+1 generated from API specs): 1 error, 0 warnings", ""].join("\n"),
      stderr: "",
    });
    const mint = tempRepo({ "mint.json": '{"name": "M", "api": {"baseUrl": ["https://api.example.com", 7]}, "navigation": [{"group": "G", "pages": ["index"]}]}', "index.mdx": "# Home\n" });
    expect(await runCli(["check", "--dir", mint])).toEqual({
      code: 1,
      stdout: [
        "mint.json warning: docs.json not found: mint.json, the format before docs.json, is read as the docs.json it stands for (`npx mint upgrade` writes that docs.json)",
        "mint.json:1:62 api.baseUrl[1]: must be a string; got 7",
        "checked mint.json and 1 page: 1 error, 1 warning",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});
