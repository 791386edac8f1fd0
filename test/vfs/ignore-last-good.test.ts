import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { DocsRuntime, type RuntimeChange } from "../../src/engine/runtime.js";
import { tempRepo } from "../config/temp-repo.js";
import { connect } from "../helpers/mcp.js";
import { REPO } from "../helpers/paths.js";
import { TestClient } from "../helpers/test-client.js";

// An ignore file that becomes unreadable or a folder while serving (issue 25, "unreadable ignore
// files"): the last good ignore rules keep applying, so nothing they exclude is served; the rest
// of an edit applies; the problem is said once; fixing the file applies its rules again. At
// start-up such a file still stops the load (test/vfs/fail-closed.test.ts).
const DOCS = (group: string) => ({ name: "Vault", navigation: { groups: [{ group, pages: ["index"] }] } });
const SITE = {
  "docs.json": DOCS("Home"),
  "index.mdx": "# Home\n",
  "secret/plan.mdx": "# Plan\n\nEXCLUDED\n",
  // Invalid front matter: its finding is logged by the reload that first reads it (the one that
  // applies the fixed rules), which the process test waits for.
  "secret/draft.mdx": "---\ntitle: [x\n---\n",
};
const BROKEN = (file: string, why: string) => `${file} cannot read (${why}); still applying the last good ignore rules until it is fixed`;
const MISSING = (file: string) => `${file} is missing; still applying its last good ignore rules; put it back, or restart to serve without it`;
const DRAFT = "secret/draft.mdx:3 warning: skipped: invalid front matter: unexpected end of the stream within a flow collection";

describe("an ignore file broken while serving keeps the last good ignore rules", () => {
  it(".svcignore replaced by a folder: secret/ stays out, a docs.json edit and a new exclusion apply, said once; the fixed file's rules apply", async () => {
    const root = tempRepo({ ...SITE, "note.mdx": "# Note\n", ".svcignore": "secret/\n" });
    const logs: string[] = [];
    const runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m) });
    await runtime.watch();
    const c = await connect(runtime);
    try {
      const find = async () => c.text(await c.call(`query_docs_filesystem_${runtime.names.slug}`, { command: "find / -type f" }));
      const groups = () => runtime.site.config.sections.map((s) => s.title);
      // Each edit waits for the reload that shows it (a change event after which `shows` holds),
      // never a sleep: a replaced file may arrive as two events, and so two reloads.
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
      const states = [{ find: await find(), groups: groups() }];
      // Each step of a replacement is waited for: a missing ignore file is a finding of its own.
      await edit(() => rmSync(join(root, ".svcignore")), (change) => change.site.diagnostics.some((d) => d.code === "ignore-file-missing"));
      await edit(() => mkdirSync(join(root, ".svcignore")), (change) => change.site.diagnostics.some((d) => d.code === "ignore-file-broken"));
      states.push({ find: await find(), groups: groups() });
      await edit(() => writeFileSync(join(root, "docs.json"), JSON.stringify(DOCS("Start"))), (change) => change.site.config.sections[0]?.title === "Start");
      states.push({ find: await find(), groups: groups() });
      // The other ignore file, readable, excludes a page now: a withdrawal applies at once.
      await edit(() => writeFileSync(join(root, ".mintignore"), "note.mdx\n"), (change) => !change.site.files.has("/note.mdx"));
      states.push({ find: await find(), groups: groups() });
      await edit(() => rmSync(join(root, ".svcignore"), { recursive: true }), (change) => change.site.diagnostics.some((d) => d.code === "ignore-file-missing"));
      states.push({ find: await find(), groups: groups() });
      await edit(() => writeFileSync(join(root, ".svcignore"), "secret/draft.mdx\n"), (change) => change.site.files.has("/secret/plan.mdx"));
      states.push({ find: await find(), groups: groups() });
      expect({ states, logs }).toEqual({
        states: [
          { find: "/index.mdx\n/note.mdx\n/skill.md\n", groups: ["Home"] },
          { find: "/index.mdx\n/note.mdx\n/skill.md\n", groups: ["Home"] },
          { find: "/index.mdx\n/note.mdx\n/skill.md\n", groups: ["Start"] },
          { find: "/index.mdx\n/skill.md\n", groups: ["Start"] },
          { find: "/index.mdx\n/skill.md\n", groups: ["Start"] },
          { find: "/index.mdx\n/secret/plan.mdx\n/skill.md\n", groups: ["Start"] },
        ],
        logs: [MISSING(".svcignore"), BROKEN(".svcignore", "is a folder, not a file"), MISSING(".svcignore")],
      });
    } finally {
      await c.close();
      await runtime.close();
    }
  });

  it("an ignore file deleted and written again (a two-step rewrite) never serves what it excludes between the steps; deleted for good, a restart serves without it", async () => {
    const root = tempRepo({ ...SITE, ".svcignore": "secret/\n" });
    const logs: string[] = [];
    const runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m) });
    await runtime.watch();
    const c = await connect(runtime);
    const find = async (r: DocsRuntime) => c.text(await c.call(`query_docs_filesystem_${r.names.slug}`, { command: "find / -type f" }));
    const reloaded = (shows: (change: RuntimeChange) => boolean): Promise<void> =>
      new Promise((resolve) => {
        const off = runtime.onChange((change) => {
          if (!shows(change)) return;
          off();
          resolve();
        });
      });
    try {
      const missing = reloaded((change) => change.site.diagnostics.some((d) => d.code === "ignore-file-missing"));
      rmSync(join(root, ".svcignore"));
      await missing;
      const between = await find(runtime);
      const back = reloaded((change) => change.site.diagnostics.length === 0);
      writeFileSync(join(root, ".svcignore"), "secret/\n");
      await back;
      const rewritten = await find(runtime);
      const goneAgain = reloaded((change) => change.site.diagnostics.some((d) => d.code === "ignore-file-missing"));
      rmSync(join(root, ".svcignore"));
      await goneAgain;
      expect({ between, rewritten, deleted: await find(runtime), logs }).toEqual({
        between: "/index.mdx\n/skill.md\n",
        rewritten: "/index.mdx\n/skill.md\n",
        deleted: "/index.mdx\n/skill.md\n",
        logs: [MISSING(".svcignore"), MISSING(".svcignore")],
      });
    } finally {
      await c.close();
      await runtime.close();
    }
    const restarted = await DocsRuntime.load({ root, log: () => {} });
    const c2 = await connect(restarted);
    try {
      expect(c2.text(await c2.call(`query_docs_filesystem_${restarted.names.slug}`, { command: "find / -type f" }))).toBe("/index.mdx\n/secret/plan.mdx\n/skill.md\n");
    } finally {
      await c2.close();
      await restarted.close();
    }
  });

  it(".mintignore made unreadable (chmod 000) under a served process: secret/ stays out, said once on stderr; readable again, its new rules apply", async () => {
    const root = tempRepo({ ...SITE, ".mintignore": "secret/\n" });
    const home = mkdtempSync(join(tmpdir(), "svc-ignore-home-"));
    // Root may read a file of mode 000 (the DAC override capabilities): as root the server runs
    // without them, as in fail-closed.test.ts, so the mode refuses it as it would any user.
    const cli = [process.execPath, join(REPO, "bin/svc-mcp.js"), "serve", "--dir", root];
    const dropDacOverride = ["--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search", "--"];
    const [command, ...args] = process.getuid?.() === 0 ? ["setpriv", ...dropDacOverride, ...cli] : cli;
    const transport = new StdioClientTransport({ command: command as string, args, stderr: "pipe", env: { PATH: process.env.PATH ?? "", HOME: home, SVC_MCP_CACHE: "off" } });
    const stderr: string[] = [];
    const waiters: { line: string; resolve: () => void }[] = [];
    let partial = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        stderr.push(line);
        for (const w of waiters.filter((x) => line === x.line)) w.resolve();
      }
    });
    // The reload's line on stderr is the event each step waits for.
    const said = (line: string) => new Promise<void>((resolve) => (stderr.includes(line) ? resolve() : waiters.push({ line, resolve })));
    const client = new TestClient({ name: "ignore-last-good", version: "1" });
    await client.connect(transport);
    try {
      const find = async () => ((await client.callTool({ name: "query_docs_filesystem_vault", arguments: { command: "find / -type f" } })).content as { text: string }[])[0]?.text;
      const before = await find();
      const started = stderr.length;
      chmodSync(join(root, ".mintignore"), 0o000);
      await said(`svc-mcp: ${BROKEN(".mintignore", "permission denied")}`);
      const broken = await find();
      chmodSync(join(root, ".mintignore"), 0o644);
      // Content with no rules: an empty one would keep the last good rules (test/vfs/ignore-emptied.test.ts).
      writeFileSync(join(root, ".mintignore"), "# nothing excluded now\n");
      await said(`svc-mcp: ${DRAFT}`);
      expect({ before, broken, fixed: await find(), stderr: stderr.slice(started) }).toEqual({
        before: "/index.mdx\n/skill.md\n",
        broken: "/index.mdx\n/skill.md\n",
        fixed: "/index.mdx\n/secret/plan.mdx\n/skill.md\n",
        stderr: [`svc-mcp: ${BROKEN(".mintignore", "permission denied")}`, `svc-mcp: ${DRAFT}`],
      });
    } finally {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
