/**
 * Issue 25 (adversary round 29 F2, F4): a pattern with a backreference cannot run on the
 * linear-time engine, so it stayed on V8's backtracking one, uncounted: `(.*)\1x` over a long
 * line, `(a*)*\1b` over a run of a's ran to the CPU limit (in `serve --no-shell-worker`, over 90
 * s). Such patterns now run on our counted backtracking machine (`CountedRegExp`): V8's answers,
 * every step charged to the work budget, so a runaway ends at the work limit with the same
 * message as every other command, on any machine. And a backreference to a group that took no
 * part fails to match, as in GNU grep and sed and PCRE2 (JS matched it empty).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SHELL_COMMANDS } from "../../src/engine/shell/commands/index.js";
import { compileFindRegex } from "../../src/engine/shell/commands/find/arguments.js";
import { compileSedRegex } from "../../src/engine/shell/commands/sed/script.js";
import { DocsShell } from "../../src/engine/shell/docs-shell.js";
import { CountedRegExp } from "../../src/engine/shell/regex/counted.js";
import { guardRegex } from "../../src/engine/shell/regex/guard.js";
import { compilePatterns, type Dialect } from "../../src/engine/shell/regex/patterns.js";
import { workLimitMessage } from "../../src/engine/shell/work-budget.js";
import { localContext } from "../../src/vfs/request-context.js";
import type { SiteView } from "../../src/vfs/view.js";
import { fixture } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

const LONG_NAME = "a".repeat(40);
let repo: { dir: string; cleanup: () => void };
let runtime: DocsRuntime;
let view: SiteView;

beforeAll(async () => {
  repo = makeRepo({
    "docs.json": JSON.stringify({ name: "T", navigation: { groups: [{ group: "S", pages: ["index", `guides/${LONG_NAME}`] }] } }),
    "index.mdx": "---\ntitle: Home\n---\n\nthe the cat\n",
    [`guides/${LONG_NAME}.mdx`]: "---\ntitle: A\n---\n\nok\n",
  });
  runtime = await DocsRuntime.load({ root: repo.dir });
  view = runtime.readerState(localContext()).view;
});

afterAll(async () => {
  await runtime.close();
  repo.cleanup();
});

/** A shell whose work budget alone can end these calls (the clock and the CPU limit an hour away). */
const budgeted = (maxSteps: number) =>
  new DocsShell(
    view,
    SHELL_COMMANDS.map((make) => make(view)),
    { ...LIMITS.shell, maxSteps, maxExecutionMs: 3_600_000, maxCpuMs: 3_600_000 },
  );
const overBudget = (command: string, maxSteps: number) => ({ stdout: "", stderr: workLimitMessage(command, maxSteps), exitCode: 124, truncated: false });
const ok = (stdout: string, exitCode = 0) => ({ stdout, stderr: "", exitCode, truncated: false });

/** A line of `n` a's, then `tail`. */
const aLine = (n: number, tail: string) => `{ printf '%*s' ${n} '' | tr ' ' a; echo ${tail}; }`;

describe("a runaway backreference pattern ends at the work limit", () => {
  // `(.*)\1x`: each start tries every split of the a's, each compared again: cubic over 20,000 a's.
  // `(a*)*\1b`: every way to cut 40 a's into runs, 2^40.
  it.each([
    ["grep", `${aLine(20000, "bz")} | grep -cE '(.*)\\1x'`],
    ["grep", `${aLine(40, "c")} | grep -E '(a*)*\\1b'`],
    ["grep", `${aLine(20000, "bz")} | grep -cP '(.*)\\1x'`],
    ["rg", `${aLine(20000, "bz")} | rg -cP '(.*)\\1x'`],
    ["sed", `${aLine(40, "c")} | sed -E 's/(a*)*\\1b/X/'`],
    ["sed", `${aLine(40, "c")} | sed 's/\\(a*\\)*\\1b/X/'`],
  ])("%s: %s", async (command, line) => {
    expect(await budgeted(200_000).run(line)).toEqual(overBudget(command, 200_000));
  });

  it(`find: find / -regextype posix-extended -regex '.*/(a*)*\\1b.*' (a path of 40 a's)`, async () => {
    expect(await budgeted(200_000).run("find / -regextype posix-extended -regex '.*/(a*)*\\1b.*'")).toEqual(overBudget("find", 200_000));
  });

  it("answers the same patterns where they are fast (GNU grep's and sed's answers)", async () => {
    const shell = budgeted(200_000);
    expect(await shell.run(`${aLine(20, "xaxbz")} | grep -cE '(a*)\\1x'; ${aLine(12, "b")} | sed -E 's/(a*)*\\1b/X/'`)).toEqual(ok("1\nX\n"));
    expect(await shell.run("grep -hoE '(\\w+) \\1' /index.mdx; echo abba | grep -oE '(a)(b)\\2\\1'; echo abab | rg -oP '(ab)\\1'")).toEqual(ok("the the\nabba\nabab\n"));
  });
});

describe("a backreference to a group that took no part fails to match, as in GNU grep and sed", () => {
  it("grep -E, grep -P, rg -P and sed -E (each GNU's or PCRE2's answer)", async () => {
    const shell = budgeted(200_000);
    // JS matched \1 empty here: `ab` was printed, and sed wrote `aX`.
    expect(await shell.run("echo ab | grep -E '(x)?b\\1'")).toEqual(ok("", 1));
    expect(await shell.run("echo ab | grep -P '(x)?b\\1'")).toEqual(ok("", 1));
    expect(await shell.run("echo ab | rg -P '(x)?b\\1'")).toEqual(ok("", 1));
    expect(await shell.run("echo ab | sed -E 's/(x)?b\\1/X/'")).toEqual(ok("ab\n"));
    // A capture from an earlier repetition stays (JS unsets it at each repetition): GNU's and PCRE2's answers.
    expect(await shell.run("echo aba | grep -oE '((a)|b)+\\2'; echo aba | grep -oP '((a)|b)+\\2'; echo aba | sed -E 's/((a)|b)+\\2/[\\2]/'")).toEqual(ok("aba\naba\n[a]\n"));
    // Where the group took part, it matches as before.
    expect(await shell.run("echo xbx | grep -oE '(x)?b\\1'; echo xbx | sed -E 's/(x)?b\\1/X/'")).toEqual(ok("xbx\nX\n"));
  });

  it("a repetition that matched nothing is kept, its captures set empty, and ends the repeat (adversary round 30 F1)", async () => {
    const shell = budgeted(200_000);
    // JS fails an empty repetition, so `(x?)*` kept `x` for \1 and nothing matched: GNU's and PCRE2's answers.
    expect(await shell.run("echo xyb | grep -oE '(x?)*y\\1'; echo xyb | grep -oP '(x?)*y\\1'; echo ab | grep -oP '(a|)+b\\1'")).toEqual(ok("xy\nxy\nab\n"));
    // `(a*)*` matches empty on every line with \1 empty: GNU counts them all.
    expect(await shell.run("printf 'a\\nb\\n\\nxx\\naa\\nab\\nc\\n' | grep -cE '(a*)*\\1'")).toEqual(ok("7\n"));
  });

  it("reads a backreference as glibc does: one digit, to a group closed before it outside another alternative (adversary round 30)", async () => {
    const shell = budgeted(200_000);
    // `\10` is `\1` then `0` (it was JS's \10, a syntax error with one group).
    expect(await shell.run("echo aa0 | grep -oE '(a)\\10'; echo aa0 | grep -o '\\(a\\)\\10'; echo a0 | grep -cE '(a)\\10'")).toEqual(ok("aa0\naa0\n0\n", 1));
    // A group of an earlier alternative is not closed in the next one; after the alternation it is.
    expect(await shell.run("echo b | grep -E '(a)|b\\1'")).toEqual({ stdout: "", stderr: "grep: Invalid back reference\n", exitCode: 2, truncated: false });
    expect(await shell.run("echo b | sed -E 's/(a)|b\\1/X/'")).toEqual({ stdout: "", stderr: "sed: -e expression #1, char 12: Invalid back reference\n", exitCode: 1, truncated: false });
    expect(await shell.run("echo aa | grep -oE '((a)|b)\\2'; echo ab | grep -E '(a)|(b)\\2'")).toEqual(ok("aa\nab\n"));
  });
});

describe("a risky pattern with a look-around runs on the counted machine instead of being refused", () => {
  it("grep -w and a backreference under a nested repeat answer as GNU grep does", async () => {
    const shell = budgeted(200_000);
    expect(await shell.run("printf 'aa\\n' | grep -wEc '(a|a)*$'; printf 'aa\\n' | grep -Ec '(a+)+\\1$'")).toEqual(ok("1\n1\n"));
  });

  it("refuses groups nested thousands deep, saying why (they overflowed the stack: exit 1, 'Maximum call stack size exceeded')", async () => {
    // 5,000 deep: past the command line's 8 KB, so written by awk and read by `-f -`.
    const pattern = `awk 'BEGIN { for (i = 0; i < 5000; i++) printf "("; printf "a"; for (i = 0; i < 5000; i++) printf ")"; print "\\\\1" }'`;
    expect(await budgeted(2_000_000).run(`${pattern} | grep -cE -f - /index.mdx`)).toEqual({
      stdout: "",
      stderr:
        "grep: this pattern nests groups over 1000 deep, more than this shell's regex engines can read; simplify it\n",
      exitCode: 2,
      truncated: false,
    });
  });

  it("refuses only a program too large to hold, saying why", async () => {
    expect(await budgeted(200_000).run("echo aab | grep -E '(a{1000}){200}\\1'")).toEqual({
      stdout: "",
      stderr:
        "grep: this pattern needs a backtracking regex engine (it has a backreference, or a look-around where it can backtrack badly), and this shell's counted one cannot run a pattern of over 100000 instructions with its repeats written out; simplify it\n",
      exitCode: 2,
      truncated: false,
    });
  });
});

function pages(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(mdx?|json|ya?ml)$/.test(entry.name)) out.push(readFileSync(join(entry.parentPath, entry.name), "utf8"));
  }
  return out;
}

const TEXTS = [
  ...pages(fixture("demo")),
  ...pages(fixture("leak-site")),
  // Edges: doubled letters in both cases, astral characters, CRLF, ſ/S and K/k, repeated words.
  "😀😀 emoji mail: ann@example.com\n\nCRLF line\r\nſtraße Kelvin K kK, ǅ\u0301 é\u0065\u0301 end\nthe the The tHe cat cat\naabbcc abab xyxy 1221 noon\n",
];

/** Every match, as V8 reports it: offset, groups, named groups; and `replace` with a group. */
function answers(re: RegExp, text: string): unknown {
  const g = re.flags.includes("g") ? re : new (re.constructor as RegExpConstructor)(re, `${re.flags}g`);
  return [[...text.matchAll(g)].map((m) => [m.index, [...m], m.groups]), text.replace(g, "<$&|$1>")];
}

describe("CountedRegExp against V8, match for match", () => {
  // With `unset: "empty"`, V8's own rule for a group that took no part, the machine must give V8's answers exactly.
  const same = (re: RegExp): void => {
    const counted = new CountedRegExp(re.source, re.flags, "empty");
    const v8 = new RegExp(re.source, re.flags);
    for (const text of TEXTS) expect(answers(counted, text)).toEqual(answers(v8, text));
  };
  const cases: [string, Dialect, boolean][] = [
    ["(\\w)\\1", "ere", false],
    ["\\b(\\w+) \\1\\b", "ere", true],
    ["(.)(.)\\2\\1", "ere", false],
    ["\\(..*\\)\\1", "bre", false],
    ["^\\(.\\).*\\1$", "bre", true],
    ["([a-z]+)=\\1", "ere", false],
    ["(a|b)\\1*c?", "ere", true],
    ["(\\w+)\\s+\\1", "pcre", true],
    ["(\\w)(?!\\1)\\w", "pcre", false],
    ["(?<=(\\w))\\1", "pcre", false],
    ["(?<=\\1(.))x", "pcre", false],
    ["(x)?y\\1", "pcre", false],
    ["((a)|b)+\\2", "ere", false],
  ];
  for (const [pattern, dialect, ignoreCase] of cases) {
    for (const mode of ["", "-w", "-x"] as const) {
      it(`${dialect} ${JSON.stringify(pattern)}${ignoreCase ? " -i" : ""} ${mode}`, () => {
        const regex = compilePatterns([pattern], { dialect, ignoreCase, word: mode === "-w", line: mode === "-x", gnuCase: true }).regex;
        const guarded = guardRegex(regex);
        if (/\\[1-9k]/.test(pattern) || mode === "-w") expect(guarded).toBeInstanceOf(CountedRegExp);
        same(regex);
      });
    }
  }

  it("JS patterns: lazy and counted repeats, look-behind, empty repetitions, flags m, s, y, named groups", () => {
    for (const [source, flags] of [
      ["(a|ab)(c|bcd)(d*)\\1", "gu"],
      ["(a+)+?b\\1", "gu"],
      ["(?<!a)b(?=(c))\\1", "gu"],
      ["(a?)+b\\1", "gu"],
      ["(a??)+?b", "gu"],
      ["(?:a|())*\\1b", "gu"],
      ["(z)((a+)?(b+)?(c))*\\3", "gu"],
      ["(?=(a+))a*b\\1", "gu"],
      ["^(\\w+)$\\n^\\1$", "gmu"],
      ["(.)\\1", "gisu"],
      ["(?<a>.)(?<b>.)\\k<b>\\k<a>", "gu"],
      ["(e{2,3}?)(n{0,2})\\2", "giu"],
      ["(\\S+)\\s+\\1", "yu"],
      ["\\bK\\w\\b", "giu"],
    ] as const) {
      same(new RegExp(source, flags));
    }
  });

  it("sed and find -regex patterns too", () => {
    const sed = compileSedRegex("\\(.\\)\\1", false, true, false, 0);
    expect(sed).toBeInstanceOf(CountedRegExp);
    for (const text of TEXTS) for (const l of text.split("\n")) expect(sed.exec(l)?.[0]).toBe(new RegExp(sed.source, sed.flags).exec(l)?.[0]);
    const find = compileFindRegex(".*/\\(.\\)\\1.*", "emacs", false);
    expect(find).toBeInstanceOf(CountedRegExp);
    const paths = ["/index.mdx", "/guides/webhooks.mdx", "/api/openapi.yaml", "/aa/b.md", "/ñandú/éé.mdx"];
    expect(paths.filter((p) => find.test(p))).toEqual(["/aa/b.md", "/ñandú/éé.mdx"]);
    expect(paths.filter((p) => find.test(p))).toEqual(paths.filter((p) => new RegExp(find.source, find.flags).test(p)));
  });
});
