/**
 * A key written to restrict a page but not as `groups` (`Groups`, `GROUPS`, a zero-width space
 * before it: `\u200Bgroups`, the invisible-character class of adversary round 61's U+FEFF): the
 * page was served to every reader, its rule read as an unknown key. Read as `groups` here (fail
 * closed: the platform reads only `groups` and would serve it to everyone, so `check` says to
 * rename the key). Through the CLI, whole outputs, the anonymous and the staff reader.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const KEYS: Record<string, string> = { capital: "Groups", upper: "GROUPS", zwsp: "\u200Bgroups", "quoted-space": '"groups "' };

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "groups-lookalike-"));
  writeFileSync(join(dir, "docs.json"), JSON.stringify({ name: "Keys", navigation: { pages: ["index", ...Object.keys(KEYS)] } }));
  writeFileSync(join(dir, "index.mdx"), "---\ntitle: Home\n---\n\nWelcome.\n");
  for (const [name, key] of Object.entries(KEYS)) writeFileSync(join(dir, `${name}.mdx`), `---\ntitle: Pay ${name}\n${key}: [staff]\n---\n\nCONFIDENTIAL ${name}.\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fs = async (command: string, groups?: string) => (await runCli(["fs", "--dir", dir, ...(groups !== undefined ? ["--groups", groups] : []), command])).stdout;

describe("a groups key written another way", () => {
  it("restricts the page: the anonymous reader sees none of it, staff see all", async () => {
    expect(await fs("ls /")).toBe("index.mdx\nskill.md\n");
    expect(await fs("rg -c CONFIDENTIAL /")).toBe("");
    expect(await fs("ls /", "staff")).toBe("capital.mdx\nindex.mdx\nquoted-space.mdx\nskill.md\nupper.mdx\nzwsp.mdx\n");
  });

  it("check says each key is read as groups and the platform would not", async () => {
    const r = await runCli(["check", "--dir", dir]);
    const why = "warning: is read as `groups` here, restricting the page to the groups it names; the platform reads only a key written exactly `groups` and would serve the page to everyone: rename the key";
    expect(r.stdout).toBe(
      [
        `capital.mdx:3 Groups: ${why}`,
        `quoted-space.mdx:3 groups : ${why}`,
        `upper.mdx:3 GROUPS: ${why}`,
        // Printed escaped (row 200: a zero-width character in what check quotes is shown as \u200B).
        `zwsp.mdx:3 \\u200Bgroups: ${why}`,
        "checked docs.json and 5 pages: 0 errors, 4 warnings",
        "",
      ].join("\n"),
    );
  });
});
