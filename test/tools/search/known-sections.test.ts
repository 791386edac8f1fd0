import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "../../../src/config/frontmatter.js";
import { analyseBody } from "../../../src/engine/search/body-analysis.js";
import { KnownSections } from "../../../src/engine/search/known-sections.js";
import { Analyzer } from "../../../src/engine/search/terms.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";
import { CORPORA } from "../../helpers/paths.js";
import { itShared } from "../../helpers/shared.js";

/**
 * Sections written the same in several bodies are split and tokenized once (`KnownSections`,
 * issue 22): every body's analysis must be the one made without them, term ids included (each
 * side has its own vocabulary, filled in the same order).
 */

/** Each body analysed with and without the kept sections: the analyses, and how many were found. */
function bothWays(bodies: readonly { body: string; api: boolean }[], maxChars = 1_000_000): { reused: unknown[]; alone: unknown[]; found: number } {
  const known = new KnownSections(maxChars);
  const a = new Analyzer(new Vocabulary());
  const b = new Analyzer(new Vocabulary());
  const reused = bodies.map(({ body, api }) => analyseBody(body, api, a, undefined, known));
  const alone = bodies.map(({ body, api }) => analyseBody(body, api, b));
  return { reused, alone, found: known.found };
}

const ROWS = Array.from({ length: 9 }, (_, r) => `| \`code_${r}\` | row ${r} failed |`).join("\n");
// Items a list is split into only when its body holds a `- \`` somewhere (two spaces here).
const ITEMS = Array.from({ length: 8 }, (_, r) => `-  \`ERR_${r}\`: refused ${r}`).join("\n");

describe("sections kept for their copies", () => {
  it("analyses copies of a page with a section changed as each alone, and finds the others kept", () => {
    const page = (n: number, extra: string): string =>
      [
        "import { X } from '/snippets/x.mdx';",
        "Intro about the checkout.",
        "## Errors",
        ITEMS,
        "## Codes",
        ROWS,
        "```js\n## not a heading\nconst x = api_key;\n```",
        "### Nested under codes",
        "Text of a nested section.\r\nWith a CRLF line. 创建知识库 설치를 하다",
        "## Empty",
        `## Notes ${n}`,
        `A sentence of copy ${n}.${extra}`,
      ].join("\n\n");
    const bodies = [
      { body: page(1, ""), api: false },
      { body: page(2, ""), api: false },
      // The same errors section in a body read for reference lists: its items become units.
      { body: page(3, "\n\n- `listed`"), api: false },
      { body: page(4, "\n\n- `listed`"), api: false },
      // An endpoint page is never read for them.
      { body: page(5, "\n\n- `listed`"), api: true },
      // The same sections under other headings above them (parents) and other anchors.
      { body: `# Top\n\n${page(6, "")}\n\n## Errors\n\n${ITEMS}`, api: false },
      // Link cards and agent-only text read across sections: such bodies are never kept.
      { body: `${page(7, "")}\n\n<Card title="Next" href="/next">Go on</Card>`, api: false },
      { body: `<Visibility for="humans">\n\n## Errors\n\n${ITEMS}\n\n</Visibility>\n\n${page(8, "")}`, api: false },
    ];
    const { reused, alone, found } = bothWays(bodies);
    expect(reused).toEqual(alone);
    // Body 2: all but its notes (5); 3: none (read for lists); 4: all but its notes (5); 5: as 1
    // and 2 (an endpoint page is not read for lists, 5); 6: the four below its new top heading.
    expect(found).toBe(19);
  });

  it("starts afresh past its bound, and analyses the same", () => {
    const bodies = Array.from({ length: 6 }, (_, i) => ({ body: `## A\n\n${"alpha ".repeat(40)}\n\n## B ${i % 2}\n\n${"beta ".repeat(40)}`, api: false }));
    const { reused, alone, found } = bothWays(bodies, 300);
    expect(reused).toEqual(alone);
    // Each generation holds one section, and one that found nothing lets the next bodies go
    // unlooked-at (the test below): `A` is found in the older in bodies 2, 3 and 4, `B 0` and
    // `B 1` never, and body 5 is not looked up.
    expect(found).toBe(3);
  });

  it("rests from looking up after generations that found little, longer each time, and looks again", () => {
    const known = new KnownSections(400);
    const key = (c: string): string => c.repeat(150);
    const trace: unknown[] = [];
    const consult = (chars: number): void => void trace.push(known.consult(chars));
    const find = (c: string): void => void trace.push(known.find(key(c)) === undefined ? `${c} not found` : `${c} found`);
    /** A body of `chars` characters, then a character, then one more: each told whether to look up. */
    const rest = (chars: number): void => [chars - 1, 1, 1].forEach(consult);
    consult(10);
    known.keep(key("a"), []);
    // Generations of 200 characters. b's ends the first, which had no older one to look in: not
    // judged. c's ends the second, in which nothing was found: both generations go.
    known.keep(key("b"), []);
    known.keep(key("c"), []);
    find("a");
    find("b");
    // Two generations' worth of characters go unlooked-at.
    rest(400);
    // The first generation after the rest is not judged either; in the next, c is found in the
    // older: a sixteenth of what it looked up (here a half) is worth keeping.
    known.keep(key("d"), []);
    find("c");
    consult(1);
    // The count starts over: two generations' worth, then four, eight, sixteen and no more.
    for (const [keys, chars] of [["e", 400], ["fg", 800], ["hi", 1600], ["jk", 3200], ["lm", 3200]] as const) {
      for (const c of keys) known.keep(key(c), []);
      rest(chars);
    }
    expect(trace).toEqual([true, "a not found", "b not found", false, false, true, "c found", true, ...Array.from({ length: 5 }, () => [false, false, true]).flat()]);
    expect(known.found).toBe(1);
  });

  itShared("analyses the pages of a shared corpus, and a copy of each with a line added, as each alone", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : /\.mdx?$/.test(name) ? [path] : [];
      });
    const bodies: { body: string; api: boolean }[] = [];
    // spree: tables, reference lists, cards, `<Visibility>`.
    for (const corpus of ["spree"]) {
      for (const file of files(join(CORPORA, corpus))) {
        const parsed = parseFrontMatter(readFileSync(file, "utf8"));
        if (parsed.ok) bodies.push({ body: parsed.body, api: false });
      }
    }
    const copies = bodies.map(({ body }, i) => ({ body: `${body}\n\n## Notes ${i}\n\nA line of its own.`, api: i % 7 === 0 }));
    const { reused, alone, found } = bothWays([...bodies, ...copies], 50_000_000);
    // As text, page by page (a deep comparison of ~3,000 analyses took a minute).
    const text = (a: unknown): string => JSON.stringify(a, (_, v: unknown) => (v instanceof Int32Array ? Array.from(v) : v));
    expect(reused.flatMap((a, i) => (text(a) === text(alone[i]) ? [] : [i]))).toEqual([]);
    expect(found).toBe(4_755);
  });
});
