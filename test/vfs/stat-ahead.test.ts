import { lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { startStatAhead } from "../../src/vfs/stat-ahead.js";

/** The cached pages' stats of a start from the site cache, taken by a thread (issue 22). */
describe("stats taken ahead by a thread", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("are lstat's own, field for field, in the load's order: a file, a missing path, a folder, a link (not followed)", () => {
    const root = mkdtempSync(join(tmpdir(), "svc-stat-ahead-"));
    dirs.push(root);
    const rels: string[] = [];
    for (let i = 0; i < LIMITS.load.readAheadFrom; i++) {
      const rel = `v${i % 7}/page-${i}.mdx`;
      mkdirSync(join(root, `v${i % 7}`), { recursive: true });
      writeFileSync(join(root, rel), "x".repeat(i % 50));
      rels.push(rel);
    }
    mkdirSync(join(root, "folder.mdx"));
    symlinkSync("v0/page-0.mdx", join(root, "link.mdx"));
    rels.push("missing.mdx", "folder.mdx", "link.mdx");
    const ahead = startStatAhead(`${root}/`, rels);
    expect(ahead).toBeDefined();
    try {
      // Asked out of order too: the last first, then every one.
      const asked = [rels.length - 1, ...rels.keys()];
      const got = asked.map((n) => ahead?.stat(n));
      const wanted = asked.map((n) => {
        const st = lstatSync(join(root, rels[n] as string), { throwIfNoEntry: false });
        return st === undefined ? undefined : { file: st.isFile(), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, ctimeMs: st.ctimeMs };
      });
      expect(got).toEqual(wanted);
      expect(got.slice(-3)).toEqual([undefined, expect.objectContaining({ file: false }), expect.objectContaining({ file: false })]);
    } finally {
      ahead?.close();
    }
  });

  it("stats a folder's files only once it is opened (its watch made), the rest at openAll; not the files not trusted", () => {
    const root = mkdtempSync(join(tmpdir(), "svc-stat-ahead-"));
    dirs.push(root);
    const rels: string[] = [];
    for (let i = 0; i < LIMITS.load.readAheadFrom; i++) {
      const rel = i % 3 === 0 ? `page-${i}.mdx` : `v${i % 3}/deep/page-${i}.mdx`;
      mkdirSync(join(root, `v${i % 3}`, "deep"), { recursive: true });
      writeFileSync(join(root, rel), "x".repeat(i % 50));
      rels.push(rel);
    }
    const trusted = Uint8Array.from(rels, (_, n) => (n === 5 ? 0 : 1));
    const ahead = startStatAhead(`${root}/`, rels, { trusted, gated: true });
    expect(ahead).toBeDefined();
    try {
      // Changed after the thread started, before their folders are opened: the stats are of the files as changed.
      writeFileSync(join(root, rels[1] as string), "changed after the start");
      writeFileSync(join(root, rels[3] as string), "the root's page, changed too");
      ahead?.open("v1/deep");
      ahead?.open("");
      ahead?.openAll();
      const got = rels.map((_, n) => ahead?.stat(n));
      const wanted = rels.map((rel) => {
        const st = lstatSync(join(root, rel));
        return { file: true, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, ctimeMs: st.ctimeMs };
      });
      expect(got).toEqual(wanted);
    } finally {
      ahead?.close();
    }
  });

  it("is not started for fewer files than a thread is worth (the load stats them itself)", () => {
    expect(startStatAhead("/nowhere/", ["a.mdx"])).toBeUndefined();
  });
});
