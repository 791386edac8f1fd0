import { describe, expect, it } from "vitest";
import { inlineToPlainText } from "../../src/engine/search/sections.js";

// Search text and snippets keep inline code as written: brackets in code are no link markup
// (issue 25, F3: `x["y"]["z"]` was read as a reference link and indexed as `x"y"`).
describe("inline code in search text", () => {
  it("keeps brackets, emphasis marks and entities inside code spans verbatim", () => {
    expect(inlineToPlainText("Run `jq '.[\"paths\"][\"/p4\"][\"get\"]' /openapi.json` to see it.")).toEqual("Run jq '.[\"paths\"][\"/p4\"][\"get\"]' /openapi.json to see it.");
    expect(inlineToPlainText('Read `x["y"]["z"]` and ``a[b][c]`` and `**b**` and `&lt;`.')).toEqual('Read x["y"]["z"] and a[b][c] and **b** and &lt;.');
  });

  it("reads spans as CommonMark does: one space off each end, line endings as spaces, an escaped backtick opens nothing", () => {
    expect(inlineToPlainText("`` `id` `` and ` b ` and `  ``  ` and ``\nfoo\nbar\n``.")).toEqual("`id` and b and  ``  and foo bar.");
    // A backslash before a backtick makes it text, a backtick the reader sees; in a span a
    // backslash is text; an escaped backslash in prose is one backslash.
    expect(["\\`not [code](/x)\\`", "\\``[code](/x)`", "`foo\\`[bar](/x)`", "\\\\`[y](/x)`"].map(inlineToPlainText)).toEqual(["`not code`", "`[code](/x)", "foo\\bar", "\\[y](/x)"]);
  });

  it("still reads links, images, reference links and emphasis outside code, also around code", () => {
    expect(inlineToPlainText("See [the guide](/guides/a), ![a chart](/c.png), [a ref][r1], [`getPet`](/api/get-pet) and **bold** `[k](v)`.")).toEqual(
      "See the guide, a chart, a ref, getPet and bold [k](v).",
    );
    expect(inlineToPlainText("An unclosed ` tick and [link](/x).")).toEqual("An unclosed  tick and link.".replace("  ", " "));
  });
});
