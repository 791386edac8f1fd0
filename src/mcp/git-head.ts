import { isAbsolute, join, relative, resolve } from "node:path";
import { lstatSync } from "node:fs";
import { NO_IGNORE_RULES, readInsideRoot, statInsideRoot } from "../config/inside-root.js";

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
 *
 * Only the docs root's own `.git` is read, and only files inside the root, through the same
 * checked reads as pages (regular files only, no link out, no pipe that would hang a read): a
 * docs folder inside a larger repository, or a `.git` file pointing elsewhere, has no commit.
 * Nothing outside the docs root is ever read (README, Security).
 */
export class GitHead {
  private dirs: Promise<GitDirs | undefined> | undefined;

  constructor(private readonly root: string) {}

  /** The commit's full object name, read now. */
  async commit(): Promise<string | undefined> {
    this.dirs ??= findGitDirs(this.root);
    const dirs = await this.dirs;
    if (dirs === undefined) {
      // Looked for again next time: `git init` may come after the server started.
      this.dirs = undefined;
      return undefined;
    }
    const head = readText(this.root, join(dirs.gitDir, "HEAD"));
    return head === undefined ? undefined : resolveRef(this.root, dirs, head.trim(), 0);
  }
}

/** The checkout's git folders, from the root's own `.git`: a folder, or a file naming one inside the root. */
async function findGitDirs(root: string): Promise<GitDirs | undefined> {
  const dotGit = resolve(root, ".git");
  // Nothing at all named `.git` (not even a dangling link): no checkout, as the checked stat
  // below would say, without its two real paths and two thrown errors (~45 µs against ~3). A
  // root outside git asks this every `watchDebounceMs` in each process while it serves (issue 23).
  if (nothingAt(dotGit)) return undefined;
  const info = statInsideRoot(root, ".git", { ignore: NO_IGNORE_RULES });
  if (!info.ok) return undefined;
  if (info.kind === "folder") return withCommonDir(root, dotGit);
  if (info.kind !== "file") return undefined;
  // `gitdir: <path>`: a worktree's or a submodule's folder, relative to the `.git` file's.
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(root, dotGit) ?? "");
  return pointer?.[1] === undefined ? undefined : withCommonDir(root, resolve(root, pointer[1]));
}

/** Whether no entry at all is at `path`; any other answer, errors included, is for the checked reads to judge. */
function nothingAt(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/** A worktree's folder names the repository's shared one in `commondir`. */
function withCommonDir(root: string, gitDir: string): GitDirs {
  const common = readText(root, join(gitDir, "commondir"));
  return { gitDir, commonDir: common === undefined ? gitDir : resolve(gitDir, common.trim()) };
}

/** `ref: refs/heads/main` (followed) or an object name (a detached HEAD). */
function resolveRef(root: string, dirs: GitDirs, value: string, depth: number): string | undefined {
  if (OBJECT_NAME.test(value)) return value;
  const ref = /^ref:\s*(refs\/\S+)$/.exec(value)?.[1];
  if (ref === undefined || depth >= MAX_REF_DEPTH || ref.split("/").includes("..")) return undefined;
  // Per-worktree refs (`refs/bisect`, `refs/worktree`) live in the worktree's folder, the rest in the shared one.
  const loose = readText(root, join(dirs.gitDir, ref)) ?? (dirs.commonDir !== dirs.gitDir ? readText(root, join(dirs.commonDir, ref)) : undefined);
  if (loose !== undefined) return resolveRef(root, dirs, loose.trim(), depth + 1);
  return packedRef(root, dirs.commonDir, ref);
}

/** `<name> <ref>` lines of `packed-refs` (`#` header lines and `^` peeled lines skipped). */
function packedRef(root: string, commonDir: string, ref: string): string | undefined {
  const packed = readText(root, join(commonDir, "packed-refs"));
  for (const line of (packed ?? "").split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0 && line.slice(space + 1).trimEnd() === ref) {
      const name = line.slice(0, space);
      return OBJECT_NAME.test(name) ? name : undefined;
    }
  }
  return undefined;
}

/** Git's own files are small: a `packed-refs` of a large repository is a few MB at most. */
const MAX_GIT_FILE_BYTES = 8 * 1024 * 1024;

/** A file of the checkout, read only if it is a regular file inside the root. */
function readText(root: string, path: string): string | undefined {
  const rel = relative(resolve(root), path);
  if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
  const read = readInsideRoot(root, rel, { maxBytes: MAX_GIT_FILE_BYTES, ignore: NO_IGNORE_RULES });
  return read.ok ? read.text : undefined;
}
