import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DocsRuntime, type RuntimeChange } from "../../src/engine/runtime.js";
import { tempRepo } from "../config/temp-repo.js";
import { connect } from "../helpers/mcp.js";

// An ignore file emptied while serving (adversary round 57, left open by row 184): `: > .svcignore`,
// or `cmd > .svcignore` whose writer pauses past the settle period, settles empty. Taken as
// written it was no rules: the drafts it excluded were served until the rest came. It keeps its
// last good rules until it has content again, as one deleted does (test/vfs/ignore-last-good.test.ts).
//
// Each step waits for the reload that shows it (a change event whose snapshot satisfies `shows`),
// never for time; a wait that can never end (a reload that never comes) is the suite's hang
// detector's (vitest.config.ts).
const DOCS = (group: string) => ({ name: "Vault", navigation: { groups: [{ group, pages: ["index"] }] } });
const SITE = { "docs.json": DOCS("Home"), "index.mdx": "# Home\n", "secret/plan.mdx": "# Plan\n\nEXCLUDED\n" };
const EMPTY = (file: string) => `${file} is empty; still applying its last good ignore rules until it has content again; delete it and restart to serve without them`;
const MISSING = (file: string) => `${file} is missing; still applying its last good ignore rules; put it back, or restart to serve without it`;

async function served(files: Record<string, string | object>) {
  const root = tempRepo(files);
  const logs: string[] = [];
  const runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m) });
  await runtime.watch();
  const c = await connect(runtime);
  const find = async () => c.text(await c.call(`query_docs_filesystem_${runtime.names.slug}`, { command: "find / -type f" }));
  const grep = async () => c.text(await c.call(`query_docs_filesystem_${runtime.names.slug}`, { command: "grep -rl EXCLUDED / ; echo done" }));
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
  const has = (code: string) => (change: RuntimeChange) => change.site.diagnostics.some((d) => d.code === code);
  /** The reload that read the ignore file empty: kept (its finding), or served without it (secret/ in). */
  const readEmpty = (change: RuntimeChange) => has("ignore-file-empty")(change) || change.site.files.has("/secret/plan.mdx");
  const close = async () => {
    await c.close();
    await runtime.close();
  };
  return { root, logs, runtime, find, grep, edit, has, readEmpty, close };
}

describe("an ignore file emptied while serving keeps its last good rules", () => {
  for (const name of [".svcignore", ".mintignore"]) {
    it(`${name} truncated, a docs.json edit while it is empty, then written again: secret/ never served between; the new rules apply`, async () => {
      const s = await served({ ...SITE, [name]: "secret/\n" });
      try {
        const before = await s.find();
        await s.edit(() => writeFileSync(join(s.root, name), ""), s.readEmpty);
        const emptied = { find: await s.find(), grep: await s.grep() };
        // A whole reload while it is still empty keeps the rules, and says nothing again.
        await s.edit(() => writeFileSync(join(s.root, "docs.json"), JSON.stringify(DOCS("Start"))), (change) => change.site.config.sections[0]?.title === "Start");
        const reloaded = await s.find();
        await s.edit(() => writeFileSync(join(s.root, name), "secret/draft.mdx\n"), (change) => change.site.files.has("/secret/plan.mdx"));
        expect({ before, emptied, reloaded, rewritten: await s.find(), logs: s.logs }).toEqual({
          before: "/index.mdx\n/skill.md\n",
          emptied: { find: "/index.mdx\n/skill.md\n", grep: "done\n" },
          reloaded: "/index.mdx\n/skill.md\n",
          rewritten: "/index.mdx\n/secret/plan.mdx\n/skill.md\n",
          logs: [EMPTY(name)],
        });
      } finally {
        await s.close();
      }
    });
  }

  // Adversary round 63 F4: no rule and no comment is an emptied file, whatever whitespace is left.
  for (const [label, blank] of [
    ["a newline (`echo > .svcignore`)", "\n"],
    ["blank lines of spaces, tabs and CRLFs, after a byte order mark", "\uFEFF \n\t\n\r\n\n"],
  ] as const) {
    it(`rewritten to ${label}: kept as an emptied one is; rules again apply`, async () => {
      const s = await served({ ...SITE, ".svcignore": "secret/\n" });
      try {
        await s.edit(() => writeFileSync(join(s.root, ".svcignore"), blank), s.readEmpty);
        const blanked = { find: await s.find(), grep: await s.grep() };
        await s.edit(() => writeFileSync(join(s.root, ".svcignore"), "secret/draft.mdx\n"), (change) => change.site.files.has("/secret/plan.mdx"));
        expect({ blanked, rewritten: await s.find(), logs: s.logs }).toEqual({
          blanked: { find: "/index.mdx\n/skill.md\n", grep: "done\n" },
          rewritten: "/index.mdx\n/secret/plan.mdx\n/skill.md\n",
          logs: [EMPTY(".svcignore")],
        });
      } finally {
        await s.close();
      }
    });
  }

  it("blank at start is no rules, as an empty one is", async () => {
    const s = await served({ ...SITE, ".svcignore": "\n\n" });
    try {
      expect({ find: await s.find(), logs: s.logs }).toEqual({ find: "/index.mdx\n/secret/plan.mdx\n/skill.md\n", logs: [] });
    } finally {
      await s.close();
    }
  });

  it("emptied, then deleted: still kept, said for each", async () => {
    const s = await served({ ...SITE, ".svcignore": "secret/\n" });
    try {
      await s.edit(() => writeFileSync(join(s.root, ".svcignore"), ""), s.readEmpty);
      const emptied = await s.find();
      await s.edit(() => rmSync(join(s.root, ".svcignore")), s.has("ignore-file-missing"));
      const deleted = await s.find();
      expect({ emptied, deleted, logs: s.logs }).toEqual({ emptied: "/index.mdx\n/skill.md\n", deleted: "/index.mdx\n/skill.md\n", logs: [EMPTY(".svcignore"), MISSING(".svcignore")] });
    } finally {
      await s.close();
    }
  });

  it("an ignore file with content again but no rules (a comment) serves what it excluded", async () => {
    const s = await served({ ...SITE, ".svcignore": "secret/\n" });
    try {
      await s.edit(() => writeFileSync(join(s.root, ".svcignore"), ""), s.readEmpty);
      await s.edit(() => writeFileSync(join(s.root, ".svcignore"), "# nothing is excluded\n"), (change) => change.site.files.has("/secret/plan.mdx"));
      expect({ find: await s.find(), logs: s.logs }).toEqual({ find: "/index.mdx\n/secret/plan.mdx\n/skill.md\n", logs: [EMPTY(".svcignore")] });
    } finally {
      await s.close();
    }
  });
});
