/**
 * The per-reader pruning contract, through every command that reads: a page the reader may not
 * read does not exist for any command, glob or suggestion.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { Shell } from "../../src/engine/shell/shell.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { fixture } from "../helpers/paths.js";

let anon: Shell;
let staff: Shell;

beforeAll(async () => {
  const runtime = await DocsRuntime.load({ root: fixture("demo") });
  anon = runtime.readerState(localContext()).shell;
  staff = runtime.readerState(localContext(readerWithGroups(["staff"]))).shell;
});

describe("a page outside the reader's groups", () => {
  // The runbook (groups: staff) holds a marker; pricing (partners, staff) another.
  const searches = [
    "rg -l Marker /",
    "rg --files /",
    "grep -rl Marker /",
    "find / -name '*.mdx'",
    "tree /",
    "ls -R /",
    "echo /*/*.mdx",
    "cat /*/*.mdx | grep -c Marker",
    "du -a / 2>/dev/null | grep -c mdx",
  ];
  for (const command of searches) {
    it(`is invisible to \`${command}\``, async () => {
      const a = await anon.run(command);
      const s = await staff.run(command);
      expect(a.stdout).not.toMatch(/runbook|pricing|internal|partners|RUNBOOK|PARTNER-PRICING/);
      expect(s.stdout).not.toBe(a.stdout);
    });
  }

  it("cannot be read, listed or statted by path", async () => {
    for (const [command, stderr, exitCode] of [
      ["cat /internal/runbook.mdx", "cat: /internal/runbook.mdx: No such file or directory\n", 1],
      ["head -1 /partners/pricing.mdx", "head: cannot open '/partners/pricing.mdx' for reading: No such file or directory\n", 1],
      ["ls /internal", "ls: cannot access '/internal': No such file or directory\n", 2],
      ["stat -c %s /internal/runbook.mdx", "stat: cannot statx '/internal/runbook.mdx': No such file or directory\n", 1],
      ["rg Marker /partners", "/partners: No such file or directory (os error 2)\n", 2],
      ["grep -r Marker /internal", "grep: /internal: No such file or directory\n", 2],
      ["wc -l < /internal/runbook.mdx", "bash: /internal/runbook.mdx: No such file or directory\n", 1],
      // docs.json names every page, restricted ones included: it is not mounted for anyone.
      ["cat /docs.json", "cat: /docs.json: No such file or directory\n", 1],
    ] as const) {
      expect(await anon.run(command)).toEqual({ stdout: "", stderr, exitCode, truncated: false });
    }
  });

  it("is readable by a reader in the group", async () => {
    expect((await staff.run("grep -h Marker /partners/pricing.mdx")).stdout).toBe(
      "Marker: PARTNER-PRICING-91C2. Partners storing over 1 PB get 30% off list price.\n",
    );
  });

  it("is never suggested by did-you-mean", async () => {
    const a = await anon.run("cat /internal/runbok.mdx");
    expect(a.hint).toBeUndefined();
    const s = await staff.run("cat /internal/runbok.mdx");
    expect(s.hint).toBe("/internal/runbok.mdx does not exist. Did you mean: /internal/runbook.mdx?");
  });
});

describe("did-you-mean hints", () => {
  const cases: ReadonlyArray<[string, string]> = [
    ["cat /guides/webhook.mdx", "/guides/webhook.mdx does not exist. Did you mean: /guides/webhooks.mdx?"],
    ["ls /guide", "/guide does not exist. Did you mean: /guides?"],
    ["rg x /quickstart", "/quickstart does not exist. Did you mean: /quickstart.mdx?"],
    ["find /api/overveiw.mdx", "/api/overveiw.mdx does not exist. Did you mean: /api/overview.mdx?"],
    ["tree /gudes", "/gudes does not exist. Did you mean: /guides?"],
    ["sed -n 1p /Index.mdx", "/Index.mdx does not exist. Did you mean: /index.mdx?"],
    [
      "head /api/overveiw.mdx /api/auth.mdx",
      "/api/overveiw.mdx does not exist. Did you mean: /api/overview.mdx?\n/api/auth.mdx does not exist. Did you mean: /api/authentication.mdx?",
    ],
  ];
  for (const [command, hint] of cases) {
    it(command, async () => {
      const r = await anon.run(command);
      expect(r.hint).toBe(hint);
      expect(r.stderr).not.toContain("Did you mean");
    });
  }

  it("stays quiet when nothing is close, and when the command succeeded", async () => {
    expect((await anon.run("cat /zzzz/qqqq.xyz")).hint).toBeUndefined();
    expect((await anon.run("ls /guides")).hint).toBeUndefined();
  });
});
