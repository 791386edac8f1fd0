import { describe, expect, it } from "vitest";
import { frontMatterShape, parseFrontMatter } from "../../src/config/frontmatter.js";
import { UNMATCHABLE_GROUP, frontMatterProblems, readPageMeta, titleFromBody, titleFromPath } from "../../src/config/page-meta.js";

describe("readPageMeta", () => {
  it("reads the typed keys", () => {
    expect(
      readPageMeta({ title: "Setup", description: "How to", noindex: true, openapi: "GET /users", playground: "auth", groups: ["admins", " staff "], public: true, hidden: true, theme: "x" }),
    ).toEqual({ title: "Setup", description: "How to", noindex: true, hidden: true, openapi: "GET /users", playground: "auth", groups: ["admins", "staff"], public: true });
  });

  it("drops wrongly typed values, but accepts the strings \"true\" and numeric titles", () => {
    expect(readPageMeta({ title: 2024, description: 3, noindex: "true", openapi: "", playground: "everyone", public: "true", hidden: "true" })).toEqual({
      title: "2024",
      noindex: true,
      hidden: true,
      public: true,
    });
    expect(readPageMeta({ title: "  ", noindex: "yes", public: 1, hidden: 1 })).toEqual({ noindex: false, hidden: false });
  });

  it("an unreadable groups value restricts the page instead of opening it", () => {
    expect(readPageMeta({ groups: "admins, staff" }).groups).toEqual(["admins", "staff"]);
    expect(readPageMeta({}).groups).toBeUndefined();
    expect(readPageMeta({ groups: undefined }).groups).toBeUndefined();
    expect(readPageMeta({ groups: [1, "admins"] }).groups).toEqual(["admins"]);
    // A key that is there but names no group (`groups:` and `groups: ~` read as null, a list
    // emptied or commented out) restricts to no reader: emptying it must not publish the page.
    for (const bad of [{ admins: true }, 42, true, [1, 2], [" "], null, [], "", " , ", [null]]) {
      expect(readPageMeta({ groups: bad }).groups).toEqual([UNMATCHABLE_GROUP]);
    }
  });

  it("frontMatterProblems names each wrongly typed key", () => {
    expect(frontMatterProblems({ title: "ok", noindex: "yes", groups: 3, playground: "all", extra: { kept: true } })).toEqual([
      { path: "noindex", message: 'must be true or false; got "yes"; read as false', code: "type" },
      { path: "playground", message: 'must be one of "interactive", "auth", "none", "simple"; got "all"', code: "enum" },
      { path: "groups", message: "must be an array or a string; got 3; the page is readable by no reader until this is fixed", code: "type" },
    ]);
    expect(frontMatterProblems({ title: "ok", anything: [1] })).toEqual([]);
  });

  it("frontMatterProblems says what a key read anyway does, and that a groups key naming no group closes the page", () => {
    expect(frontMatterProblems({ groups: ["staff"], public: "true", hidden: "false" })).toEqual([
      { path: "hidden", message: 'must be true or false; got "false"; read as false', code: "type" },
      { path: "public", message: 'must be true or false; got "true"; read as true: the page is readable by anyone, whatever its groups', code: "type" },
    ]);
    for (const empty of [null, [], "", " , "]) {
      expect(frontMatterProblems({ groups: empty })).toEqual([
        { path: "groups", message: "names no group; the page is readable by no reader until this is fixed (name its groups, or remove the key to open it)", code: "type" },
      ]);
    }
  });

  it("titleFromPath", () => {
    expect(titleFromPath("/guides/getting-started")).toBe("Getting Started");
    expect(titleFromPath("/sdk/index")).toBe("Sdk");
    expect(titleFromPath("/index")).toBe("Home");
    expect(titleFromPath("/api/snake_case-name")).toBe("Snake Case Name");
  });
});

describe("titleFromBody", () => {
  it("is the first-line # heading, markup reduced to text", () => {
    expect(titleFromBody("\n# The `svc` CLI [guide](/g) #\n\nText")).toBe("The svc CLI guide");
    expect(titleFromBody("import X from '/snippets/x.mdx';\n\n# After an import\n")).toBe("After an import");
  });

  it("is nothing when text or a deeper heading comes first", () => {
    expect(titleFromBody("Intro text.\n\n# Later")).toBeUndefined();
    expect(titleFromBody("## Section\n")).toBeUndefined();
    expect(titleFromBody("#hashtag, not a heading")).toBeUndefined();
    expect(titleFromBody("")).toBeUndefined();
  });
});

describe("parseFrontMatter on real-world slips", () => {
  it("reads front matter after a byte order mark", () => {
    expect(parseFrontMatter("\uFEFF---\ntitle: With BOM\n---\n\nBody\n")).toEqual({ ok: true, data: { title: "With BOM" }, body: "\nBody\n", bodyLine: 4 });
  });

  it("refuses YAML that is no mapping when a rule word may be in it: a rule written so cannot be read", () => {
    const why = (shape: string) =>
      `it is ${shape}, not keys with values, so a rule in it (\`groups\`) cannot be read and the page is served to no reader: write each key as \`key: value\` (\`title: Setup\`, \`groups: [staff]\`)`;
    const texts = ["---\n- groups: [a]\n---\nBody", "---\n'groups: [a]'\n---\nB", "---\n- title: T\n  grups: [a]\n---\nB", "---\n- gr\u043Eups: [a]\n---\nB", "---\n- g\u200Broups: [a]\n---\nB", "---\n- group: a\n---\nB", "\n\n---\n- Groups: [a]\n---\nB", '---\n"\\u0067roups: [a]"\n---\nB'];
    expect(texts.map(parseFrontMatter)).toEqual([
      { ok: false, message: why("a list"), line: 1 },
      { ok: false, message: why("a string"), line: 1 },
      { ok: false, message: why("a list"), line: 1 },
      { ok: false, message: why("a list"), line: 1 },
      { ok: false, message: why("a list"), line: 1 },
      { ok: false, message: why("a list"), line: 1 },
      { ok: false, message: why("a list"), line: 3 },
      { ok: false, message: why("a string"), line: 1 },
    ]);
  });

  it("reads YAML that is no mapping and holds no rule word (a full-width colon makes one string) as no front matter, and tells its shape", () => {
    const text = "---\n标题：《快速入门》\n描述：“三步开始”\n---\n## 三步入门\n";
    const texts = [text, "---\n- a\n- b\n---\nBody", "---\n42\n---\nB", "---\nfalse\n---\nB", "---\n2024-01-01\n---\nB", "---\n!!binary aGVsbG8=\n---\nB"];
    expect(texts.map(parseFrontMatter)).toEqual([
      { ok: true, data: {}, body: "## 三步入门\n", bodyLine: 5 },
      { ok: true, data: {}, body: "Body", bodyLine: 5 },
      { ok: true, data: {}, body: "B", bodyLine: 4 },
      { ok: true, data: {}, body: "B", bodyLine: 4 },
      { ok: true, data: {}, body: "B", bodyLine: 4 },
      { ok: true, data: {}, body: "B", bodyLine: 4 },
    ]);
    expect([...texts, "---\ntitle: A\n---\nB", "---\n---\nB", "No front matter", "---\ntitle: [\n---\nB"].map(frontMatterShape)).toEqual([
      "a string",
      "a list",
      "a number",
      "a boolean",
      "a date",
      "binary data",
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    // Empty front matter, or only a comment, is none.
    expect(["---\n---\nB", "---\n# note\n---\nB"].map(parseFrontMatter)).toEqual([
      { ok: true, data: {}, body: "B", bodyLine: 3 },
      { ok: true, data: {}, body: "B", bodyLine: 4 },
    ]);
  });

  it("says to quote a value holding a colon", () => {
    expect(parseFrontMatter("---\ndescription: fine\ntitle: Setup: the basics\n---\nBody\n")).toEqual({
      ok: false,
      message: 'a value holding ": " must be quoted: title: "Setup: the basics"',
      line: 3,
    });
  });

  // gray-matter is given the text up to its closing delimiter only (issue 22): where the body
  // starts, and what is front matter, stay as gray-matter cut them from the whole text.
  it("cuts the body where gray-matter does", () => {
    expect(parseFrontMatter("---\r\ntitle: A\r\n---\r\n\r\nBody\r\n")).toEqual({ ok: true, data: { title: "A" }, body: "\r\nBody\r\n", bodyLine: 4 });
    expect(parseFrontMatter("---\ntitle: A\n---")).toEqual({ ok: true, data: { title: "A" }, body: "", bodyLine: 3 });
    expect(parseFrontMatter("---\ntitle: A\n----\nBody")).toEqual({ ok: true, data: { title: "A" }, body: "-\nBody", bodyLine: 3 });
    expect(parseFrontMatter("---\n---\nBody\n---\nmore")).toEqual({ ok: true, data: {}, body: "Body\n---\nmore", bodyLine: 3 });
    expect(parseFrontMatter("---yaml\ntitle: A\n---\nBody")).toEqual({ ok: true, data: { title: "A" }, body: "Body", bodyLine: 4 });
    // Opened and never closed: a page cut short (a write in progress), whose `groups` may be still to come (adversary round 57 F2).
    expect(parseFrontMatter("---\ntitle: A\n")).toEqual({ ok: false, message: "the --- that opens it has no closing --- line", line: 1 });
    expect(parseFrontMatter("----\ntitle: A\n---\nBody")).toEqual({ ok: true, data: {}, body: "----\ntitle: A\n---\nBody", bodyLine: 1 });
  });
});
