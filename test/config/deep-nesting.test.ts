import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { LIMITS } from "../../src/limits.js";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "./temp-repo.js";

// Valid JSON nested a few thousand levels deep overflowed the stack of the recursive parser and
// walkers: `check` and `serve` crashed at start-up with a RangeError. Nesting has a limit: a value
// that opens a level too many is checked as JSON without recursing, not built (null in its place)
// and said as a warning with its position; a deep value under a key nobody reads no longer makes
// the whole docs.json unreadable, as `JSON.parse` and the hosted platform read it (issue 25).

/** `{"x": [[[ ... ]]]}` on one line: the first level too many opens at column 7 + the limit. */
const deepDocsJson = (levels: number) => `{"x": ${"[".repeat(levels)}${"]".repeat(levels)}, "navigation": {"groups": [{"group": "G", "pages": ["index"]}]}}\n`;
const MAX = LIMITS.config.maxJsonDepth;
const TOO_DEEP = (column: number, path: string) => `docs.json:1:${column} ${path}: warning: nested deeper than ${MAX} levels: not read (null in its place; the rest of the file is read)`;

describe("docs.json nested deeper than the limit", () => {
  it("a value nested too deep under a key the site does not use: a warning at its first level too many, null in its place, the rest read; exit 0", async () => {
    const root = tempRepo({ "docs.json": deepDocsJson(5000), "index.mdx": "# Home\n" });
    const run = await runCli(["check", "--dir", root]);
    expect(run).toEqual({ code: 0, stdout: `${TOO_DEEP(7 + MAX - 1, `x${"[0]".repeat(MAX - 1)}`)}\nchecked docs.json and 1 page: 0 errors, 1 warning\n`, stderr: "" });
  });

  it("too deep inside the navigation: the warning and the error of what is left in its place", async () => {
    const root = tempRepo({ "docs.json": `{"navigation": {"groups": [{"group": "G", "pages": ["index", ${"[".repeat(5000)}${"]".repeat(5000)}]}]}}\n`, "index.mdx": "# Home\n" });
    const run = await runCli(["check", "--dir", root]);
    expect(run).toEqual({
      code: 1,
      stdout: [
        "docs.json:1:62 navigation.groups[0].pages[1]: must be a string or an object; got an array",
        TOO_DEEP(62 + MAX - 5, `navigation.groups[0].pages[1]${"[0]".repeat(MAX - 5)}`),
        "checked docs.json and 1 page: 1 error, 1 warning",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("what is too deep is still checked as JSON, with the parser's own errors and positions", async () => {
    const cases = [
      [`${"[".repeat(5000)}1,]${"]".repeat(4999)}`, `docs.json:1:${6 + 5000 + 2} invalid JSON: trailing comma before "]"`],
      [`${"[".repeat(300)}{"a" 1}${"]".repeat(300)}`, `docs.json:1:${6 + 300 + 6} invalid JSON: unexpected "1" (expected ":" after a property name)`],
      [`${"[".repeat(300)}{"a": 1,}${"]".repeat(300)}`, `docs.json:1:${6 + 300 + 8} invalid JSON: trailing comma before "}"`],
      [`${"[".repeat(300)}1 2${"]".repeat(300)}`, `docs.json:1:${6 + 300 + 3} invalid JSON: unexpected "2" (expected "," or "]" after an array element)`],
      [`${"[".repeat(300)}tru${"]".repeat(300)}`, `docs.json:1:${6 + 300 + 1} invalid JSON: unexpected "t" (expected a value)`],
      [`${"[".repeat(300)}`, `docs.json:1:${6 + 300 + 1} invalid JSON: unexpected "," (expected a value)`],
    ];
    const runs = [];
    for (const [x] of cases) {
      const root = tempRepo({ "docs.json": `{"x": ${x as string}, "navigation": {"groups": [{"group": "G", "pages": ["index"]}]}}\n`, "index.mdx": "# Home\n" });
      runs.push((await runCli(["check", "--dir", root])).stdout.split("\n")[0]);
    }
    expect(runs).toEqual(cases.map(([, line]) => line));
  });

  it("valid JSON of every kind under the level too many is skipped whole: the rest of the object is read", async () => {
    const deep = `${"[".repeat(300)}{"a": {"b": [1, "s\\n\\u0041", true, false, null, -1.5e3, {}, []]}, "c": 2}${"]".repeat(300)}`;
    const root = tempRepo({ "docs.json": `{"x": ${deep}, "name": "Deep", "navigation": {"groups": [{"group": "G", "pages": ["index"]}]}}\n`, "index.mdx": "# Home\n" });
    const runtime = await DocsRuntime.load({ root, log: () => {} });
    try {
      expect([runtime.site.config.name, runtime.site.diagnostics.map(formatDiagnostic)]).toEqual(["Deep", [TOO_DEEP(7 + MAX - 1, `x${"[0]".repeat(MAX - 1)}`)]]);
    } finally {
      await runtime.close();
    }
  });

  it("at the limit it is read as usual", async () => {
    const root = tempRepo({ "docs.json": deepDocsJson(MAX - 1), "index.mdx": "# Home\n" });
    const run = await runCli(["check", "--dir", root]);
    expect(run).toEqual({ code: 0, stdout: "checked docs.json and 1 page: no problems\n", stderr: "" });
  });

  it("navigation nested to the limit (62 groups inside one another) is validated, flattened and listed", async () => {
    // The outermost group is at depth 4 (document, navigation, groups, the group); each nested
    // group adds two (its pages array, the group), and the innermost pages array must fit.
    const levels = (MAX - 4) / 2;
    let group: object = { group: `g${levels}`, pages: ["index"] };
    for (let i = levels - 1; i >= 1; i--) group = { group: `g${i}`, pages: [group] };
    const root = tempRepo({ "docs.json": { navigation: { groups: [group] } }, "index.mdx": "# Home\n" });
    const check = await runCli(["check", "--dir", root]);
    expect(check).toEqual({ code: 0, stdout: "checked docs.json and 1 page: no problems\n", stderr: "" });
    const nav = await runCli(["nav", "--dir", root]);
    expect([nav.code, nav.stdout.trimEnd().split("\n").at(-1)]).toEqual([0, `${"  ".repeat(levels)}Home  /index`]);
  });

  it("a chain of $ref files, each within the limit, that together nest deeper is refused at the $ref", async () => {
    const half = (inner: string) => `${"[".repeat(MAX / 2)}${inner}${"]".repeat(MAX / 2)}`;
    const root = tempRepo({
      "docs.json": `{"x": {"$ref": "a.json"}, "navigation": {"groups": [{"group": "G", "pages": ["index"]}]}}\n`,
      "a.json": `${half('{"$ref": "b.json"}')}\n`,
      "b.json": `${half("1")}\n`,
      "index.mdx": "# Home\n",
    });
    const run = await runCli(["check", "--dir", root]);
    const at = `x${"[0]".repeat(MAX / 2)}.$ref`;
    expect(run).toEqual({
      code: 1,
      stdout: `a.json:1:${MAX / 2 + 10} ${at}: "$ref" "b.json" would nest arrays and objects deeper than ${MAX} levels (${MAX / 2 + 1} around it here, ${MAX / 2} in b.json); it is not read\nchecked docs.json (+2 $ref files) and 1 page: 1 error, 0 warnings\n`,
      stderr: "",
    });
  });

  it("serving: a key nested too deep is said once and the configuration applies, at start-up and in an edit", async () => {
    const root = tempRepo({ "docs.json": deepDocsJson(5000), "index.mdx": "# Home\n", "guide.mdx": "# Guide\n" });
    const logs: string[] = [];
    const runtime = await DocsRuntime.load({ root, log: (m) => void logs.push(m) });
    try {
      const deepAt = TOO_DEEP(7 + MAX - 1, `x${"[0]".repeat(MAX - 1)}`);
      expect([[...runtime.site.config.navPages.keys()], runtime.site.diagnostics.map(formatDiagnostic)]).toEqual([["/index"], [deepAt]]);
      writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Owl", navigation: { groups: [{ group: "Start", pages: ["guide"] }] } }));
      await runtime.applyChanges(["docs.json"]);
      expect([...runtime.site.config.navPages.keys()]).toEqual(["/guide"]);
      logs.length = 0;
      writeFileSync(join(root, "docs.json"), deepDocsJson(5000).replace('"pages": ["index"]', '"pages": ["guide"]'));
      await runtime.applyChanges(["docs.json"]);
      // The edit names no site: the name served before is kept (and said), as for any docs.json.
      expect([[...runtime.site.config.navPages.keys()], logs]).toEqual([["/guide"], [deepAt, 'docs.json warning: docs.json names no site; still serving it as "Owl" (its tools and state stay as they are) until it names one']]);
    } finally {
      await runtime.close();
    }
  });

  it("front matter nested thousands deep: the page is skipped with a finding in words, the rest served", async () => {
    const root = tempRepo({
      "docs.json": { navigation: { groups: [{ group: "G", pages: ["index", "deep"] }] } },
      "index.mdx": "# Home\n",
      "deep.mdx": `---\ntitle: D\nx: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n---\nText\n`,
    });
    const run = await runCli(["check", "--dir", root]);
    expect(run).toEqual({
      code: 0,
      stdout: [
        'docs.json:8:11 navigation.groups[0].pages[1]: warning: page "deep" not found: deep.mdx is skipped (invalid front matter: arrays and objects nested too deeply to read)',
        "deep.mdx warning: skipped: invalid front matter: arrays and objects nested too deeply to read",
        "checked docs.json and 1 page: 0 errors, 2 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("front matter of aliases inside aliases (500 bytes, billions of values read as a tree): the page is skipped with a finding in words, the rest served (issue 25)", async () => {
    let bomb = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++) bomb += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(",")}]\n`;
    const root = tempRepo({
      "docs.json": { navigation: { groups: [{ group: "G", pages: ["index", "bomb", "shared"] }] } },
      "index.mdx": "# Home\n",
      "bomb.mdx": `---\ntitle: B\n${bomb}---\nText\n`,
      // One long text repeated by aliases: few values, but megabytes read out (a 400 MB site cache before).
      "long.mdx": `---\ntitle: L\nxs: [&s "${"x".repeat(20_000)}"${", *s".repeat(100)}]\n---\nText\n`,
      // An anchor used a few times is front matter as real pages write it: read as usual.
      "shared.mdx": `---\ntitle: S\nbase: &b [one, two]\nkeywords: *b\nlong: &l "${"y".repeat(50_000)}"\nagain: *l\n---\nText\n`,
    });
    const why = (key: string) =>
      `it would hold more than ${LIMITS.load.maxFrontMatterValues} values (a value per ${LIMITS.load.frontMatterCharsPerValue} characters of text) once its YAML aliases are copied out (at "${key}"); write the values without aliases`;
    const run = await runCli(["check", "--dir", root]);
    expect(run).toEqual({
      code: 0,
      stdout: [
        `docs.json:8:11 navigation.groups[0].pages[1]: warning: page "bomb" not found: bomb.mdx is skipped (invalid front matter: ${why("a4")})`,
        `bomb.mdx warning: skipped: invalid front matter: ${why("a4")}`,
        `long.mdx warning: skipped: invalid front matter: ${why("xs")}`,
        "checked docs.json and 2 pages: 0 errors, 3 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
    const runtime = await DocsRuntime.load({ root, log: () => {} });
    try {
      expect([...runtime.site.pages.keys()].sort()).toEqual(["/index", "/shared"]);
      expect(runtime.site.pages.get("/shared")?.frontMatter.keywords).toEqual(["one", "two"]);
    } finally {
      await runtime.close();
    }
  });
});
