import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime, type RuntimeChange } from "../../src/engine/runtime.js";
import { ALL_ACCESS, ANONYMOUS } from "../../src/vfs/access.js";
import { tempRepo } from "../config/temp-repo.js";
import { connect } from "../helpers/mcp.js";

// A page that no longer reads keeps its last good version on a single page's reload (adversary
// round 57 F6, row 186; test/tools/live-partial-writes.test.ts); a whole reload (docs.json
// edited, an ignore file, a spec) read it again and dropped it, or served it emptied: a
// restricted page emptied became a public page named after its file. Now the whole reload keeps
// it as the single page's reload does. (Unreadable pages: test/tools/live-unreadable.test.ts.)
//
// Each step waits for the reload that shows it (a change event whose snapshot satisfies `shows`),
// never for time; a wait that can never end is the suite's hang detector's (vitest.config.ts): a
// limit of its own (180 s) was too near what a loaded machine takes.
const DOCS = (group: string) => ({ name: "Vault", navigation: { groups: [{ group, pages: ["index", "guides/alpha", "guides/payroll"] }] } });
const ALPHA = "---\ntitle: Alpha\n---\n\nAlpha words.\n";
const PAYROLL = "---\ntitle: Payroll\ngroups: [staff]\n---\n\nSalaries LEAKMARKER_w57.\n";
const SITE = { "docs.json": DOCS("Home"), "index.mdx": "# Home\n", "guides/alpha.mdx": ALPHA, "guides/payroll.mdx": PAYROLL };

let running: { close: () => Promise<void> } | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function served() {
  const root = tempRepo(SITE);
  const logs: string[] = [];
  const runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m) });
  const anonymous = await connect(runtime, ANONYMOUS);
  const staff = await connect(runtime, ALL_ACCESS);
  running = {
    close: async () => {
      await anonymous.close();
      await staff.close();
      await runtime.close();
    },
  };
  await runtime.watch();
  const tool = `query_docs_filesystem_${runtime.names.slug}`;
  const anon = async (command: string) => anonymous.text(await anonymous.call(tool, { command }));
  const full = async (command: string) => staff.text(await staff.call(tool, { command }));
  /** Make an edit, then wait for the reload whose snapshot shows it. */
  const edit = async (write: () => void, shows: (change: RuntimeChange) => boolean): Promise<void> => {
    const changed = new Promise<void>((resolve) => {
      const off = runtime.onChange((change) => {
        if (!shows(change)) return;
        off();
        resolve();
      });
    });
    write();
    await changed;
  };
  const finding = (file: string) => (change: RuntimeChange) => change.site.diagnostics.some((d) => d.file === file);
  const group = (title: string) => (change: RuntimeChange) => change.site.config.sections[0]?.title === title;
  const docsJson = (title: string) => () => writeFileSync(join(root, "docs.json"), JSON.stringify(DOCS(title)));
  return { root, logs, anon, full, edit, finding, group, docsJson };
}

describe("a whole reload keeps a page's last good version as a single page's reload does", () => {
  it("front matter left unclosed, then docs.json edited: the page still serves its last good version, said once", async () => {
    const s = await served();
    const before = { ls: await s.anon("ls /guides"), cat: await s.anon("cat /guides/alpha.mdx") };
    await s.edit(() => writeFileSync(join(s.root, "guides/alpha.mdx"), "---\ntitle: Alpha LEAKMARKER_a57\n"), s.finding("guides/alpha.mdx"));
    await s.edit(s.docsJson("Start"), s.group("Start"));
    expect({ ls: await s.anon("ls /guides"), cat: await s.anon("cat /guides/alpha.mdx"), grep: await s.anon("grep -rl LEAKMARKER_a57 / ; echo done"), logs: s.logs }).toEqual({
      ...before,
      grep: "done\n",
      logs: ["guides/alpha.mdx:1 warning: skipped: invalid front matter: the --- that opens it has no closing --- line (keeping the last good version)"],
    });
  });

  it("front matter that does not parse and a docs.json edit in one save: the page keeps its last good version, said once as kept", async () => {
    const s = await served();
    const before = { ls: await s.anon("ls /guides"), cat: await s.anon("cat /guides/alpha.mdx") };
    // Written together: one reload or two (the watcher may hand them over apart), the same end.
    await s.edit(
      () => {
        writeFileSync(join(s.root, "guides/alpha.mdx"), "---\ntitle: [Alpha\n---\n\nAlpha words.\n");
        s.docsJson("Start")();
      },
      (change) => s.group("Start")(change) && s.finding("guides/alpha.mdx")(change),
    );
    expect({ ls: await s.anon("ls /guides"), cat: await s.anon("cat /guides/alpha.mdx"), logs: s.logs }).toEqual({
      ...before,
      logs: ["guides/alpha.mdx:3 warning: skipped: invalid front matter: unexpected end of the stream within a flow collection (keeping the last good version)"],
    });
  });

  it("a restricted page emptied, then docs.json edited: never a public page named after its file; staff keep its last good version", async () => {
    const s = await served();
    const before = { anon: await s.anon("ls /guides"), staff: await s.full("ls /guides") };
    expect(before).toEqual({ anon: "alpha.mdx\n", staff: "alpha.mdx\npayroll.mdx\n" });
    await s.edit(() => writeFileSync(join(s.root, "guides/payroll.mdx"), ""), s.finding("guides/payroll.mdx"));
    await s.edit(s.docsJson("Start"), s.group("Start"));
    expect({ anon: await s.anon("ls /guides"), staff: await s.full("ls /guides"), cat: await s.full("cat /guides/payroll.mdx"), logs: s.logs }).toEqual({
      ...before,
      cat: PAYROLL,
      logs: ["guides/payroll.mdx warning: skipped: the file is empty; served once it has content (keeping the last good version)"],
    });
  });

  it("a new page created empty, then docs.json edited: not served until it has content", async () => {
    const s = await served();
    const before = await s.full("ls /guides");
    await s.edit(() => writeFileSync(join(s.root, "guides/draft.mdx"), ""), s.finding("guides/draft.mdx"));
    await s.edit(s.docsJson("Start"), s.group("Start"));
    const between = await s.full("ls /guides");
    await s.edit(() => writeFileSync(join(s.root, "guides/draft.mdx"), "# Draft\n"), (change) => change.site.files.has("/guides/draft.mdx"));
    expect({ between, after: await s.full("ls /guides"), logs: s.logs }).toEqual({
      between: before,
      after: "alpha.mdx\ndraft.mdx\npayroll.mdx\n",
      logs: ["guides/draft.mdx warning: skipped: the file is empty; served once it has content"],
    });
  });
});
