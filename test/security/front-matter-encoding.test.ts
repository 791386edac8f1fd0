/**
 * Adversary round 61 F2: a page whose front matter could not be read as the page's rule was served
 * to every reader with its `groups` ignored, and `check` said nothing. Saved as UTF-16 (Windows
 * Notepad's "Unicode") or UTF-32, a page is refused (`wideEncoding`); front matter after a second
 * byte order mark, a blank line, spaces or a tab, or holding U+FEFF, is read as the page's, and
 * `check` says the platform would not (`frontMatterLead`). Through the CLI, whole outputs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { runCli } from "../helpers/cli.js";

const PAYROLL = "---\ntitle: Payroll\ngroups: [staff]\n---\n\nThe salary table is CONFIDENTIAL.\n";
const SNIPPET = "---\ngroups: [staff]\n---\n\nThe salary SNIPPET.\n";
const utf16le = (s: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, "utf16le")]);
const utf16be = (s: string): Buffer => Buffer.from(s, "utf16le").swap16();

/** Each shape, as the file's bytes. */
const SHAPES: Record<string, Buffer> = {
  "utf16-bom": utf16le(PAYROLL),
  "utf16-nobom": Buffer.from(PAYROLL, "utf16le"),
  "utf16be-bom": Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(PAYROLL)]),
  "utf32-bom": Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from([...PAYROLL].flatMap((c) => [c.charCodeAt(0), 0, 0, 0]))]),
  "two-boms": Buffer.from(`\uFEFF\uFEFF${PAYROLL}`),
  "bom-inside": Buffer.from(PAYROLL.replace("groups:", "\uFEFFgroups:")),
  "blank-line": Buffer.from(`\n${PAYROLL}`),
  "tab": Buffer.from(`\t${PAYROLL}`),
};

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "fm-encoding-"));
  const pages = ["index", ...Object.keys(SHAPES)];
  writeFileSync(join(dir, "docs.json"), JSON.stringify({ name: "Shapes", navigation: { groups: [{ group: "All", pages }] } }));
  writeFileSync(join(dir, "index.mdx"), "---\ntitle: Home\n---\n\nWelcome.\n");
  for (const [name, bytes] of Object.entries(SHAPES)) writeFileSync(join(dir, `${name}.mdx`), bytes);
  // Snippets are read by the same rule (`parseFrontMatter`).
  mkdirSync(join(dir, "snippets"));
  writeFileSync(join(dir, "snippets/wide.mdx"), utf16le(SNIPPET));
  writeFileSync(join(dir, "snippets/tabbed.mdx"), `\t${SNIPPET}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAV = "Shapes\nroot: groups\neyebrows: theme default\ndrilldown: theme default\n\ngroup All\n  Home  /index\n";

const cli = (...argv: string[]) => runCli(argv, { cwd: dir });

describe("a restricted page whose front matter is not plain UTF-8 at its first byte", () => {
  it("is shown to no anonymous reader: ls, cat, search, nav --groups", async () => {
    expect((await cli("fs", "ls /")).stdout).toBe("index.mdx\nskill.md\n");
    expect((await cli("fs", "cat /tab.mdx; cat /utf16-bom.mdx; grep -rl -e CONFIDENTIAL -e SNIPPET / ; echo done")).stdout).toBe("done\n");
    expect((await cli("search", "CONFIDENTIAL salary")).stdout).toBe(`No results for "CONFIDENTIAL salary". Try other words, fewer terms, or search the files: svc-mcp fs 'rg -il "term" /'\n`);
    expect((await cli("nav", "--groups")).stdout).toBe(NAV);
  });

  it("is read by staff with its front matter when it can be read, and refused when it is UTF-16 or UTF-32", async () => {
    expect((await cli("fs", "--groups", "staff", "ls / /snippets")).stdout).toBe("/:\nblank-line.mdx\nbom-inside.mdx\nindex.mdx\nskill.md\nsnippets\ntab.mdx\ntwo-boms.mdx\n\n/snippets:\ntabbed.mdx\n");
    expect((await cli("fs", "--groups", "staff", "cat /blank-line.mdx; grep -rl CONFIDENTIAL /")).stdout).toBe(`\n${PAYROLL}/blank-line.mdx\n/bom-inside.mdx\n/tab.mdx\n/two-boms.mdx\n`);
    expect((await cli("nav", "--groups", "staff")).stdout).toBe(`${NAV}  Payroll  /two-boms\n  Payroll  /bom-inside\n  Payroll  /blank-line\n  Payroll  /tab\n`);
    const hits = (await cli("search", "CONFIDENTIAL salary", "--groups", "staff")).stdout;
    expect(hits.split("\n").filter((l) => l.includes("file: ")).map((l) => l.trim().split(" ")[1]).sort()).toEqual(["/blank-line.mdx", "/bom-inside.mdx", "/tab.mdx", "/two-boms.mdx"]);
  });

  it("check names each file and what to do", async () => {
    const run = await cli("check");
    expect(run.stdout + run.stderr).toBe(
      [
      'docs.json:1:74 navigation.groups[0].pages[1]: warning: page "utf16-bom" not found: utf16-bom.mdx is skipped (line 1: invalid front matter: the file is saved as UTF-16 (its first bytes are the byte order mark FF FE or FE FF); pages are read as UTF-8: save it as UTF-8)',
      'docs.json:1:86 navigation.groups[0].pages[2]: warning: page "utf16-nobom" not found: utf16-nobom.mdx is skipped (line 1: invalid front matter: the file is saved as UTF-16 or UTF-32 (its first line holds NUL bytes); pages are read as UTF-8: save it as UTF-8)',
      'docs.json:1:100 navigation.groups[0].pages[3]: warning: page "utf16be-bom" not found: utf16be-bom.mdx is skipped (line 1: invalid front matter: the file is saved as UTF-16 (its first bytes are the byte order mark FF FE or FE FF); pages are read as UTF-8: save it as UTF-8)',
      'docs.json:1:114 navigation.groups[0].pages[4]: warning: page "utf32-bom" not found: utf32-bom.mdx is skipped (line 1: invalid front matter: the file is saved as UTF-32 (its first bytes are the byte order mark FF FE 00 00); pages are read as UTF-8: save it as UTF-8)',
      "blank-line.mdx:1 warning: front matter read as the page's (its keys, `groups` among them, apply here), but its opening --- comes after a line break, so the platform shows the front matter as text: start the file with ---, saved as UTF-8",
      "bom-inside.mdx:1 warning: front matter read as the page's (its keys, `groups` among them, apply here), but it holds a byte order mark (U+FEFF), which the platform reads as part of a key or value (`\\uFEFFgroups` is no `groups`): delete the U+FEFF, saved as UTF-8",
      "snippets/tabbed.mdx:1 warning: front matter read as the page's (its keys, `groups` among them, apply here), but its opening --- comes after spaces or tabs, so the platform shows the front matter as text: start the file with ---, saved as UTF-8",
      "snippets/wide.mdx:1 warning: skipped: invalid front matter: the file is saved as UTF-16 (its first bytes are the byte order mark FF FE or FE FF); pages are read as UTF-8: save it as UTF-8",
      "tab.mdx:1 warning: front matter read as the page's (its keys, `groups` among them, apply here), but its opening --- comes after spaces or tabs, so the platform shows the front matter as text: start the file with ---, saved as UTF-8",
      "two-boms.mdx:1 warning: front matter read as the page's (its keys, `groups` among them, apply here), but its opening --- comes after 2 byte order marks (U+FEFF), so the platform shows the front matter as text: start the file with ---, saved as UTF-8",
      "utf16-bom.mdx:1 warning: skipped: invalid front matter: the file is saved as UTF-16 (its first bytes are the byte order mark FF FE or FE FF); pages are read as UTF-8: save it as UTF-8",
      "utf16-nobom.mdx:1 warning: skipped: invalid front matter: the file is saved as UTF-16 or UTF-32 (its first line holds NUL bytes); pages are read as UTF-8: save it as UTF-8",
      "utf16be-bom.mdx:1 warning: skipped: invalid front matter: the file is saved as UTF-16 (its first bytes are the byte order mark FF FE or FE FF); pages are read as UTF-8: save it as UTF-8",
      "utf32-bom.mdx:1 warning: skipped: invalid front matter: the file is saved as UTF-32 (its first bytes are the byte order mark FF FE 00 00); pages are read as UTF-8: save it as UTF-8",
      "checked docs.json and 6 pages: 0 errors, 14 warnings",
      "",
    ].join("\n"),
    );
  });
});

describe("the same site on the reading threads' path (`LIMITS.load.readAheadFrom` pages or more)", () => {
  let big = "";
  beforeAll(() => {
    big = mkdtempSync(join(tmpdir(), "fm-encoding-big-"));
    writeFileSync(join(big, "docs.json"), JSON.stringify({ name: "Shapes", navigation: { groups: [{ group: "All", pages: ["index"] }] } }));
    writeFileSync(join(big, "index.mdx"), "---\ntitle: Home\n---\n\nWelcome.\n");
    mkdirSync(join(big, "filler"));
    for (let i = 0; i < LIMITS.load.readAheadFrom; i++) writeFileSync(join(big, `filler/p${i}.mdx`), `---\ntitle: Filler ${i}\n---\n\nText — ${i}.\n`);
    for (const [name, bytes] of Object.entries(SHAPES)) writeFileSync(join(big, `${name}.mdx`), bytes);
  });
  afterAll(() => rmSync(big, { recursive: true, force: true }));

  it("shows the anonymous reader none of them, and staff those whose front matter was read", async () => {
    expect((await runCli(["fs", "grep -rl CONFIDENTIAL / ; echo done"], { cwd: big })).stdout).toBe("done\n");
    expect((await runCli(["fs", "--groups", "staff", "grep -rl CONFIDENTIAL /"], { cwd: big })).stdout).toBe("/blank-line.mdx\n/bom-inside.mdx\n/tab.mdx\n/two-boms.mdx\n");
  });
});
