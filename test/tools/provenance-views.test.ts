/**
 * The provenance commit past many classes of readers (issue 25): the commit shown was kept per
 * visibility class, the 4,096 most recent; past that the oldest class was forgotten and shown
 * the commit then current, which moves with commits to pages it may not read. Now it is kept
 * per view (readers who see the same share one, whatever their number), and a view forgotten
 * is shown no commit, never a newer one.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { PROVENANCE_META_KEY, ViewCommits } from "../../src/mcp/provenance.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { connect } from "../helpers/mcp.js";

const SHA_A = "a".repeat(40);
const SHA_E = "e".repeat(40);
const T_GUIDE = new Date("2026-03-01T10:00:00.000Z");

let dir: string;
let runtime: DocsRuntime;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-mcp-provenance-views-"));
  write("docs/.git/HEAD", "ref: refs/heads/main\n");
  write("docs/.git/refs/heads/main", `${SHA_A}\n`);
  write("docs/docs.json", JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guide", "staff"] }] } }));
  write("docs/guide.mdx", "---\ntitle: Webhooks\n---\nVerify the webhook signature.");
  write("docs/staff.mdx", "---\ntitle: Runbook\ngroups: [staff]\n---\nRotate the webhook secret.");
  for (const f of ["docs/docs.json", "docs/guide.mdx", "docs/staff.mdx"]) utimesSync(join(dir, f), T_GUIDE, T_GUIDE);
  runtime = await DocsRuntime.load({ root: join(dir, "docs") });
});

afterAll(async () => {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the commit shown past 4,096 classes of readers", () => {
  it("a reader whose pages did not change keeps its commit after a staff-only commit and 4,096 other classes", async () => {
    const anon = await connect(runtime);
    try {
      const provenance = async () => ((await anon.call("search_acme", { query: "webhook signature" }))._meta as Record<string, unknown>)[PROVENANCE_META_KEY];
      const expected = { commit: SHA_A, lastModified: T_GUIDE.toISOString(), ttlMs: 60_000 };
      expect(await provenance()).toEqual(expected);
      // A commit of the staff page alone.
      write("docs/.git/refs/heads/main", `${SHA_E}\n`);
      write("docs/staff.mdx", "---\ntitle: Runbook\ngroups: [staff]\n---\nRotate the webhook secret, then tell the on-call.");
      await runtime.applyChanges(["staff.mdx"]);
      expect(await provenance()).toEqual(expected);
      // 4,096 classes of readers (groups no page names: they see what the anonymous reader sees).
      for (let i = 0; i < 4_096; i++) {
        const other = await connect(runtime, readerWithGroups([`team-${i}`]));
        try {
          await other.call("search_acme", { query: "webhook" });
        } finally {
          await other.close();
        }
      }
      expect(await provenance()).toEqual(expected);
    } finally {
      await anon.close();
    }
  });
});

describe("ViewCommits", () => {
  const view = (c: string): string => c.repeat(64);
  it("remembers each view's first commit; a view forgotten is shown no commit, a new one the commit now", () => {
    const commits = new ViewCommits(2, 1 << 16);
    const shown: (string | undefined)[] = [];
    shown.push(commits.commitFor(view("1"), SHA_A));
    shown.push(commits.commitFor(view("2"), SHA_A));
    // Shown again: remembered, and the most recent.
    shown.push(commits.commitFor(view("1"), SHA_E));
    // A third view forgets the least recently shown (view 2).
    shown.push(commits.commitFor(view("3"), SHA_E));
    shown.push(commits.commitFor(view("1"), SHA_E));
    shown.push(commits.commitFor(view("2"), SHA_E));
    shown.push(commits.commitFor(view("2"), SHA_E));
    shown.push(commits.commitFor(view("4"), SHA_E));
    expect(shown).toEqual([SHA_A, SHA_A, SHA_A, SHA_E, SHA_A, undefined, undefined, SHA_E]);
  });
});
