import { readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

/** Where a checkout keeps its state: its own folder (HEAD) and the one shared by its worktrees (refs, packed-refs). */
interface GitDirs {
  readonly gitDir: string;
  readonly commonDir: string;
}

/** A full object name: SHA-1 (40 hex digits) or SHA-256 (64). */
const OBJECT_NAME = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** A symbolic ref may point at another; git itself gives up after 5 levels. */
const MAX_REF_DEPTH = 5;

/**
 * The commit a folder's git checkout is at, read from the `.git` files themselves (HEAD, the
 * loose ref, `packed-refs`): no `git` child process, which would cost milliseconds per call and
 * need git installed. Handles a `.git` folder, a `.git` file (worktrees, submodules), a detached
 * HEAD and packed refs. A folder in no checkout, an unborn branch, or a layout this does not
 * read (reftable) has no commit: `undefined`, never an error (provenance is extra, not the answer).
 */
export class GitHead {
  private dirs: Promise<GitDirs | undefined> | undefined;

  constructor(private readonly folder: string) {}

  /** The commit's full object name, read now. */
  async commit(): Promise<string | undefined> {
    this.dirs ??= findGitDirs(this.folder);
    const dirs = await this.dirs;
    if (dirs === undefined) {
      // Looked for again next time: `git init` may come after the server started.
      this.dirs = undefined;
      return undefined;
    }
    const head = await readText(join(dirs.gitDir, "HEAD"));
    return head === undefined ? undefined : resolveRef(dirs, head.trim(), 0);
  }
}

/** The checkout's git folders, from the nearest `.git` at or above `folder`. */
async function findGitDirs(folder: string): Promise<GitDirs | undefined> {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory() === true) return withCommonDir(dotGit);
    if (info?.isFile() === true) {
      // `gitdir: <path>`: a worktree's or a submodule's folder, relative to the `.git` file's.
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec((await readText(dotGit)) ?? "");
      return pointer?.[1] === undefined ? undefined : withCommonDir(resolve(dir, pointer[1]));
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** A worktree's folder names the repository's shared one in `commondir`. */
async function withCommonDir(gitDir: string): Promise<GitDirs> {
  const common = await readText(join(gitDir, "commondir"));
  return { gitDir, commonDir: common === undefined ? gitDir : resolve(gitDir, common.trim()) };
}

/** `ref: refs/heads/main` (followed) or an object name (a detached HEAD). */
async function resolveRef(dirs: GitDirs, value: string, depth: number): Promise<string | undefined> {
  if (OBJECT_NAME.test(value)) return value;
  const ref = /^ref:\s*(refs\/\S+)$/.exec(value)?.[1];
  if (ref === undefined || depth >= MAX_REF_DEPTH || ref.split("/").includes("..")) return undefined;
  // Per-worktree refs (`refs/bisect`, `refs/worktree`) live in the worktree's folder, the rest in the shared one.
  const loose = (await readText(join(dirs.gitDir, ref))) ?? (dirs.commonDir !== dirs.gitDir ? await readText(join(dirs.commonDir, ref)) : undefined);
  if (loose !== undefined) return resolveRef(dirs, loose.trim(), depth + 1);
  return packedRef(dirs.commonDir, ref);
}

/** `<name> <ref>` lines of `packed-refs` (`#` header lines and `^` peeled lines skipped). */
async function packedRef(commonDir: string, ref: string): Promise<string | undefined> {
  const packed = await readText(join(commonDir, "packed-refs"));
  for (const line of (packed ?? "").split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0 && line.slice(space + 1).trimEnd() === ref) {
      const name = line.slice(0, space);
      return OBJECT_NAME.test(name) ? name : undefined;
    }
  }
  return undefined;
}

async function readText(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").catch(() => undefined);
}
