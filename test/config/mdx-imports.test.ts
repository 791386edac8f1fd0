/** Import statements of MDX pages, and a page without some of them and the tags using them. */
import { describe, expect, it } from "vitest";
import { mdxImports, removeImports } from "../../src/config/mdx-imports.js";

const page = (lines: readonly string[]): string => `${lines.join("\n")}\n`;

describe("mdxImports", () => {
  it("reads every statement form MDX accepts, at the start of a line outside front matter and code fences", () => {
    const text = page([
      "---",
      "title: import X from '/front.mdx'",
      "---",
      "import A from '/snippets/a.mdx';",
      'import B, { C as D, default as E } from "../b.mdx"',
      "import {",
      "  F,",
      "  G as H,",
      "} from './f.mdx'",
      "import * as NS from '/ns.mdx'",
      "import '/side.mdx'",
      "export { default as R } from '/re.mdx'",
      "export const x = 1",
      "",
      "```mdx",
      "import Z from '/in-a-fence.mdx'",
      "```",
      "  import Y from '/indented.mdx'",
    ]);
    expect(mdxImports(text).map((i) => [i.source, i.names])).toEqual([
      ["/snippets/a.mdx", ["A"]],
      ["../b.mdx", ["B", "D", "E"]],
      ["./f.mdx", ["F", "H"]],
      ["/ns.mdx", ["NS"]],
      ["/side.mdx", []],
      // A re-export binds its name for the page's tags as an import does (finding 33).
      ["/re.mdx", ["R"]],
    ]);
  });

  it("reads what JavaScript reads: string names (ES2022), import attributes; not a statement in a string only by its look", () => {
    const text = page([
      'import { "the secret" as Secret, Other } from "/snippets/secret.mdx"',
      'import data from "/data.json" with { type: "json" }',
      "export const shown = `",
      "import Hidden from '/in-a-string.mdx'",
      "`",
    ]);
    expect(mdxImports(text).map((i) => [i.source, i.names, i.unread])).toEqual([
      ["/snippets/secret.mdx", ["Secret", "Other"], undefined],
      ["/data.json", ["data"], undefined],
      // Not JavaScript's import, but text that looks like one: taken as one (fail closed), as before.
      ["/in-a-string.mdx", ["Hidden"], undefined],
    ]);
  });

  it("takes what only looks like a statement where the lexer reads none: JSX it does not know, a line after an unterminated string", () => {
    const text = page(['import S from "/s.mdx"; export const L = () => <div>{1}</div>', "export const x = '\\'; import T from \"/t.mdx\""]);
    expect(mdxImports(text).map((i) => [i.source, i.names])).toEqual([
      ["/s.mdx", ["S"]],
      ["/t.mdx", ["T"]],
    ]);
  });

  it("reads statements with comments between their parts, names in any script, and escapes in the path (decoded)", () => {
    const text = page([
      'import Secret /* x */ from "/snippets/secret.mdx"',
      'import Sécret from "/snippets/secret.mdx"',
      'import Other from "/snippets/secr\\u0065t.mdx"',
      "import { A as B, // why",
      "  C } from '/snippets/\\x61.mdx';",
      'import Secr\\u0065t2 from "/snippets/s\\u{65}.mdx"',
    ]);
    expect(mdxImports(text).map((i) => [i.source, i.names])).toEqual([
      ["/snippets/secret.mdx", ["Secret"]],
      ["/snippets/secret.mdx", ["Sécret"]],
      ["/snippets/secret.mdx", ["Other"]],
      ["/snippets/a.mdx", ["B", "C"]],
      ["/snippets/se.mdx", ["Secret2"]],
    ]);
  });

  it("returns a statement it cannot read as unread, with the names written in it, up to the next statement", () => {
    const text = page(['import A from "/a.mdx"', 'import { "the secret" as Secret, Other from "/snippets/secret.mdx"', "export const x = 1"]);
    expect(mdxImports(text).map((i) => [text.slice(i.start, i.end), i.source, i.names, i.unread])).toEqual([
      ['import A from "/a.mdx"\n', "/a.mdx", ["A"], undefined],
      ['import { "the secret" as Secret, Other from "/snippets/secret.mdx"\n', "", ["Secret", "Other"], true],
    ]);
    // Prose of a `.md` page starting with the word names no module: no statement.
    expect(mdxImports(page(["import twice, and it's done", "from then on"]))).toEqual([]);
  });

  // Before: each statement was checked against every statement read before it, so 16,000 import
  // lines (610 KB, under the page limit) took a minute on the thread answering every reader, at
  // each save (adversary, 2026-12-05). An unterminated brace stops the lexer, so the page is read
  // statement by statement and what it cannot lex by its look: every statement each once.
  it("reads a page of 20,000 statements, lexed and looked-alike, each once, and removes them all", () => {
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      if (i % 3 === 0) lines.push(`import C${i} from '/snippets/s${i % 50}.mdx'`);
      else if (i % 3 === 1) lines.push(`import'a${i}'`);
      else lines.push(`import { A${i} from '/snippets/u.mdx'`);
    }
    const text = `${page(lines)}\n# Body\n`;
    const found = mdxImports(text);
    expect(found.length).toBe(20_000);
    expect(found.filter((i) => i.unread === true).length).toBe(0);
    expect(found.slice(0, 3).map((i) => [text.slice(i.start, i.end), i.source, i.names, i.unread])).toEqual([
      ["import C0 from '/snippets/s0.mdx'\n", "/snippets/s0.mdx", ["C0"], undefined],
      ["import'a1'\n", "a1", [], undefined],
      ["import { A2 from '/snippets/u.mdx'\n", "/snippets/u.mdx", ["A2"], undefined],
    ]);
    expect(removeImports(text, found)).toBe("# Body\n");
  });
});

describe("removeImports", () => {
  // Before: each pass of a fixed point tried every name as a regular expression on every export
  // not yet taken, so a chain of aliases written from its end took a pass per alias: 500 held the
  // thread answering every reader 16 s (adversary, 2026-12-05).
  it("removes a chain of 2,000 aliases written from its end, with the tag using the import", () => {
    const chain = ["import S from '/snippets/staff.mdx'"];
    for (let i = 1999; i >= 1; i--) chain.push(`export const A${i} = A${i - 1}`);
    chain.push("export const A0 = S", "export const Kept = 1", "", "# b", "", "<S /> and <A1999 />");
    const text = page(chain);
    expect(removeImports(text, mdxImports(text))).toBe("export const Kept = 1\n\n# b\n\nand\n");
  });

  it("removes, with the import, exports that pass its name on, and the tags using their names", () => {
    const text = page([
      'import Secret from "/snippets/secret.mdx"',
      "export const Alias = Secret",
      "export const Twice = { inner: Alias }",
      "export const Other = 1",
      "",
      "<Alias />",
      "Kept text with <Twice.inner />",
    ]);
    expect(removeImports(text, mdxImports(text))).toBe(page(["export const Other = 1", "", "Kept text with"]));
  });

  it("drops the statements and every tag using their names: self-closing, nested, members, inline; not inside code fences", () => {
    const text = page([
      "import Secret from '/s.mdx'",
      "import Kept from '/k.mdx'",
      "",
      "# Title",
      "",
      '<Secret attr="a > b" expr={{ x: "}" }} />',
      "",
      "<Secret>",
      "  <Secret>inner</Secret>",
      "  <Secret.Part />",
      "</Secret>",
      "",
      "Text with <Secret /> inline and <SecretSauce /> kept.",
      "",
      "<Kept />",
      "",
      "```",
      "<Secret />",
      "```",
    ]);
    const secret = mdxImports(text).filter((i) => i.source === "/s.mdx");
    expect(removeImports(text, secret)).toBe(page(["import Kept from '/k.mdx'", "", "# Title", "", "Text with inline and <SecretSauce /> kept.", "", "<Kept />", "", "```", "<Secret />", "```"]));
  });

  it("drops a tag after an escaped backtick, which opens no code span (adversary round 43, F4), and keeps one in a code span", () => {
    const text = page(["import Secret from '/s.mdx'", "", "Intro.", "", "\\`<Secret />`", "", "a \\\\\\`<Secret />`", "", "In code: `<Secret />`.", "", "Outro."]);
    const secret = mdxImports(text).filter((i) => i.source === "/s.mdx");
    expect(removeImports(text, secret)).toBe(page(["Intro.", "", "\\``", "", "a \\\\\\``", "", "In code: `<Secret />`.", "", "Outro."]));
  });

  it("finds every statement of an ESM block: several on a line, trailing comments, a block over lines", () => {
    const text = page([
      "import A from './a.mdx'; import Secret from '/s.mdx' // the secret",
      "import B from './b.mdx'",
      "import { X }",
      "  from '/s.mdx'",
      "",
      "<A /><Secret /><X />",
    ]);
    const secret = mdxImports(text).filter((i) => i.source === "/s.mdx");
    expect(secret.map((i) => i.names)).toEqual([["Secret"], ["X"]]);
    expect(removeImports(text, secret)).toBe(page(["import A from './a.mdx';", "import B from './b.mdx'", "", "<A />"]));
  });

  it("leaves no use in what else an ESM block holds: a tag on a line of it, in a comment, in any export (finding 33)", () => {
    const text = page([
      "import Secret from '/s.mdx'",
      "<Secret />",
      "import Kept from '/k.mdx' // unlike <Secret />",
      "export default function Layout({ children }) { return <Secret>{children}</Secret> }",
      "export { Secret }",
      "",
      "Text.",
    ]);
    expect(removeImports(text, mdxImports(text).filter((i) => i.source === "/s.mdx"))).toBe(page(["import Kept from '/k.mdx' // unlike", "", "Text."]));
  });

  it("leaves the text as it is when nothing is removed", () => {
    const text = page(["import A from '/a.mdx'", "<A />"]);
    expect(removeImports(text, [])).toBe(text);
  });

  // Adversary round 48, N2: a use last in an element, after a blank line, left that blank line
  // before the closing tag: one byte told that something stood there.
  it("leaves an element whose use went first or last, after or before a blank line, as written without it", () => {
    const cases: [readonly string[], readonly string[]][] = [
      [["<Tabs>", '  <Tab title="A">', "    Public text", "", "    <Secret />", "  </Tab>", "</Tabs>"], ["<Tabs>", '  <Tab title="A">', "    Public text", "  </Tab>", "</Tabs>"]],
      [['<Tab title="A">', "  <Secret />", "", "  Public text", "</Tab>"], ['<Tab title="A">', "  Public text", "</Tab>"]],
      [["<Card", '  title="Run"', '  href="/run"', ">", "  <Secret />", "  <Secret>two</Secret>", "", "  Body", "</Card>"], ["<Card", '  title="Run"', '  href="/run"', ">", "  Body", "</Card>"]],
      [["<Steps>", "  <Step>", "    One", "", "    <Secret />", "", "    <Secret />", "  </Step>", "</Steps>", "", "After."], ["<Steps>", "  <Step>", "    One", "  </Step>", "</Steps>", "", "After."]],
      // Beside a sibling element (adversary round 49, F2), and tags with braces or `>` in attributes.
      [['<Tab title="A">', "Text A", "", "<Secret />", "</Tab>", '<Tab title="B">', "Text B", "</Tab>"], ['<Tab title="A">', "Text A", "</Tab>", '<Tab title="B">', "Text B", "</Tab>"]],
      [['<Tab title="A">', "Text A", "</Tab>", '<Tab title="B">', "<Secret />", "", "Text B", "</Tab>"], ['<Tab title="A">', "Text A", "</Tab>", '<Tab title="B">', "Text B", "</Tab>"]],
      [['<Tab title={"A"} icon={{ name: "x" }}>', "<Secret />", "", "Text A", "</Tab>"], ['<Tab title={"A"} icon={{ name: "x" }}>', "Text A", "</Tab>"]],
      [['<Tab title="a > b">', "<Secret />", "", "Text A", "</Tab>"], ['<Tab title="a > b">', "Text A", "</Tab>"]],
      // A self-closing tag before the use opens nothing: the gap stays.
      [['<Icon name="x" />', "<Secret />", "", "Text"], ['<Icon name="x" />', "", "Text"]],
      // Between prose the gaps stay as before; an element left holding nothing goes (`mdxNameUses`).
      [["Public text", "", "<Secret />", "More text"], ["Public text", "", "More text"]],
      [["Intro.", "", "<Note>", "  <Secret />", "</Note>"], ["Intro."]],
      // Adversary round 50, F4: inside a blockquote (its `>` line went with the use, and `>` is
      // the quote's blank line), and in list items.
      [['> <Tab title="A">', "> Text A", ">", "> <Secret />", "> </Tab>"], ['> <Tab title="A">', "> Text A", "> </Tab>"]],
      [['> <Tab title="A">', "> <Secret />", ">", "> Text A", "> </Tab>"], ['> <Tab title="A">', "> Text A", "> </Tab>"]],
      [['> <Tab title="A">', "> Text A", "> <Secret />", "> </Tab>"], ['> <Tab title="A">', "> Text A", "> </Tab>"]],
      [["> <Card", '>   title="x"', "> >", "> <Secret />", ">", "> Text A", "> </Card>"], ["> <Card", '>   title="x"', "> >", "> Text A", "> </Card>"]],
      [["> Quote", ">", "> <Secret />", ">", "> More"], ["> Quote", ">", "> More"]],
      [["> Quote", ">", "> <Secret />", "", "After"], ["> Quote", "", "After"]],
      [["Intro", "", "> <Secret />", ">", "> Quote"], ["Intro", "", "> Quote"]],
      [["> Quote", ">", "> <Secret />"], ["> Quote"]],
      [["> - <Tab>", ">   <Secret />", ">", ">   Text", ">   </Tab>"], ["> - <Tab>", ">   Text", ">   </Tab>"]],
      [['1. <Tab title="A">', "   <Secret />", "", "   Text A", "   </Tab>"], ['1. <Tab title="A">', "   Text A", "   </Tab>"]],
      [['- <Tab title="A">', "  Text A", "", "  <Secret />", "  </Tab>"], ['- <Tab title="A">', "  Text A", "  </Tab>"]],
      // Attributes over lines, one starting with `<`; braces to any depth; strings, templates and `>` in expressions.
      [["<Tab icon={", '  <Icon name="x" />', "}>", "<Secret />", "", "Text A", "</Tab>"], ["<Tab icon={", '  <Icon name="x" />', "}>", "Text A", "</Tab>"]],
      [['<Tab title="a', '<b>">', "<Secret />", "", "Text A", "</Tab>"], ['<Tab title="a', '<b>">', "Text A", "</Tab>"]],
      [["<Tab title={{ a: { b: { c: 1 } } }}>", "<Secret />", "", "Text A", "</Tab>"], ["<Tab title={{ a: { b: { c: 1 } } }}>", "Text A", "</Tab>"]],
      [['<Tab title={`a ${"}"} b`} x={a > b} {...rest}>', "<Secret />", "", "Text A", "</Tab>"], ['<Tab title={`a ${"}"} b`} x={a > b} {...rest}>', "Text A", "</Tab>"]],
      // A multi-line tag ended by `>` alone is no blockquote; an expression line before the use opens nothing: the gap stays.
      [["<Tab>", "Text A", "", "{/* c */}", "<Secret />", "</Tab>"], ["<Tab>", "Text A", "", "{/* c */}", "</Tab>"]],
    ];
    for (const [lines, expected] of cases) {
      for (const eol of ["\n", "\r\n"]) {
        const text = `import Secret from "/s.mdx"\n\n${lines.join(eol)}${eol}`;
        expect(removeImports(text, mdxImports(text))).toBe(`${expected.join(eol)}${eol}`);
      }
    }
  });
});
