import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { GitHead } from "../../src/mcp/git-head.js";
import { CommitCache, PROVENANCE_META_KEY } from "../../src/mcp/provenance.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { argumentError, connect } from "../helpers/mcp.js";

const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);
const SHA_C = "c".repeat(40);
/** Fixed file times, so results compare whole. */
const T_GUIDE = new Date("2026-03-01T10:00:00.000Z");
const T_STAFF = new Date("2026-05-01T10:00:00.000Z");
const T_OTHER = new Date("2026-01-01T10:00:00.000Z");

/** The docs are the checkout (`docs/.git`, written by hand: no git binary needed). */
const FILES: Record<string, string> = {
  "docs/.git/HEAD": "ref: refs/heads/main\n",
  "docs/.git/refs/heads/main": `${SHA_A}\n`,
  "docs/docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guide", "staff", "other"] }] } }),
  "docs/guide.mdx": "---\ntitle: Webhooks\n---\n## Signing\n\nVerify the webhook signature with your secret.",
  "docs/staff.mdx": "---\ntitle: Webhook runbook\ngroups: [staff]\n---\nRotate the webhook secret when it leaks.",
  "docs/other.mdx": "---\ntitle: Billing\n---\nInvoices are monthly.",
};

const SEARCH = "search_acme";
const FS = "query_docs_filesystem_acme";
let dir: string;
let runtime: DocsRuntime;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-mcp-provenance-"));
  for (const [path, text] of Object.entries(FILES)) write(path, text);
  utimesSync(join(dir, "docs/guide.mdx"), T_GUIDE, T_GUIDE);
  utimesSync(join(dir, "docs/staff.mdx"), T_STAFF, T_STAFF);
  utimesSync(join(dir, "docs/other.mdx"), T_OTHER, T_OTHER);
  runtime = await DocsRuntime.load({ root: join(dir, "docs"), baseUrl: "https://docs.acme.test" });
});

afterAll(async () => {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the commit of a checkout, read from .git", () => {
  const layouts: [string, Record<string, string>, string | undefined][] = [
    ["a branch's loose ref", { ".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": `${SHA_A}\n` }, SHA_A],
    ["a packed ref", { ".git/HEAD": "ref: refs/heads/main\n", ".git/packed-refs": `# pack-refs with: peeled fully-peeled sorted\n${SHA_C} refs/heads/dev\n${SHA_B} refs/heads/main\n^${SHA_C}\n` }, SHA_B],
    ["a detached HEAD", { ".git/HEAD": `${SHA_C}\n` }, SHA_C],
    ["a .git file naming a folder inside the root, with shared refs", { ".git": "gitdir: modules/w\n", "modules/w/HEAD": "ref: refs/heads/w\n", "modules/w/commondir": "../common\n", "modules/common/refs/heads/w": `${SHA_B}\n` }, SHA_B],
    // Nothing outside the docs root is read: a worktree's folder elsewhere, a checkout above.
    ["a .git file naming a folder outside the root", { ".git": "gitdir: ../repo/.git/worktrees/w\n", "../repo/.git/worktrees/w/HEAD": `${SHA_B}\n` }, undefined],
    ["a docs folder inside a larger checkout", { "../.git/HEAD": `${SHA_A}\n` }, undefined],
    ["an unborn branch", { ".git/HEAD": "ref: refs/heads/main\n" }, undefined],
    ["a ref that climbs out of .git", { ".git/HEAD": "ref: refs/../../secret\n" }, undefined],
    ["no checkout", {}, undefined],
  ];
  for (const [name, files, commit] of layouts) {
    it(name, async () => {
      const root = mkdtempSync(join(tmpdir(), "svc-mcp-git-"));
      try {
        const top = join(root, "top");
        for (const [path, text] of Object.entries(files)) {
          mkdirSync(dirname(join(top, path)), { recursive: true });
          writeFileSync(join(top, path), text);
        }
        mkdirSync(top, { recursive: true });
        expect(await new GitHead(top).commit()).toBe(commit);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});

describe("a .git that is not plain files", () => {
  it("a HEAD that is a pipe or a link out of the root gives no commit, and never waits on the pipe", async () => {
    const root = mkdtempSync(join(tmpdir(), "svc-mcp-git-"));
    try {
      mkdirSync(join(root, "piped/.git"), { recursive: true });
      execFileSync("mkfifo", [join(root, "piped/.git/HEAD")]);
      expect(await new GitHead(join(root, "piped")).commit()).toBeUndefined();
      writeFileSync(join(root, "HEAD-outside"), `${SHA_A}\n`);
      mkdirSync(join(root, "linked/.git"), { recursive: true });
      symlinkSync(join(root, "HEAD-outside"), join(root, "linked/.git/HEAD"));
      expect(await new GitHead(join(root, "linked")).commit()).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("provenance through the MCP client", () => {
  it("gives each search hit its page's time, and the result the commit, in structuredContent and _meta", async () => {
    const anon = await connect(runtime);
    try {
      const r = await anon.call(SEARCH, { query: "webhook signature" });
      const provenance = { commit: SHA_A, lastModified: T_GUIDE.toISOString(), ttlMs: 60_000 };
      expect(r.structuredContent).toEqual({
        results: [
          {
            title: "Webhooks",
            section: "Signing",
            path: "/guide",
            file: "/guide.mdx",
            url: "https://docs.acme.test/guide#signing",
            snippet: "Verify the webhook signature with your secret.",
            score: (r.structuredContent as { results: { score: number }[] }).results[0]?.score,
            lastModified: T_GUIDE.toISOString(),
          },
        ],
        provenance,
      });
      expect(r._meta).toEqual({ [PROVENANCE_META_KEY]: provenance });
    } finally {
      await anon.close();
    }
  });

  it("dates a reader's results by the pages they may read only", async () => {
    const staff = await connect(runtime, readerWithGroups(["staff"]));
    try {
      const r = await staff.call(SEARCH, { query: "webhook" });
      const hits = (r.structuredContent as { results: { path: string; lastModified: string }[] }).results;
      expect(hits.map((h) => [h.path, h.lastModified]).sort()).toEqual([
        ["/guide", T_GUIDE.toISOString()],
        ["/staff", T_STAFF.toISOString()],
      ]);
      expect(r._meta).toEqual({ [PROVENANCE_META_KEY]: { commit: SHA_A, lastModified: T_STAFF.toISOString(), ttlMs: 60_000 } });
    } finally {
      await staff.close();
    }
  });

  it("names what a shell command read, with times of the reader's files only", async () => {
    const anon = await connect(runtime);
    try {
      const r = await anon.call(FS, { command: "cat /guide.mdx /staff.mdx | head -1; ls /" });
      expect(r.structuredContent).toEqual({
        stdout: "---\nguide.mdx\nother.mdx\nskill.md\n",
        stderr: "cat: /staff.mdx: No such file or directory\n",
        exitCode: 0,
        truncated: false,
        reads: [
          { path: "/guide.mdx", lastModified: T_GUIDE.toISOString() },
          // The folder's time is its newest file the reader sees: not the staff page's.
          { path: "/", lastModified: (await folderTime(anon)).toISOString() },
        ],
        provenance: { commit: SHA_A, lastModified: (await folderTime(anon)).toISOString(), ttlMs: 60_000 },
      });
      const none = await anon.call(FS, { command: "echo hi" });
      expect((none.structuredContent as { reads: unknown }).reads).toEqual([{ path: "/", lastModified: (await folderTime(anon)).toISOString() }]);
    } finally {
      await anon.close();
    }
  });

  it("reads the commit again after a reload", async () => {
    const anon = await connect(runtime);
    try {
      write("docs/.git/refs/heads/main", `${SHA_B}\n`);
      write("docs/other.mdx", "---\ntitle: Billing\n---\nInvoices are monthly, in euros.");
      await runtime.applyChanges(["other.mdx"]);
      const r = await anon.call(SEARCH, { query: "webhook signature" });
      expect((r._meta as Record<string, { commit: string }>)[PROVENANCE_META_KEY]?.commit).toBe(SHA_B);
    } finally {
      await anon.close();
    }
  });
});

describe("the commit a reader is shown depends only on what they may read", () => {
  const SHA_D = "d".repeat(40);
  const SHA_E = "e".repeat(40);
  const SHA_F = "f".repeat(40);
  const commitOf = (r: { _meta?: unknown }): string | undefined => (r._meta as Record<string, { commit?: string }>)[PROVENANCE_META_KEY]?.commit;

  it("a commit touching only restricted pages moves the commit of their readers only; one touching a public page moves everyone's", async () => {
    const anon = await connect(runtime);
    const staff = await connect(runtime, readerWithGroups(["staff"]));
    try {
      write("docs/.git/refs/heads/main", `${SHA_D}\n`);
      write("docs/other.mdx", "---\ntitle: Billing\n---\nInvoices are monthly, in euros or dollars.");
      await runtime.applyChanges(["other.mdx"]);
      const shown = async (): Promise<string[]> =>
        [await anon.call(SEARCH, { query: "webhook signature" }), await anon.call(FS, { command: "ls /" }), await staff.call(SEARCH, { query: "webhook" }), await staff.call(FS, { command: "ls /" })].map(
          (r) => commitOf(r) ?? "none",
        );
      expect(await shown()).toEqual([SHA_D, SHA_D, SHA_D, SHA_D]);
      // A commit of the staff page alone: an anonymous reader still sees the commit they had.
      write("docs/.git/refs/heads/main", `${SHA_E}\n`);
      write("docs/staff.mdx", "---\ntitle: Webhook runbook\ngroups: [staff]\n---\nRotate the webhook secret when it leaks, then tell the on-call.");
      await runtime.applyChanges(["staff.mdx"]);
      expect(await shown()).toEqual([SHA_D, SHA_D, SHA_E, SHA_E]);
      // A commit with no change to any page: nobody's view changed, nobody's commit moves.
      write("docs/.git/refs/heads/main", `${SHA_F}\n`);
      await runtime.applyChanges([]);
      expect(await shown()).toEqual([SHA_D, SHA_D, SHA_E, SHA_E]);
      // A public page changes: everyone is shown the checkout's commit.
      write("docs/other.mdx", "---\ntitle: Billing\n---\nInvoices are monthly.");
      await runtime.applyChanges(["other.mdx"]);
      expect(await shown()).toEqual([SHA_F, SHA_F, SHA_F, SHA_F]);
    } finally {
      await Promise.all([anon.close(), staff.close()]);
    }
  });
});

describe("the commit cache", () => {
  it("reads the commit again once the watcher's debounce has passed, and not before", async () => {
    let now = 1_000;
    const cache = new CommitCache(runtime, () => now);
    write("docs/.git/refs/heads/main", `${SHA_C}\n`);
    expect(await cache.current()).toBe(SHA_C);
    write("docs/.git/refs/heads/main", `${SHA_A}\n`);
    now += LIMITS.load.watchDebounceMs - 1;
    expect(await cache.current()).toBe(SHA_C);
    now += 1;
    expect(await cache.current()).toBe(SHA_A);
  });
});

/** The newest time among the anonymous reader's files (docs.json and the public pages), as `stat /` shows it. */
async function folderTime(client: Awaited<ReturnType<typeof connect>>): Promise<Date> {
  const r = await client.call(FS, { command: "stat -c %Y /" });
  return new Date(Number((r.structuredContent as { stdout: string }).stdout.trim()) * 1000);
}

describe("maxChars", () => {
  it("refuses a bad value with a tool error naming the argument", async () => {
    const anon = await connect(runtime);
    try {
      expect(await anon.call(SEARCH, { query: "webhook", maxChars: 10 })).toEqual(argumentError("Invalid arguments for search_acme: maxChars: must be an integer from 200 to 100000 (got 10)"));
      expect(await anon.call(SEARCH, { query: "webhook", maxChars: "lots" })).toEqual(argumentError('Invalid arguments for search_acme: maxChars: must be an integer from 200 to 100000 (got "lots")'));
      expect(await anon.call(FS, { command: "ls", maxChars: 30_001 })).toEqual(argumentError("Invalid arguments for query_docs_filesystem_acme: maxChars: must be an integer from 200 to 30000 (got 30001)"));
      expect(await anon.call(FS, { command: "ls", maxChars: 250.5 })).toEqual(argumentError("Invalid arguments for query_docs_filesystem_acme: maxChars: must be an integer from 200 to 30000 (got 250.5)"));
      expect(await anon.call(FS, { command: "ls", tokenBudget: 500 })).toEqual(argumentError('Invalid arguments for query_docs_filesystem_acme: unknown argument "tokenBudget"'));
    } finally {
      await anon.close();
    }
  });
});

describe("maxChars cuts the answer and says so", () => {
  let big: DocsRuntime;
  let bigDir: string;
  /** Twelve pages that all match "quokka", and one long page. */
  const LINE = "The quokka line of a long page, numbered ";
  beforeAll(async () => {
    bigDir = mkdtempSync(join(tmpdir(), "svc-mcp-maxchars-"));
    const pages = Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, "0")}`);
    writeFileSync(join(bigDir, "docs.json"), JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "G", pages: [...pages, "long"] }] } }));
    for (const [i, p] of pages.entries()) writeFileSync(join(bigDir, `${p}.mdx`), `---\ntitle: Quokka ${i}\n---\nA quokka page number ${i} about quokka habits${" and more".repeat(i)}.`);
    writeFileSync(join(bigDir, "long.mdx"), Array.from({ length: 200 }, (_, i) => `${LINE}${i}\n`).join(""));
    big = await DocsRuntime.load({ root: bigDir, baseUrl: "https://docs.acme.test" });
  });
  afterAll(async () => {
    await big.close();
    rmSync(bigDir, { recursive: true, force: true });
  });

  it("search: whole results from the best down, the rest counted", async () => {
    const c = await connect(big);
    try {
      const full = await c.call(SEARCH, { query: "quokka", pageSize: 12 });
      const fullResults = (full.structuredContent as { results: unknown[] }).results;
      const blocks = c.text(full).split("\n\n");
      expect(blocks.length).toBe(12);
      const maxChars = blocks.slice(0, 3).join("\n\n").length + 150;
      const cut = await c.call(SEARCH, { query: "quokka", pageSize: 12, maxChars });
      const note = `[9 of 12 results left out for maxChars ${maxChars}; ask with a larger maxChars or a smaller pageSize]`;
      expect(c.text(cut)).toBe(`${blocks.slice(0, 3).join("\n\n")}\n\n${note}`);
      const structured = cut.structuredContent as { results: { lastModified: string }[]; provenance: { lastModified: string }; leftOut: number };
      expect(structured.results).toEqual(fullResults.slice(0, 3));
      expect(structured.leftOut).toBe(9);
      expect(structured.provenance.lastModified).toBe(structured.results.map((r) => r.lastModified).sort().at(-1));
      // Within budget: the answer as it is, nothing said.
      expect(await c.call(SEARCH, { query: "quokka", pageSize: 12, maxChars: 100_000 })).toEqual(full);
    } finally {
      await c.close();
    }
  });

  it("search: the best result's snippet cut when not even it fits", async () => {
    const c = await connect(big);
    try {
      const cut = await c.call(SEARCH, { query: "quokka", pageSize: 12, maxChars: 200 });
      const text = c.text(cut);
      expect(text.length).toBeLessThanOrEqual(200);
      expect(text.endsWith("\n\n[first snippet cut, 11 of 12 results left out for maxChars 200; ask with a larger maxChars or a smaller pageSize]")).toBe(true);
      expect(text.startsWith("1. Quokka")).toBe(true);
      const structured = cut.structuredContent as { results: { snippet: string }[]; leftOut: number; snippetCut: boolean };
      expect([structured.results.length, structured.leftOut, structured.snippetCut]).toEqual([1, 11, true]);
    } finally {
      await c.close();
    }
  });

  it("search: no results, a long query: the text saying so is cut, nothing else", async () => {
    const c = await connect(big);
    try {
      const query = `zebra ${"x".repeat(400)}`;
      const r = await c.call(SEARCH, { query, maxChars: 200 });
      const text = c.text(r);
      expect([text.length, text.endsWith("…"), text.startsWith(`No results for "zebra xxx`)]).toEqual([200, true, true]);
      expect(r.structuredContent).toEqual({ results: [], provenance: { ttlMs: 60_000 } });
    } finally {
      await c.close();
    }
  });

  it("shell: output cut at a line end, with a note of what was shown", async () => {
    const c = await connect(big);
    try {
      const r = await c.call(FS, { command: "cat /long.mdx", maxChars: 400 });
      const whole = Array.from({ length: 200 }, (_, i) => `${LINE}${i}\n`).join("");
      const note = (shown: number) => `[output cut at maxChars 400: showed ${shown} of ${whole.length} characters; narrow the command or raise maxChars]\n`;
      // Lines of 42-44 characters: what fits before the note, at a line end.
      const room = 400 - `\n${note(whole.length)}`.length;
      const kept = whole.slice(0, whole.lastIndexOf("\n", room - 1) + 1);
      const structured = r.structuredContent as { stdout: string; truncated: boolean };
      expect(structured.stdout).toBe(kept + note(kept.length));
      expect(structured.truncated).toBe(true);
      expect(c.text(r)).toBe(kept + note(kept.length));
      expect(c.text(r).length).toBeLessThanOrEqual(400);
      // Error lines count too: at most a quarter of the budget, the note counting both.
      const missing = Array.from({ length: 30 }, (_, i) => `/missing-${i}.mdx`);
      const both = await c.call(FS, { command: `cat /long.mdx ${missing.join(" ")}`, maxChars: 400 });
      const errors = missing.map((m) => `cat: ${m}: No such file or directory\n`).join("");
      const s = both.structuredContent as { stdout: string; stderr: string; exitCode: number };
      expect([s.exitCode, errors.startsWith(s.stderr), s.stderr.length <= 100, c.text(both).length <= 400]).toEqual([1, true, true, true]);
      expect(s.stdout.endsWith(`of ${whole.length + errors.length} characters; narrow the command or raise maxChars]\n`)).toBe(true);
      // Within budget: unchanged.
      const small = await c.call(FS, { command: "head -2 /long.mdx", maxChars: 400 });
      expect(c.text(small)).toBe(`${LINE}0\n${LINE}1\n`);
    } finally {
      await c.close();
    }
  });
});
