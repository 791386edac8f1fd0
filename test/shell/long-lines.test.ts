/**
 * A pattern with a repeat without bound costs V8 up to a line's length squared, so over a file of
 * one long line (minified JSON) ordinary searches ran to the CPU limit: `rg '.*X'` over 300,000
 * characters would take 107 s (issue 25, "a single unbounded repeat is quadratic on long
 * lines"). A long line is now searched on the linear-time engine (regex/long-line.ts): these
 * commands answer, and the answers are V8's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ShellHost } from "../../src/engine/shell/shell-host.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { compileFindRegex } from "../../src/engine/shell/commands/find/arguments.js";
import { compileSedRegex } from "../../src/engine/shell/commands/sed/script.js";
import { forEachMatchingLine } from "../../src/engine/shell/lib/line-search.js";
import { guardRegex } from "../../src/engine/shell/regex/guard.js";
import { LONG_LINE, LongLineRegExp, longLines } from "../../src/engine/shell/regex/long-line.js";
import { type Dialect, compilePatterns } from "../../src/engine/shell/regex/patterns.js";
import { localContext } from "../../src/vfs/request-context.js";

/** Minified JSON of 5,170 records on one line (300,226 characters), as a page's only body line. */
const ITEMS = Array.from({ length: 5170 }, (_, i) => ({ name: `item-${i}`, id: i, tags: ["a", "b"], ok: i % 2 === 0 }));
const JSON_LINE = JSON.stringify(ITEMS);

describe("commands over a file of one long line, in a shell worker with its CPU limit", () => {
  let dir: string;
  let runtime: DocsRuntime;
  let host: ShellHost;
  let shell: Shell;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-long-lines-"));
    writeFileSync(join(dir, "docs.json"), JSON.stringify({ name: "Long", theme: "mint", colors: { primary: "#0B6BCB" }, navigation: { groups: [{ group: "G", pages: ["index", "data"] }] } }));
    writeFileSync(join(dir, "index.mdx"), "---\ntitle: Home\n---\n\nHello.\n");
    writeFileSync(join(dir, "data.mdx"), `---\ntitle: Data\n---\n\n${JSON_LINE}\n`);
    runtime = await DocsRuntime.load({ root: dir });
    host = new ShellHost({ workers: 1 });
    shell = host.shellFor(runtime.site, runtime.readerState(localContext()).view);
  });

  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const result = (stdout: string, exitCode = 0) => ({ stdout, stderr: "", exitCode, truncated: false });

  it("the line is as long as the issue's", () => {
    expect(JSON_LINE.length).toBe(300_226);
  });

  // Before: each ended at the 5 s CPU limit (exit 124), or took seconds of uncounted V8.
  it.each([
    ["rg -c '\"name\".*X' /", result("", 1)],
    ["rg -c '.*X' /", result("", 1)],
    ["rg -ci '\"NAME\".*x' /", result("", 1)],
    ["rg -c '\\w+X' /", result("", 1)],
    ["grep -c '.*X' /data.mdx", result("0\n", 1)],
    ["grep -cE '[^X]*X' /data.mdx", result("0\n", 1)],
    // On the counted machine (a look-around, -w): a search that stops early costs little.
    ["rg -cw 'item-\\d+X' /", result("", 1)],
    ["rg -o '\"name\":\"item-516[0-9]\".*?\"ok\":false' /data.mdx | tail -1", result('"name":"item-5168","id":5168,"tags":["a","b"],"ok":true},{"name":"item-5169","id":5169,"tags":["a","b"],"ok":false\n')],
    ["grep -oE '\"id\":[0-9]+,\"tags\":\\[\"a\",\"b\"\\],\"ok\":false\\}\\]$' /data.mdx", result('"id":5169,"tags":["a","b"],"ok":false}]\n')],
    ["rg -n '^\\[\\{\"name\":\"item-0\".*\"ok\":false\\}\\]$' / | cut -c1-40", result('/data.mdx:5:[{"name":"item-0","id":0,"ta\n')],
    ["rg -n '^\\[\\{\"name\":\"item-0\".*\"ok\":false\\}\\]$' / | wc -c", result(`${"/data.mdx:5:".length + JSON_LINE.length + 1}\n`)],
    ["rg -o '\"id\":4321,\"tags\":\\[[^\\]]*\\]' /data.mdx", result('"id":4321,"tags":["a","b"]\n')],
    ["rg --replace '<$1>' -o '\"name\":\"(item-4\\d*)\",\"id\":4\\d*,\"tags\":\\[\"a\",\"b\"\\],\"ok\":true\\},\\{\"name\":\"item-4001\"' /data.mdx", result("<item-4000>\n")],
    ["sed -E 's/[^X]*X//; s/.*\"id\":([0-9]+),.*/\\1/' /data.mdx | tail -1", result("5169\n")],
    ["sed -n 's/.*\"name\":\"item-3000\",\\(\"id\":[0-9]*\\).*/\\1/p' /data.mdx", result('"id":3000\n')],
    ["awk '/X/ { n++ } END { print n + 0 }' /data.mdx", result("0\n")],
  ])("%s", async (command, expected) => {
    expect(await shell.run(command)).toEqual(expected);
  });
});

/** Every match of `re` in `text`, as `matchAll` gives them: offsets, groups, named groups. */
function matches(re: RegExp, text: string): unknown[] {
  const out: unknown[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push([m.index, [...m], m.groups, m.input === text, re.lastIndex]);
    if (m[0] === "") re.lastIndex = m.index + ((text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
  }
  return out;
}

/** The lines grep selects (`forEachMatchingLine`, one search per selected line). */
function selected(re: RegExp, text: string): number[] {
  const out: number[] = [];
  forEachMatchingLine(text, re, (_start, _end, line) => out.push(line) > 0);
  return out;
}

const long = (seed: string, length: number) => seed.repeat(Math.ceil(length / seed.length)).slice(0, length);

/**
 * Texts with long lines where V8 still finishes (a few thousand characters): at the start, in
 * the middle, at the end with and without a final newline, two side by side, a CRLF one, emoji
 * at the cuts, and short lines between.
 */
const TEXTS = [
  `${long("ab X é😀 key=val, 1.5 ", 1500)}\nshort X line\n${long("foo bar=baz ", 1200)}\n${long("😀é", 1001)}\n\nlast a X b\n`,
  `x\n${long("aaaa", 1001)}\n${long("abX ", 2000)}\r\n${long("=1,", 1100)}`,
  `${long("word ", LONG_LINE)}\n${long("word ", LONG_LINE + 1)}\nfoo123bar\n${long("zzz", 1500)}X\n`,
  long("key=value; ", 3000),
];

describe("LongLineRegExp gives V8's answers", () => {
  const cases: [string, Dialect, { ignoreCase?: boolean; word?: boolean; line?: boolean }][] = [
    [".*X", "rust", {}],
    ["a.*b", "rust", { ignoreCase: true }],
    ["\\w+", "rust", {}],
    ["^.*$", "rust", {}],
    ["x*", "rust", {}],
    ["(?P<k>\\w+)=(\\w*)", "rust", {}],
    ["é+😀?", "rust", { ignoreCase: true }],
    ["\\d+\\.\\d+", "rust", {}],
    ["[^,]*,", "rust", {}],
    [".*?a", "rust", {}],
    ["^foo.*", "rust", { line: true }],
    ["\\bbar\\w*", "rust", {}],
    ["word\\s+", "rust", { word: true }],
    ["[[:alpha:]]+X", "ere", {}],
    ["\\(a*\\)b", "bre", { ignoreCase: true }],
    ["X.*$", "ere", {}],
  ];
  for (const [pattern, dialect, options] of cases) {
    it(`${dialect} ${JSON.stringify(pattern)} ${JSON.stringify(options)}`, () => {
      const v8 = compilePatterns([pattern], { dialect, ignoreCase: options.ignoreCase ?? false, word: options.word ?? false, line: options.line ?? false }).regex;
      const guarded = guardRegex(v8, "lines");
      expect(guarded).toBeInstanceOf(LongLineRegExp);
      const plain = new RegExp(v8.source, v8.flags);
      for (const text of TEXTS) {
        expect(matches(guarded as RegExp, text)).toEqual(matches(plain, text));
        expect(selected(guarded as RegExp, text)).toEqual(selected(plain, text));
        expect(text.replace(guarded as RegExp, "<$&>")).toBe(text.replace(plain, "<$&>"));
        // Sticky, at each long line's edges.
        for (const { start, end } of longLines(text, LONG_LINE)) {
          for (const at of [start - 1, start, start + 1, end - 1, end, end + 1]) {
            const sticky = `${v8.flags.replace("g", "")}y`;
            const [a, b] = [new LongLineRegExp(v8.source, sticky, "lines"), new RegExp(v8.source, sticky)];
            a.lastIndex = at;
            b.lastIndex = at;
            expect([a.exec(text)?.[0], a.lastIndex]).toEqual([b.exec(text)?.[0], b.lastIndex]);
          }
        }
      }
    });
  }

  it("sed's and find's patterns, whole texts past the length", () => {
    const sed = compileSedRegex("[^X]*X\\(.\\)", false, false, false, 0);
    expect(sed).toBeInstanceOf(LongLineRegExp);
    for (const text of TEXTS) expect(text.replace(new LongLineRegExp(sed, "gu"), "<\\1>")).toBe(text.replace(new RegExp(sed.source, "gu"), "<\\1>"));
    const find = compileFindRegex(".*\\.mdx", "ere", false);
    expect(find).toBeInstanceOf(LongLineRegExp);
    const path = `/${long("a/", 1200)}x.mdx`;
    expect([find.test(path), find.test(`${path}b`)]).toEqual([true, false]);
  });

  it("finds the long lines: longer than the limit, not as long", () => {
    const text = `${"a".repeat(LONG_LINE)}\n${"b".repeat(LONG_LINE + 1)}\n\n${"c".repeat(LONG_LINE + 5)}`;
    expect(longLines(text, LONG_LINE)).toEqual([
      { start: LONG_LINE + 1, end: 2 * LONG_LINE + 2 },
      { start: 2 * LONG_LINE + 4, end: text.length },
    ]);
    expect(longLines("a\nb\n", LONG_LINE)).toEqual([]);
  });

  it("keeps V8 for a pattern without an unbounded repeat", () => {
    const v8 = compilePatterns(["a{2,5}b"], { dialect: "rust", ignoreCase: false, word: false, line: false }).regex;
    expect(guardRegex(v8, "lines")).toBe(v8);
  });
});
