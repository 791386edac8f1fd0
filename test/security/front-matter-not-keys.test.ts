/**
 * Adversary round 65 F1: front matter that YAML reads as something other than keys with values
 * (a list `- groups: [staff]`, a quoted string `'groups: [staff]'`, a number, a boolean) was read
 * as none, so the `groups` written in it did not apply: the page, a snippet (its text in the
 * public page that imports it, and in search) or a SKILL.md (`resources/list`) was every reader's,
 * also at once when a restricted page was edited into that form while serving, and `check` only
 * said the page had no title. A rule that cannot be read restricts to no reader: such front
 * matter is refused as YAML that does not parse is (served to no reader, the last good version
 * kept on a live edit), and `check` says so, when a rule word may be in it (`groups`, a misspelling
 * or a look-alike of it); without one it is read as none, as the platform reads it (a page written
 * with full-width colons stays served). Empty front matter is still none (an open page).
 * Through the SDK client (anonymous and staff) and `check`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime, type RuntimeChange } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";
import { reloadShowing } from "../helpers/reload-showing.js";

/** Pages refused, by the front matter they open with: no mapping, and a rule word in it. */
const PAGES: Record<string, string> = {
  list: "---\n- groups: [staff]\n---\n",
  string: "---\n'groups: [staff]'\n---\n",
  // A misspelling and a look-alike (Cyrillic о) of the key, as rows 198 and 213 read keys.
  typo: "---\n- grups: [staff]\n---\n",
  lookalike: "---\n'gr\u043Eups: [staff]'\n---\n",
  // After a lead (a blank line), YAML that is no mapping was read as the page's body.
  "lead-list": "\n---\n- groups: [staff]\n---\n",
};

/**
 * Pages still served, read as without front matter (as the platform reads them): no mapping and
 * no rule word in it, such as a Chinese page written with full-width colons (one string to YAML).
 */
const OPEN: Record<string, string> = {
  number: "---\n42\n---\n",
  boolean: "---\ntrue\n---\n",
  fullwidth: "---\n标题：《快速入门》\n---\n",
};

let dir = "";
let runtime: DocsRuntime;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "fm-not-keys-"));
  writeFileSync(join(dir, "docs.json"), JSON.stringify({ name: "Shapes", navigation: { groups: [{ group: "All", pages: ["index", "empty", "staff", ...Object.keys(PAGES), ...Object.keys(OPEN)] }] } }));
  writeFileSync(join(dir, "index.mdx"), '---\ntitle: Home\n---\nimport Salary from "/snippets/salary.mdx"\n\nWelcome.\n\n<Salary />\n');
  // Empty front matter is none: the page is open, as before.
  writeFileSync(join(dir, "empty.mdx"), "---\n---\nOpen page.\n");
  writeFileSync(join(dir, "staff.mdx"), "---\ntitle: Staff\ngroups: [staff]\n---\nThe staff page, SECRET staff.\n");
  for (const [name, front] of Object.entries(PAGES)) writeFileSync(join(dir, `${name}.mdx`), `${front}The salary table is SECRET ${name}.\n`);
  for (const [name, front] of Object.entries(OPEN)) writeFileSync(join(dir, `${name}.mdx`), `${front}An open page, ${name}.\n`);
  mkdirSync(join(dir, "snippets"));
  writeFileSync(join(dir, "snippets/salary.mdx"), "---\n- groups: [staff]\n---\nThe salary SECRET snippet.\n");
  mkdirSync(join(dir, "skills/oncall"), { recursive: true });
  writeFileSync(join(dir, "skills/oncall/SKILL.md"), "---\n- name: oncall\n  description: On-call procedures.\n  groups: [staff]\n---\nSECRET on-call steps.\n");
  mkdirSync(join(dir, "skills/pager"), { recursive: true });
  writeFileSync(join(dir, "skills/pager/SKILL.md"), "---\n'name: pager, groups: [staff]'\n---\nSECRET pager steps.\n");
  runtime = await DocsRuntime.load({ root: dir });
});
afterAll(async () => {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

const SEARCH = "search_shapes";
const FS = "query_docs_filesystem_shapes";

describe("front matter that is no mapping of keys", () => {
  it("serves the page, snippet and skill with a rule word to no anonymous reader (shell, search, resources); the others as without front matter", async () => {
    const anon = await connect(runtime);
    const shell = await anon.call(FS, { command: "ls -R /; grep -r SECRET /; cat /index.mdx" });
    expect(anon.text(shell)).toBe(
      "/:\nboolean.mdx\nempty.mdx\nfullwidth.mdx\nindex.mdx\nnumber.mdx\nskill.md\n" +
        '---\ntitle: Home\n---\nimport Salary from "/snippets/salary.mdx"\n\nWelcome.\n\n<Salary />\n',
    );
    const search = await anon.call(SEARCH, { query: "salary SECRET" });
    expect((search.structuredContent as { results: unknown[] }).results).toEqual([]);
    expect((await anon.client.listResources()).resources.map((r) => r.uri)).toEqual(["docs://shapes/skill.md"]);
    await anon.close();
  });

  it("serves them to no staff reader either; the staff page is theirs", async () => {
    const staff = await connect(runtime, readerWithGroups(["staff"]));
    const shell = await staff.call(FS, { command: "ls -R /; grep -r SECRET /" });
    expect(staff.text(shell)).toBe("/:\nboolean.mdx\nempty.mdx\nfullwidth.mdx\nindex.mdx\nnumber.mdx\nskill.md\nstaff.mdx\n/staff.mdx:The staff page, SECRET staff.\n");
    const search = await staff.call(SEARCH, { query: "salary SECRET" });
    expect((search.structuredContent as { results: { path: string }[] }).results.map((r) => r.path)).toEqual(["/staff"]);
    expect((await staff.client.listResources()).resources.map((r) => r.uri)).toEqual(["docs://shapes/skill.md"]);
    await staff.close();
  });

  it("check says each refused is served to no reader and what to write, and each read as none so", async () => {
    const run = await runCli(["check"], { cwd: dir });
    const why = (shape: string) =>
      `warning: skipped: invalid front matter: it is ${shape}, not keys with values, so a rule in it (\`groups\`) cannot be read and the page is served to no reader: write each key as \`key: value\` (\`title: Setup\`, \`groups: [staff]\`)`;
    const open = (shape: string) => `warning: front matter is ${shape}, not keys with values (\`title: Setup\`): read as none, so the page has no title, description or other setting from it`;
    const nav = (at: number, index: number, name: string, line: number, shape: string) =>
      `docs.json:1:${at} navigation.groups[0].pages[${index}]: warning: page "${name}" not found: ${name}.mdx is skipped (line ${line}: ${why(shape).slice("warning: skipped: ".length)})`;
    expect(run.stdout + run.stderr).toBe(
      [
        nav(90, 3, "list", 1, "a list"),
        nav(97, 4, "string", 1, "a string"),
        nav(106, 5, "typo", 1, "a list"),
        nav(113, 6, "lookalike", 1, "a string"),
        nav(125, 7, "lead-list", 2, "a list"),
        `boolean.mdx:1 ${open("a boolean")}`,
        `fullwidth.mdx:1 ${open("a string")}`,
        "index.mdx:8:1 warning: <Salary> comes from /snippets/salary.mdx, which the site does not serve (missing, ignored or unreadable): it shows the element's children",
        `lead-list.mdx:2 ${why("a list")}`,
        `list.mdx:1 ${why("a list")}`,
        `lookalike.mdx:1 ${why("a string")}`,
        `number.mdx:1 ${open("a number")}`,
        `skills/oncall/SKILL.md:1 ${why("a list")}`,
        `skills/pager/SKILL.md:1 ${why("a string")}`,
        `snippets/salary.mdx:1 ${why("a list")}`,
        `string.mdx:1 ${why("a string")}`,
        `typo.mdx:1 ${why("a list")}`,
        "checked docs.json and 6 pages: 0 errors, 17 warnings",
        "",
      ].join("\n"),
    );
  });
});

describe("a restricted page edited into a list while serving", () => {
  it("keeps its last good version, still restricted; a new page in that form is not served", async () => {
    const live = mkdtempSync(join(tmpdir(), "fm-not-keys-live-"));
    writeFileSync(join(live, "docs.json"), JSON.stringify({ name: "Live", navigation: { groups: [{ group: "All", pages: ["index", "payroll"] }] } }));
    writeFileSync(join(live, "index.mdx"), "---\ntitle: Home\n---\nWelcome.\n");
    const restricted = "---\ntitle: Payroll\ngroups: [staff]\n---\nThe payroll page.\n";
    writeFileSync(join(live, "payroll.mdx"), restricted);
    const served = await DocsRuntime.load({ root: live, watch: true });
    try {
      await served.watch();
      // The reload that read the edit: refused (said so), or, before the fix, served as written.
      const edited = "---\n- groups: [staff]\n---\nThe payroll page, SECRET now.\n";
      const read = (file: string, text: string) => (change: RuntimeChange) =>
        change.site.files.get(`/${file}`)?.text === text || change.diagnostics.some((d) => d.file === file && d.message.startsWith("skipped: invalid front matter: it is a list"));
      const editRead = reloadShowing(served, read("payroll.mdx", edited));
      writeFileSync(join(live, "payroll.mdx"), edited);
      await editRead;
      const fresh = "---\n- groups: [staff]\n---\nA new SECRET page.\n";
      const freshRead = reloadShowing(served, read("fresh.mdx", fresh));
      writeFileSync(join(live, "fresh.mdx"), fresh);
      await freshRead;
      const anon = await connect(served);
      expect(anon.text(await anon.call("query_docs_filesystem_live", { command: "ls /; grep -r SECRET /" }))).toBe("index.mdx\nskill.md\n[exit code 1]");
      await anon.close();
      const staff = await connect(served, readerWithGroups(["staff"]));
      expect(staff.text(await staff.call("query_docs_filesystem_live", { command: "ls /; cat /payroll.mdx" }))).toBe(`index.mdx\npayroll.mdx\nskill.md\n${restricted}`);
      await staff.close();
    } finally {
      await served.close();
      rmSync(live, { recursive: true, force: true });
    }
  });
});
