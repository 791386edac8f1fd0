import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type ListedFolder, listInsideRoot } from "../../src/config/inside-root.js";
import { type StopWatching, watchRepository } from "../../src/vfs/watch.js";

/**
 * The repository watcher (one `fs.watch` per real folder): what it reports, and what it does not.
 * A change that must not be reported is followed by one that must (a fence): once the fence is
 * reported, the other would have been too.
 */

let dir: string;
let stop: StopWatching | undefined;
let seen: string[];
let waiters: { path: string; resolve: () => void }[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-watch-"));
  mkdirSync(join(dir, "guides"));
  writeFileSync(join(dir, "guides/a.mdx"), "a");
  mkdirSync(join(dir, ".git"));
  seen = [];
  waiters = [];
  stop = await watchRepository(dir, onChanges);
});

function onChanges(paths: string[]): void {
  seen.push(...paths);
  for (const w of waiters.filter((w) => paths.includes(w.path))) w.resolve();
}
afterEach(async () => {
  await stop?.();
  rmSync(dir, { recursive: true, force: true });
});

const reported = (path: string): Promise<void> => (seen.includes(path) ? Promise.resolve() : new Promise((resolve) => waiters.push({ path, resolve })));

it("reports a page written in a watched folder, and the root's ignore file", async () => {
  writeFileSync(join(dir, "guides/a.mdx"), "changed");
  writeFileSync(join(dir, ".svcignore"), "drafts/\n");
  await Promise.all([reported("guides/a.mdx"), reported(".svcignore")]);
});

it("watches a folder made after the start, and reports the files of a folder moved in", async () => {
  mkdirSync(join(dir, "api"));
  await reported("api");
  writeFileSync(join(dir, "api/new.mdx"), "new");
  await reported("api/new.mdx");
  const outside = mkdtempSync(join(tmpdir(), "svc-watch-moved-"));
  mkdirSync(join(outside, "ref/deep"), { recursive: true });
  writeFileSync(join(outside, "ref/deep/x.mdx"), "x");
  renameSync(join(outside, "ref"), join(dir, "ref"));
  await Promise.all([reported("ref"), reported("ref/deep/x.mdx")]);
  rmSync(outside, { recursive: true, force: true });
});

it("reports a removed folder as its path", async () => {
  rmSync(join(dir, "guides"), { recursive: true });
  await reported("guides");
});

it("never reports what is under a dot-folder or node_modules", async () => {
  writeFileSync(join(dir, ".git/HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(dir, "node_modules"));
  writeFileSync(join(dir, "node_modules/x.mdx"), "x");
  writeFileSync(join(dir, "fence.mdx"), "fence");
  await reported("fence.mdx");
  expect(seen.filter((p) => p.startsWith(".git") || p.startsWith("node_modules"))).toEqual([]);
});

it("watches the folders a load listed without listing them again, and reports what changed in them between that listing and the watch", async () => {
  await stop?.();
  mkdirSync(join(dir, "old"));
  writeFileSync(join(dir, "old/gone.mdx"), "x");
  const listed: ListedFolder[] = [];
  listInsideRoot(dir, (rel) => rel.endsWith(".mdx"), { listed });
  writeFileSync(join(dir, "guides/b.mdx"), "b");
  rmSync(join(dir, "guides/a.mdx"));
  mkdirSync(join(dir, "api"));
  writeFileSync(join(dir, "api/x.mdx"), "x");
  rmSync(join(dir, "old"), { recursive: true });
  stop = await watchRepository(dir, onChanges, undefined, listed);
  await Promise.all([reported("guides/b.mdx"), reported("guides/a.mdx"), reported("api"), reported("api/x.mdx"), reported("old")]);
  // Both kinds of folder are watched from then on.
  writeFileSync(join(dir, "guides/c.mdx"), "c");
  writeFileSync(join(dir, "api/y.mdx"), "y");
  await Promise.all([reported("guides/c.mdx"), reported("api/y.mdx")]);
});
