/**
 * Adversary round 63 F2: an invisible character before a restricted page's opening `---` (a
 * zero-width space, a joiner, U+2060, a bidi mark, U+00A0, U+3000, U+2028, U+180E, a vertical tab,
 * U+FEFF then U+200B...) made its front matter unread: the page, a snippet, a SKILL.md were served
 * to every reader (shell, search, resources) and `check` said nothing. Row 197 read front matter
 * after blank lines, spaces or tabs; now any run of characters that show as nothing or as blank
 * space (`INVISIBLE_CLASS`) is such a lead: the front matter is the page's, its `groups` apply, and
 * `check` names the characters. Text after the opening `---` on its line (a U+2028 there looks
 * like a line break) was dropped with the `groups` in it; such a page is now refused as front
 * matter that does not parse is. Through the SDK client (anonymous and staff) and `check`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";

/** Each lead, by the page it starts. */
const LEADS: Record<string, string> = {
  zwsp: "\u200B",
  zwnj: "\u200C",
  zwj: "\u200D",
  "word-joiner": "\u2060",
  lrm: "\u200E",
  rlm: "\u200F",
  nbsp: "\u00A0",
  ideographic: "\u3000",
  "line-separator": "\u2028",
  mongolian: "\u180E",
  "vertical-tab": "\v",
  "bom-zwsp": "\uFEFF\u200B",
  "hangul-filler": "\u3164",
  mixed: "\u200B\u00A0\u2060\u200D\u3000\u200C",
};

const page = (name: string): string => `${LEADS[name] as string}---\ntitle: Payroll ${name}\ngroups: [staff]\n---\n\nThe salary table is CONFIDENTIAL ${name}.\n`;

let dir = "";
let runtime: DocsRuntime;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "fm-invisible-lead-"));
  writeFileSync(join(dir, "docs.json"), JSON.stringify({ name: "Leads", navigation: { groups: [{ group: "All", pages: ["index", ...Object.keys(LEADS)] }] } }));
  writeFileSync(join(dir, "index.mdx"), "---\ntitle: Home\n---\n\nWelcome.\n");
  for (const name of Object.keys(LEADS)) writeFileSync(join(dir, `${name}.mdx`), page(name));
  // Snippets and skills are read by the same rule (`parseFrontMatter`).
  mkdirSync(join(dir, "snippets"));
  writeFileSync(join(dir, "snippets/salary.mdx"), "\u200B---\ngroups: [staff]\n---\n\nThe salary CONFIDENTIAL snippet.\n");
  // A line separator after the opening `---` (editors show a line break there): gray-matter took
  // the rest of that line, `groups` and all, as a language name and dropped it.
  writeFileSync(join(dir, "opening-line.mdx"), "---\u2028groups: [staff]\ntitle: Payroll opening-line\n---\n\nThe salary table is CONFIDENTIAL opening-line.\n");
  writeFileSync(join(dir, "opening-word.mdx"), "---groups: [staff]\n---\n\nThe salary table is CONFIDENTIAL opening-word.\n");
  mkdirSync(join(dir, "skills/oncall"), { recursive: true });
  writeFileSync(join(dir, "skills/oncall/SKILL.md"), "\u00A0---\nname: oncall\ndescription: On-call procedures.\ngroups: [staff]\n---\n\nCONFIDENTIAL on-call steps.\n");
  runtime = await DocsRuntime.load({ root: dir });
});
afterAll(async () => {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

const SEARCH = "search_leads";
const FS = "query_docs_filesystem_leads";

describe("a restricted page, snippet or skill after an invisible lead", () => {
  it("is nowhere for the anonymous reader: shell, search, resources", async () => {
    const anon = await connect(runtime);
    const shell = await anon.call(FS, { command: "ls /; rg -l CONFIDENTIAL /; cat /zwsp.mdx /snippets/salary.mdx /skills/oncall/SKILL.md" });
    expect(anon.text(shell)).toBe(
      "index.mdx\nskill.md\n" +
        "cat: /zwsp.mdx: No such file or directory\ncat: /snippets/salary.mdx: No such file or directory\ncat: /skills/oncall/SKILL.md: No such file or directory\n[exit code 1]\n" +
        "/skills/oncall/SKILL.md does not exist. Did you mean: /skill.md?",
    );
    const search = await anon.call(SEARCH, { query: "salary CONFIDENTIAL" });
    expect((search.structuredContent as { results: unknown[] }).results).toEqual([]);
    expect((await anon.client.listResources()).resources.map((r) => r.uri)).toEqual(["docs://leads/skill.md"]);
    await anon.close();
  });

  it("is read by staff with its front matter: title, skill and search", async () => {
    const staff = await connect(runtime, readerWithGroups(["staff"]));
    const shell = await staff.call(FS, { command: "ls /snippets /skills/oncall; rg -l CONFIDENTIAL / | sort" });
    const names = Object.keys(LEADS).sort();
    const paths = [...names.map((n) => `/${n}.mdx`), "/skills/oncall/SKILL.md", "/snippets/salary.mdx"].sort();
    expect(staff.text(shell)).toBe(["/skills/oncall:", "SKILL.md", "", "/snippets:", "salary.mdx", ...paths, ""].join("\n"));
    const search = await staff.call(SEARCH, { query: "salary CONFIDENTIAL", pageSize: 50 });
    const titles = (search.structuredContent as { results: { title: string }[] }).results.map((r) => r.title).sort();
    expect(titles).toEqual(names.map((n) => `Payroll ${n}`).sort());
    expect((await staff.client.listResources()).resources.map((r) => `${r.uri} ${r.name}`)).toEqual(["docs://leads/skills/oncall/SKILL.md oncall"]);
    await staff.close();
  });

  it("check names each lead's characters and what to do", async () => {
    const run = await runCli(["check"], { cwd: dir });
    const warn = (lead: string) => `warning: front matter read as the page's (its keys, \`groups\` among them, apply here), but its opening --- comes after ${lead}, so the platform shows the front matter as text: start the file with ---, saved as UTF-8`;
    expect(run.stdout + run.stderr).toBe(
      [
        `bom-zwsp.mdx:1 ${warn("an invisible character (U+200B)")}`,
        `hangul-filler.mdx:1 ${warn("an invisible character (U+3164)")}`,
        `ideographic.mdx:1 ${warn("an invisible character (U+3000)")}`,
        `line-separator.mdx:1 ${warn("an invisible character (U+2028)")}`,
        `lrm.mdx:1 ${warn("an invisible character (U+200E)")}`,
        `mixed.mdx:1 ${warn("invisible characters (U+200B, U+00A0, U+2060, U+200D, ...)")}`,
        `mongolian.mdx:1 ${warn("an invisible character (U+180E)")}`,
        `nbsp.mdx:1 ${warn("an invisible character (U+00A0)")}`,
        'opening-line.mdx:1 warning: skipped: invalid front matter: the line that opens it holds more than ---: "\\u2028groups: [staff]"; write --- alone on the first line',
        'opening-word.mdx:1 warning: skipped: invalid front matter: the line that opens it holds more than ---: "groups: [staff]"; write --- alone on the first line',
        `rlm.mdx:1 ${warn("an invisible character (U+200F)")}`,
        "skills/oncall/SKILL.md warning: page is not in the navigation, so search leaves it out (seo.indexing \"all\" includes it)",
        `skills/oncall/SKILL.md:1 ${warn("an invisible character (U+00A0)")}`,
        `snippets/salary.mdx:1 ${warn("an invisible character (U+200B)")}`,
        `vertical-tab.mdx:1 ${warn("an invisible character (U+000B)")}`,
        `word-joiner.mdx:1 ${warn("an invisible character (U+2060)")}`,
        `zwj.mdx:1 ${warn("an invisible character (U+200D)")}`,
        `zwnj.mdx:1 ${warn("an invisible character (U+200C)")}`,
        `zwsp.mdx:1 ${warn("an invisible character (U+200B)")}`,
        "checked docs.json and 17 pages: 0 errors, 19 warnings",
        "",
      ].join("\n"),
    );
  });
});
