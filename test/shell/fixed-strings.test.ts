/**
 * Fixed strings (`grep -F`, `rg -F`, `grep -f FILE`) run on an Aho-Corasick automaton (issue 25):
 * as an alternation of escaped strings, 10,000 strings took 5.4 s of CPU over one 28 KB page and
 * 140,000 ran into the time limit (exit 124) in every mode, in a shell worker for ~20 s past it.
 * The automaton answers what the alternation answered (GNU grep's `-o` now prints the longest
 * string matching at a place, as GNU's does), for any number of strings.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SHELL_COMMANDS } from "../../src/engine/shell/commands/index.js";
import { DocsShell } from "../../src/engine/shell/docs-shell.js";
import { forEachMatchingLine, matchesInLine } from "../../src/engine/shell/lib/line-search.js";
import { LAST_CASED, foldCase } from "../../src/engine/shell/regex/case-fold.js";
import { GNU_WORD_BODY, LINE_END, LINE_START, escapeLiteral, wordAssertions } from "../../src/engine/shell/regex/classes.js";
import { FixedStringsRegExp, type Leftmost } from "../../src/engine/shell/regex/fixed-strings.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { localContext } from "../../src/vfs/request-context.js";
import { fixture } from "../helpers/paths.js";
import { propertyParams } from "../helpers/property.js";

let shell: Shell;

beforeAll(async () => {
  const runtime = await DocsRuntime.load({ root: fixture("demo") });
  const view = runtime.readerState(localContext()).view;
  // The answer is the point, not the speed: no time limit to speak of.
  shell = new DocsShell(view, SHELL_COMMANDS.map((make) => make(view)), { ...LIMITS.shell, maxExecutionMs: 600_000 });
});

const ok = (stdout: string) => ({ stdout, stderr: "", exitCode: 0, truncated: false });
/** `zq1` .. `zq<n>`, one a line, made in the shell (seq stops at 10,000 numbers a call). */
const strings = (n: number) => `{ for i in {1..${n / 10_000}}; do seq $((i * 10000 - 9999)) $((i * 10000)); done; } | sed 's/^/zq/'`;

describe("many fixed strings", () => {
  it("grep -F and rg -F with 140,000 strings find what they match", async () => {
    const text = "printf 'one zq139999 two\\nnone\\nzq7\\nZQ5\\n'";
    expect(await shell.run(`grep -c -F -f <(${strings(140_000)}) <(${text})`)).toEqual(ok("2\n"));
    expect(await shell.run(`grep -n -o -F -f <(${strings(140_000)}) <(${text})`)).toEqual(ok("1:zq139999\n3:zq7\n"));
    expect(await shell.run(`grep -i -F -f <(${strings(140_000)}) <(${text})`)).toEqual(ok("one zq139999 two\nzq7\nZQ5\n"));
    expect(await shell.run(`rg -o -F -f <(${strings(140_000)}) <(${text})`)).toEqual(ok("zq1\nzq7\n"));
    expect(await shell.run(`rg -w -F -f <(${strings(140_000)}) <(${text})`)).toEqual(ok("one zq139999 two\nzq7\n"));
    // Patterns with no operator are fixed strings in any dialect (`grep -f words.txt`).
    expect(await shell.run(`grep -c -f <(${strings(140_000)}) <(${text}); rg -o -f <(${strings(140_000)}) <(${text})`)).toEqual(ok("2\nzq1\nzq7\n"));
    expect(await shell.run(`grep -x -c -F -f <(${strings(140_000)}) <(${text}); grep -F -f <(${strings(20_000)}) /index.mdx; echo "exit $?"`)).toEqual(ok("1\nexit 1\n"));
  });

  it("picks among strings matching at one place as each tool does", async () => {
    // GNU grep: the longest; ripgrep: the first given (as its alternation, and the Rust regex crate).
    expect(await shell.run("echo 'ab abc' | grep -o -F -e a -e ab -e abc")).toEqual(ok("ab\nabc\n"));
    expect(await shell.run("echo 'ab abc' | rg -o -F -e a -e ab -e abc")).toEqual(ok("a\na\n"));
    expect(await shell.run("echo 'ab abc' | grep -o -e a -e ab -e abc; echo 'ab abc' | grep -o -E -e a -e ab -e abc")).toEqual(ok("ab\nabc\nab\nabc\n"));
    expect(await shell.run("echo 'foobar foo' | grep -o -w -F -e foo -e foobar")).toEqual(ok("foobar\nfoo\n"));
    expect(await shell.run("echo 'Straße STRASSE ſtrasse' | grep -o -i -F -e strasse")).toEqual(ok("STRASSE\nſtrasse\n"));
    expect(await shell.run("printf 'a\\n\\nb\\n' | grep -n -x -F -e '' -e b")).toEqual(ok("2:\n3:b\n"));
  });
});

/** What the escaped alternation answered (the code before the automaton), picking the longest when asked. */
function alternation(patterns: readonly string[], ignoreCase: boolean, word: boolean, line: boolean, leftmost: Leftmost): RegExp {
  const order = leftmost === "first" ? patterns : [...patterns].sort((a, b) => b.length - a.length);
  let source = order.length === 0 ? "(?!)" : order.map((p) => `(?:${escapeLiteral(p)})`).join("|");
  if (line) source = `${LINE_START}(?:${source})${LINE_END}`;
  else if (word) {
    const w = wordAssertions(GNU_WORD_BODY);
    source = `${w.before}(?:${source})${w.after}`;
  }
  return new RegExp(source, ignoreCase ? "giu" : "gu");
}

function answers(regex: RegExp, text: string): unknown[] {
  const out: unknown[] = [];
  forEachMatchingLine(text, regex, (start, end, n) => {
    out.push([n, matchesInLine(text.slice(start, end), regex)]);
    return true;
  });
  return out;
}

describe("the automaton", () => {
  const piece = fc.constantFrom("a", "b", "A", "ab", "é", "É", "k", "K", "\u212a", "σ", "ς", "Σ", "ß", "ẞ", "ı", "I", "i", "😀", "\u{10400}", "\u{10428}", " ", "_", "-", "1");
  const str = fc.array(piece, { maxLength: 4 }).map((p) => p.join(""));
  const text = fc.array(fc.oneof(piece, fc.constant("\n")), { maxLength: 30 }).map((p) => p.join(""));

  it("answers as the alternation of the escaped strings, with -i, -w, -x, and either pick", () => {
    fc.assert(
      fc.property(fc.array(str, { minLength: 1, maxLength: 6 }), text, fc.boolean(), fc.boolean(), fc.boolean(), fc.constantFrom<Leftmost>("first", "longest"), (patterns, t, ignoreCase, word, line, leftmost) => {
        const fixed = new FixedStringsRegExp(patterns, undefined, { ignoreCase, wordBody: word && !line ? GNU_WORD_BODY : undefined, line, leftmost });
        expect(answers(fixed, t)).toEqual(answers(alternation(patterns, ignoreCase, word, line, leftmost), t));
      }),
      propertyParams(600),
    );
  });

  it("folds case as V8's `iu` regexes do, for every character", () => {
    const changes = /[\p{Changes_When_Casemapped}\p{Changes_When_Casefolded}]/u;
    for (let cp = LAST_CASED + 1; cp <= 0x10ffff; cp++) if (changes.test(String.fromCodePoint(cp))) throw new Error(`U+${cp.toString(16)} changes case`);
    for (let cp = 0; cp <= LAST_CASED; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const f = foldCase(c);
      if (f.length !== c.length || !new RegExp(`^[${c.replace(/[\\\]^-]/g, "\\$&")}]$`, "iu").test(f)) throw new Error(`U+${cp.toString(16)} folds to ${f}`);
    }
  });
});
