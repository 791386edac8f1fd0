import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect, it } from "vitest";
import { tempRepo } from "../config/temp-repo.js";
import { REPO } from "../helpers/paths.js";
import { TestClient } from "../helpers/test-client.js";

// Adversary round 57 F3 and F6 (row 186), checked then only by hand as an unprivileged user: a
// page made unreadable while serving keeps its last good version, through a whole reload too (a
// docs.json edit); a docs root made unreadable stops the reload and keeps the last good state
// whole, and the paths it was given are applied with the next change once it can be read.
//
// Root may read a file of mode 000 (the DAC override capabilities): as root the server runs
// without them (setpriv drops them, as in fail-closed.test.ts), still the owner of the temp
// copy, so a mode of 000 refuses it as it would any user. Running it as another user (uid
// 65534) would instead depend on that user reaching the checkout and the temp folder. Each step
// waits for the server's own line on stderr, never for time; a line that never comes is the
// suite's hang detector's (vitest.config.ts).
const ALPHA = "---\ntitle: Alpha\n---\n\nAlpha words.\n";
/** Undone after each test, also one stopped by its limit (whose own `finally` never runs). */
const undo: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
});

const DOCS = (name: string) => JSON.stringify({ name, navigation: { groups: [{ group: "Home", pages: ["index", "guides/alpha", "guides/beta"] }] } });

it("a page and then the docs root made unreadable (chmod 000) under a served process: the last good state serves throughout, each said once", async () => {
  const root = tempRepo({ "docs.json": DOCS("Vault"), "index.mdx": "# Home\n", "guides/alpha.mdx": ALPHA, "guides/beta.mdx": "# Beta\n" });
  const home = mkdtempSync(join(tmpdir(), "svc-unreadable-home-"));
  undo.push(() => rmSync(home, { recursive: true, force: true }));
  undo.push(() => chmodSync(root, 0o755));
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
  const said = (line: string) => new Promise<void>((resolve) => (stderr.includes(line) ? resolve() : waiters.push({ line, resolve })));
  const client = new TestClient({ name: "live-unreadable", version: "1" });
  undo.push(async () => {
    await client.close();
  });
  await client.connect(transport);
  {
    // The site's name is in its tools' names: a docs.json edit renaming it is seen applied by the
    // client's own notification that the tools changed.
    let site = "vault";
    const renamed = (to: string) =>
      new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
          site = to;
          resolve();
        }),
      );
    const sh = async (command: string) => ((await client.callTool({ name: `query_docs_filesystem_${site}`, arguments: { command } })).content as { text: string }[])[0]?.text;
    const state = async () => ({ find: await sh("find / -type f"), alpha: await sh("cat /guides/alpha.mdx") });
    const before = await state();
    const started = stderr.length;

    // F6, then a whole reload: the page keeps its last good version. Rewritten as it is made
    // unreadable (one change as the watcher settles it), so the whole reload cannot take the page
    // as unchanged by its size and time: it reads the file again, and is refused.
    writeFileSync(join(root, "guides/alpha.mdx"), "---\ntitle: Alpha, rewritten\n---\n\nNew words.\n");
    chmodSync(join(root, "guides/alpha.mdx"), 0o000);
    await said("svc-mcp: guides/alpha.mdx warning: skipped: cannot read (permission denied) (keeping the last good version)");
    const unreadablePage = await state();
    const toTwo = renamed("vault_two");
    writeFileSync(join(root, "docs.json"), DOCS("Vault Two"));
    await toTwo;
    const reloaded = await state();

    // F3: the root unreadable; the edit made meanwhile is applied once it can be read again.
    chmodSync(root, 0o000);
    const toThree = renamed("vault_three");
    writeFileSync(join(root, "docs.json"), DOCS("Vault Three"));
    await said("svc-mcp: error: reload failed, still serving the previous version: cannot list the folder . (permission denied); still serving the last good state until it can be read");
    const unreadableRoot = await state();
    chmodSync(root, 0o755);
    writeFileSync(join(root, "guides/beta.mdx"), "# Beta, again\n");
    await toThree;
    expect({ before, unreadablePage, reloaded, unreadableRoot, readable: await state(), beta: await sh("cat /guides/beta.mdx"), stderr: stderr.slice(started) }).toEqual({
      before: { find: "/guides/alpha.mdx\n/guides/beta.mdx\n/index.mdx\n/skill.md\n", alpha: ALPHA },
      unreadablePage: { find: "/guides/alpha.mdx\n/guides/beta.mdx\n/index.mdx\n/skill.md\n", alpha: ALPHA },
      reloaded: { find: "/guides/alpha.mdx\n/guides/beta.mdx\n/index.mdx\n/skill.md\n", alpha: ALPHA },
      unreadableRoot: { find: "/guides/alpha.mdx\n/guides/beta.mdx\n/index.mdx\n/skill.md\n", alpha: ALPHA },
      readable: { find: "/guides/alpha.mdx\n/guides/beta.mdx\n/index.mdx\n/skill.md\n", alpha: ALPHA },
      beta: "# Beta, again\n",
      stderr: [
        "svc-mcp: guides/alpha.mdx warning: skipped: cannot read (permission denied) (keeping the last good version)",
        "svc-mcp: error: reload failed, still serving the previous version: cannot list the folder . (permission denied); still serving the last good state until it can be read",
      ],
    });
  }
});
