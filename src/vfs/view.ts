import type { BufferEncoding, FileContent, FsStat, IFileSystem } from "just-bash";
import { type AuthMode, type Reader, canRead } from "./access.js";
import { indexPathOf, pagesAt, pagesBefore } from "./page-routes.js";
import type { Site } from "./site.js";
import type { Page } from "./page.js";
import type { SiteFile } from "./site-file.js";

/** `cmd 2>/dev/null` is how agents silence errors: writes there succeed and vanish. */
const DEV_NULL = "/dev/null";

/** Read-only permission bits: files r--r--r--, folders r-xr-xr-x. */
const FILE_MODE = 0o100444;
const DIR_MODE = 0o040555;

/** A filesystem error with the Node-style code and message just-bash's commands expect. */
export class FsError extends Error {
  constructor(
    readonly code: "ENOENT" | "ENOTDIR" | "EISDIR" | "EROFS" | "EINVAL",
    syscall: string,
    path: string,
  ) {
    super(`${code}: ${FS_MESSAGES[code]}, ${syscall} '${path}'`);
    this.name = "FsError";
  }
}

const FS_MESSAGES = {
  ENOENT: "no such file or directory",
  ENOTDIR: "not a directory",
  EISDIR: "illegal operation on a directory",
  EROFS: "read-only file system",
  EINVAL: "invalid argument",
} as const;

/** just-bash's directory entry and read options (not re-exported from its index). */
type DirentEntry = Awaited<ReturnType<NonNullable<IFileSystem["readdirWithFileTypes"]>>>[number];
type ReadFileOptions = Exclude<Parameters<IFileSystem["readFile"]>[1], BufferEncoding | undefined>;

/** What `ls -l`, `stat` and `tree -p` show about one visible file or folder. */
export interface EntryInfo {
  readonly kind: "file" | "dir";
  /** Bytes (a folder reports 4096, one ext4 block, as on the disk copies real tools see). */
  readonly size: number;
  readonly mtime: Date;
  /** Type and permission bits, e.g. 0o100444. */
  readonly mode: number;
  /** Hard links: 1 for a file; 2 plus the number of subfolders for a folder. */
  readonly nlink: number;
  /** 512-byte blocks allocated, as ext4 rounds a file up to whole 4 KiB blocks. */
  readonly blocks: number;
}

/** Owner shown for every entry: the docs belong to no user; root matches a container's disk copy. */
export const OWNER = { uid: 0, gid: 0, user: "root", group: "root" } as const;

/** Size of a folder, and of the block files are rounded up to. */
const BLOCK = 4096;

interface DirNode {
  /** Child names, sorted bytewise (as `ls` sorts in the C locale). */
  readonly names: string[];
  readonly mtime: Date;
}

/**
 * The part of a site one reader may see, as a read-only filesystem for just-bash.
 * Files the reader may not read do not exist here at all: not listed, not readable, not
 * matched by any glob or search. Built once per (site, reader) and shared by every call.
 */
export class SiteView implements IFileSystem {
  /** Visible files, sorted by path (the order fast commands walk them in). */
  readonly files: readonly SiteFile[];
  private pagesByPath: ReadonlyMap<string, Page> | undefined;
  /** This reader's pages of files with restricted parts, by their variant file (`pages`). */
  private readonly variantPages: ReadonlyMap<SiteFile, Page>;
  private readonly byPath: ReadonlyMap<string, SiteFile>;
  /** The visible folders (`dirs`), made at the first question about one: a stdio server's view
   *  is made before it answers `tools/list`, whose tool text needs its files only, and its
   *  commands run in the shell's workers, each with a view of its own (29-36 ms of the main
   *  thread at 25,000 pages, issue 22). */
  private folders: ReadonlyMap<string, DirNode> | undefined;
  /** The root's time (`folderTime`) while the folders are not made. */
  private rootTime: number | undefined;

  constructor(
    /** Only files, pages and variants are read: the shell worker builds views over a bare file table. */
    readonly site: Pick<Site, "files" | "pages" | "shadowed" | "variants">,
    readonly reader: Reader,
    readonly mode: AuthMode,
    extraFiles: readonly SiteFile[] = [],
  ) {
    const visible = new Map<string, SiteFile>();
    // A file with restricted parts is this reader's variant of it (the same object for every
    // reader of the same access class), so every command, size and listing sees that.
    const variantPages = new Map<SiteFile, Page>();
    for (const f of [...site.files.values(), ...extraFiles]) {
      if (!canRead(f.access, reader, mode)) continue;
      const variants = site.variants?.get(f.path);
      if (variants === undefined || variants.file !== f) {
        visible.set(f.path, f);
        continue;
      }
      const mine = variants.forReader(reader, mode);
      if (mine === undefined) continue;
      visible.set(f.path, mine.file);
      if (mine.page !== undefined) variantPages.set(mine.file, mine.page);
    }
    // A generated API page behind a file at its path (`ApiPagePlan.behind`) is the reader's when
    // no page before it is (`pagesBefore`: behind `<path>/index` files, its own path's too): its
    // file is in no table of its own. The pages before it are files, told by the files' table
    // alone: a generated page made visible here has a file's path (`<path>/index.mdx` for the
    // index path's own), and must not hide another path's generated page in the same list.
    const fromFiles = new Set(visible.keys());
    for (const [path, behind] of site.shadowed ?? []) {
      const all = pagesAt(site, path);
      for (const [k, page] of all.entries()) {
        if (!page.generated || !canRead(page.file.access, reader, mode)) continue;
        if (pagesBefore(site, path, k).some((p) => fromFiles.has(p.file.path))) continue;
        if (behind.includes(page)) visible.set(page.file.path, page.file);
      }
    }
    const sorted = [...visible.values()].sort((a, b) => compareBytes(a.path, b.path));
    this.files = sorted;
    // The table of visible files itself when it is already in that order (a site's files are
    // kept sorted: `getAllPaths` reads its keys in order), not a copy of it (25,000 files, issue 22).
    this.byPath = inOrder(visible, sorted) ? visible : new Map(sorted.map((f) => [f.path, f]));
    this.variantPages = variantPages;
  }

  /** Visible pages, by page path: made at first use (the preview's), not with the view, which a
   *  stdio server makes before it answers `tools/list` and each shell worker for every reader. */
  get pages(): ReadonlyMap<string, Page> {
    this.pagesByPath ??= this.visiblePages();
    return this.pagesByPath;
  }

  private visiblePages(): Map<string, Page> {
    const { site, variantPages } = this;
    const pages = new Map<string, Page>();
    for (const [path, first] of site.pages) {
      // The first page of the path this reader may read (`a.md` when `a.mdx` is not theirs).
      // Most paths have one page, itself visible: no list of one made for each (25,000 paths).
      if (site.shadowed?.has(path) !== true && this.byPath.get(first.file.path) === first.file) {
        if (first.path === path) pages.set(path, first);
        continue;
      }
      const all = pagesAt(site, path);
      for (const page of all) {
        // Another path's generated page behind these index files: below.
        if (page.path !== path) continue;
        const file = this.byPath.get(page.file.path);
        if (file === undefined) continue;
        const mine = file === page.file ? page : variantPages.get(file);
        // The file at that path is another page's (a generated page behind this one).
        if (mine === undefined && all.some((p) => p.file === file)) continue;
        if (mine?.path === path) pages.set(path, mine);
        break;
      }
      // A generated page behind `<path>/index` files is the reader's page at its own path when
      // its file is the reader's (its own path's page files and the index files are not), apart
      // from the index path's own page: each path finds its own (adversary round 49 F1).
      for (const page of all) {
        if (page.path !== path && page.generated && indexPathOf(page.path) === path && this.byPath.get(page.file.path) === page.file) pages.set(page.path, page);
      }
    }
    return pages;
  }

  private get dirs(): ReadonlyMap<string, DirNode> {
    this.folders ??= buildDirs(this.files);
    return this.folders;
  }

  /** Fast-path lookup for our own commands: the visible file at an absolute, normalised path. */
  fileAt(path: string): SiteFile | undefined {
    return this.byPath.get(path);
  }

  /** True when `path` (absolute, normalised) is a visible folder. */
  isDir(path: string): boolean {
    return this.dirs.has(path);
  }

  /** Modification time of a visible file or folder (a folder's is its newest descendant's). */
  mtimeOf(path: string): Date {
    return this.byPath.get(path)?.mtime ?? this.dirs.get(path)?.mtime ?? new Date(0);
  }

  /**
   * A visible folder's time (its newest file's, as `mtimeOf`), or undefined when `path` is no
   * visible folder, without making every folder when they are not made yet: from the sorted
   * files, whose paths under a folder are one run. Why: a command's answer in the main thread
   * names the folders its words read (`provenance.ts`), and the view's folders there were made
   * for that alone, after the first search and before the first command (~0.2 s of the thread
   * at 50,000 files, issue 22); the commands run in the workers, each with views of their own.
   */
  folderTime(path: string): Date | undefined {
    if (this.folders !== undefined) return this.folders.get(path)?.mtime;
    if (path === "/") {
      this.rootTime ??= newestTime(this.files, 0, this.files.length);
      return new Date(this.rootTime);
    }
    const prefix = `${path}/`;
    // The first file at or after the prefix: every path under the folder starts there.
    let lo = 0;
    let hi = this.files.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.files[mid] as SiteFile).path < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < this.files.length && (this.files[end] as SiteFile).path.startsWith(prefix)) end++;
    return end === lo ? undefined : new Date(newestTime(this.files, lo, end));
  }

  /** Details of a visible file or folder (absolute, normalised path). */
  info(path: string): EntryInfo | undefined {
    const file = this.byPath.get(path);
    if (file !== undefined) {
      const blocks = Math.ceil(file.size / BLOCK) * (BLOCK / 512);
      return { kind: "file", size: file.size, mtime: file.mtime, mode: FILE_MODE, nlink: 1, blocks };
    }
    const dir = this.dirs.get(path);
    if (dir === undefined) return undefined;
    let subdirs = 0;
    for (const name of dir.names) if (this.dirs.has(join(path, name))) subdirs++;
    return { kind: "dir", size: BLOCK, mtime: dir.mtime, mode: DIR_MODE, nlink: 2 + subdirs, blocks: BLOCK / 512 };
  }

  /** Sorted child names of a visible folder. */
  childrenOf(path: string): readonly string[] | undefined {
    return this.dirs.get(path)?.names;
  }

  async readFile(path: string, _options?: ReadFileOptions | BufferEncoding): Promise<string> {
    return this.readText(path);
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    return new TextEncoder().encode(this.readText(path));
  }

  /** A file's text; `/dev/null` reads as empty (`cmd < /dev/null`). */
  private readText(path: string): string {
    if (normalize(path) === DEV_NULL) return "";
    return this.requireFile(path, "open").text;
  }

  async readFileBytes(path: string): Promise<never> {
    // ByteString is latin1-shaped: one char per byte of the UTF-8 encoding.
    const bytes = new TextEncoder().encode(this.readText(path));
    let out = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return out as never;
  }

  async exists(path: string): Promise<boolean> {
    const { path: p, fault } = this.resolve(path);
    return fault === undefined && (this.byPath.has(p) || this.dirs.has(p) || p === DEV_NULL);
  }

  /**
   * An absolute path resolved component by component, as Linux resolves it: each component
   * after the first must be looked up in a folder, so anything after a file (`/a.mdx/`,
   * `/a.mdx/.`, `/a.mdx/..`, `/a.mdx//`) is ENOTDIR, and `..` out of a missing folder is
   * ENOENT. `path` is the normalised path; `fault` says why no lookup may find it. Why here:
   * `normalize` drops a trailing `/` and `.`, so `cat /a.mdx/.` read the page and `test -e
   * /a.mdx/` was true (issue 25, adversary F6); every command asks the view.
   */
  resolve(path: string): { readonly path: string; readonly fault?: "ENOTDIR" | "ENOENT" } {
    const p = normalize(path);
    // Most paths are already normal (`/a/b.mdx`): nothing was dropped, so nothing can follow a file.
    if (p === path) return { path: p };
    const out: string[] = [];
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const part = parts[i] as string;
      if (out.length > 0) {
        const here = `/${out.join("/")}`;
        if (this.byPath.has(here)) return { path: p, fault: "ENOTDIR" };
        if (part === ".." && !this.dirs.has(here)) return { path: p, fault: "ENOENT" };
      }
      if (part === "" || part === ".") continue;
      if (part === "..") out.pop();
      else out.push(part);
    }
    return { path: p };
  }

  async stat(path: string): Promise<FsStat> {
    const { path: p, fault } = this.resolve(path);
    if (fault !== undefined) throw new FsError(fault, "stat", path);
    const file = this.byPath.get(p);
    if (file !== undefined) {
      return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: FILE_MODE, size: file.size, mtime: file.mtime };
    }
    const dir = this.dirs.get(p);
    if (dir !== undefined) {
      return { isFile: false, isDirectory: true, isSymbolicLink: false, mode: DIR_MODE, size: 4096, mtime: dir.mtime };
    }
    if (p === DEV_NULL) return { isFile: false, isDirectory: false, isSymbolicLink: false, mode: 0o020666, size: 0, mtime: new Date(0) };
    throw new FsError(this.parentIsFile(p) ? "ENOTDIR" : "ENOENT", "stat", path);
  }

  lstat(path: string): Promise<FsStat> {
    return this.stat(path);
  }

  async readdir(path: string): Promise<string[]> {
    return [...this.requireDir(path).names];
  }

  async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    const p = normalize(path);
    const dir = this.requireDir(path);
    return dir.names.map((name) => {
      const isDirectory = this.dirs.has(join(p, name));
      return { name, isFile: !isDirectory, isDirectory, isSymbolicLink: false };
    });
  }

  resolvePath(base: string, path: string): string {
    const joined = path.startsWith("/") ? path : `${base}/${path}`;
    // A path no lookup may find stays as written, so that the view's methods given it fail as
    // Linux does (`resolve`), not find what its normal form names (`/a.mdx/.` is not `/a.mdx`).
    const { path: p, fault } = this.resolve(joined);
    return fault === undefined ? p : joined;
  }

  getAllPaths(): string[] {
    return [...this.dirs.keys(), ...this.byPath.keys()];
  }

  async readlink(path: string): Promise<string> {
    this.requireExisting(path, "readlink");
    throw new FsError("EINVAL", "readlink", path);
  }

  async realpath(path: string): Promise<string> {
    return this.requireExisting(path, "realpath");
  }

  // Every mutation fails with EROFS: the docs are read-only for every reader.
  async writeFile(path: string, _content: FileContent): Promise<void> {
    if (normalize(path) === DEV_NULL) return;
    throw new FsError("EROFS", "open", path);
  }
  async appendFile(path: string, _content: FileContent): Promise<void> {
    if (normalize(path) === DEV_NULL) return;
    throw new FsError("EROFS", "open", path);
  }
  async mkdir(path: string): Promise<void> {
    throw new FsError("EROFS", "mkdir", path);
  }
  async rm(path: string): Promise<void> {
    throw new FsError("EROFS", "rm", path);
  }
  async cp(_src: string, dest: string): Promise<void> {
    throw new FsError("EROFS", "cp", dest);
  }
  async mv(src: string, _dest: string): Promise<void> {
    throw new FsError("EROFS", "rename", src);
  }
  async chmod(path: string): Promise<void> {
    throw new FsError("EROFS", "chmod", path);
  }
  async symlink(_target: string, linkPath: string): Promise<void> {
    throw new FsError("EROFS", "symlink", linkPath);
  }
  async link(_existing: string, newPath: string): Promise<void> {
    throw new FsError("EROFS", "link", newPath);
  }
  async utimes(path: string): Promise<void> {
    throw new FsError("EROFS", "utime", path);
  }

  private requireFile(path: string, syscall: string): SiteFile {
    const { path: p, fault } = this.resolve(path);
    if (fault !== undefined) throw new FsError(fault, syscall, path);
    const file = this.byPath.get(p);
    if (file !== undefined) return file;
    if (this.dirs.has(p)) throw new FsError("EISDIR", "read", path);
    throw new FsError(this.parentIsFile(p) ? "ENOTDIR" : "ENOENT", syscall, path);
  }

  private requireDir(path: string): DirNode {
    const { path: p, fault } = this.resolve(path);
    if (fault !== undefined) throw new FsError(fault, "scandir", path);
    const dir = this.dirs.get(p);
    if (dir !== undefined) return dir;
    throw new FsError(this.byPath.has(p) || this.parentIsFile(p) ? "ENOTDIR" : "ENOENT", "scandir", path);
  }

  private requireExisting(path: string, syscall: string): string {
    const { path: p, fault } = this.resolve(path);
    if (fault === undefined && (this.byPath.has(p) || this.dirs.has(p))) return p;
    throw new FsError("ENOENT", syscall, path);
  }

  private parentIsFile(p: string): boolean {
    for (let i = p.lastIndexOf("/"); i > 0; i = p.lastIndexOf("/", i - 1)) {
      if (this.byPath.has(p.slice(0, i))) return true;
    }
    return false;
  }
}

/** Normalise an absolute path: collapse `//`, `.` and `..` (never above `/`). */
export function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

function join(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** Bytewise comparison (C locale), the order GNU tools use with LC_ALL=C. */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The newest time of `files[from..to)`, and never before 1970 (as a folder's time in `buildDirs`). */
function newestTime(files: readonly SiteFile[], from: number, to: number): number {
  let newest = 0;
  for (let i = from; i < to; i++) newest = Math.max(newest, (files[i] as SiteFile).mtime.getTime());
  return newest;
}

function buildDirs(files: readonly SiteFile[]): Map<string, DirNode> {
  const children = new Map<string, Set<string>>([["/", new Set()]]);
  const mtimes = new Map<string, number>([["/", 0]]);
  for (const file of files) {
    let child = file.path;
    let mtime = file.mtime.getTime();
    while (child !== "/") {
      const cut = child.lastIndexOf("/");
      const parent = cut === 0 ? "/" : child.slice(0, cut);
      let set = children.get(parent);
      const known = set !== undefined;
      if (set === undefined) {
        set = new Set();
        children.set(parent, set);
      }
      set.add(child.slice(cut + 1));
      const before = mtimes.get(parent) ?? 0;
      // A folder already listed is in its own parent, and every folder's time is at least its
      // folders' (a folder takes the newest time under it): when this one's does not move, no
      // folder above it changes. Copies of a site share their folders: most files stop here.
      if (known && before >= mtime) break;
      mtimes.set(parent, Math.max(before, mtime));
      mtime = Math.max(before, mtime);
      child = parent;
    }
  }
  const dirs = new Map<string, DirNode>();
  for (const [path, names] of children) {
    dirs.set(path, { names: [...names].sort(compareBytes), mtime: new Date(mtimes.get(path) ?? 0) });
  }
  return dirs;
}

/** Whether a map's values are `sorted`, in that order, each at its own path. */
function inOrder(map: ReadonlyMap<string, SiteFile>, sorted: readonly SiteFile[]): boolean {
  if (map.size !== sorted.length) return false;
  let i = 0;
  for (const [path, file] of map) {
    if (sorted[i] !== file || file.path !== path) return false;
    i++;
  }
  return true;
}
