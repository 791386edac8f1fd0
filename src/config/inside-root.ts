import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import { isAbsolute, join, posix, relative, sep } from "node:path";
import type { IgnoreRules } from "./ignore-rule-set.js";
import { unservedPath } from "./served-path.js";

/*
 * The one way anything under the docs root is read or looked at: pages, snippets and skills (found
 * by `listInsideRoot`), docs.json and its `$ref`s, API specs and the files their `$ref`s name, the
 * ignore files. Nothing outside the real path of the root is read, whatever links lead there: a
 * path is resolved (`realpath`: links at any depth, chains, `../..`), compared with the real path
 * of the root, and the file is then opened at the path that was checked, without following a link
 * in its last part, and the opened file's own path is checked again (`/proc/self/fd`), so that a
 * link swapped in between the check and the read is refused instead of followed.
 * Links that stay inside the root are followed (docs/repository.md says why, and what happens to
 * folder links).
 */

/** Why a repository path was not read. */
export type RefusalReason =
  /** Nothing at that path (not even a link). */
  | "missing"
  /** A link (at any depth) leads outside the real path of the root. */
  | "outside"
  /** The path itself leaves the root (`../x`, `/etc/x`). */
  | "leaves"
  /** A link inside the root to a file the site does not serve: one the ignore rules exclude, a
   *  dot-file or a file in a dot-folder, docs.json (`unservedPath`; finding 46). */
  | "excluded"
  /** A folder, a device, a socket or a pipe. */
  | "not-file"
  | "too-large"
  /** Permission denied, a link that leads nowhere or loops, the file changed while being read... */
  | "unreadable";

export interface Refusal {
  readonly ok: false;
  readonly reason: RefusalReason;
  /** Says why, to follow `cannot read <file>: ` (never names a path outside the root). */
  readonly message: string;
  /** The file's size, for `too-large`. */
  readonly size?: number;
  /** The system's error code (`EACCES`, `ELOOP`...), when there is one. */
  readonly errno?: string;
}

/** Where a repository path really is, and what is there. */
export interface InsideEntry {
  readonly ok: true;
  readonly kind: "file" | "folder" | "other";
  readonly size: number;
  readonly mtimeMs: number;
  /** The file's inode number: with size and times, what tells an unchanged file (`site-cache.ts`). */
  readonly ino: number;
  /** When the inode last changed (a write, a chmod): unlike `mtimeMs`, no user call sets it, so a
   *  rewrite that keeps size and modification time (`cp -p`, an archive's fixed dates) shows here. */
  readonly ctimeMs: number;
  /** Repository-relative real path (`/`-separated); differs from the path asked for when a link was followed. */
  readonly real: string;
}

export interface InsideFile extends Omit<InsideEntry, "kind"> {
  readonly text: string;
}

export interface InsideReadOptions {
  /** Larger files are refused (`too-large`) before being read. */
  readonly maxBytes?: number;
  /** Required, so that no reader forgets them: a path these rules exclude is refused as missing
   *  (`the ignore rules exclude it`), and so is a link whose real path they exclude, or whose real
   *  path is no file the site serves (`unservedPath`: a dot-file, docs.json), as `excluded`.
   *  `NO_IGNORE_RULES` only where the file is not served whatever happens (the ignore files
   *  themselves, docs.json, a check that an excluded file exists in order to say so). */
  readonly ignore: IgnoreRules | typeof NO_IGNORE_RULES;
  /**
   * The path was found by walking the root's real folders (`listInsideRoot`): it is taken for its
   * own real path and opened without resolving it first (a page load of 25,000 files spent a
   * fifth of its time resolving them). The check after opening (`openedInside`) still refuses a
   * file that is not there; a path that fails this way (a folder or the file became a link since
   * the walk) is resolved and read the usual way.
   */
  readonly walked?: boolean;
  /** The root's real path (`realRoot`), when the caller resolved it once for the many reads of
   *  one load: resolved again for each walked path, it was ~0.3 s of CPU of a 25,000-page load
   *  (issue 22). Used for `walked` paths only; any other read resolves the root itself. */
  readonly realRoot?: string;
}

/** Read without applying ignore rules (see `InsideReadOptions.ignore`). */
export const NO_IGNORE_RULES = null;

/** The message of a refusal because the ignore rules exclude the path asked for. */
export const IGNORED_MESSAGE = "the ignore rules exclude it";

/** Codes of the findings about links (listed in docs/docs-json.md): one leading outside the root,
 *  and the others (a folder link not followed, a link to a file the site does not serve). */
export const LINK_CODES = ["outside-link", "link"] as const;

/** The code of a finding about a refusal: a link's code when a link is why, else `otherwise`. */
export function refusalCode(refusal: Refusal, otherwise?: string): string | undefined {
  return refusal.reason === "outside" ? "outside-link" : refusal.reason === "excluded" ? "link" : otherwise;
}

/** The message of a refusal because a link leads outside; diagnostics add where it was met. */
export const OUTSIDE_MESSAGE = "the link leads outside the repository, so it is not read";

/** The real path of a docs root (it may itself be a link: its target is the root). */
export function realRoot(root: string): string {
  return realpathSync.native(root);
}

/** Read a repository file as UTF-8, refusing anything that is not a regular file inside the root. */
export function readInsideRoot(root: string, rel: string, options: InsideReadOptions): InsideFile | Refusal {
  const read = readOpened(root, rel, options, (fd) => readFileSync(fd, "utf8"));
  if (!read.ok) return read;
  const { content: text, ...entry } = read;
  return { ...entry, text };
}

/** A repository file's bytes (an image the preview shows), under the same checks as `readInsideRoot`. */
export function readBytesInsideRoot(root: string, rel: string, options: InsideReadOptions): (Omit<InsideFile, "text"> & { readonly bytes: Buffer }) | Refusal {
  const read = readOpened(root, rel, options, (fd) => readFileSync(fd));
  if (!read.ok) return read;
  const { content: bytes, ...entry } = read;
  return { ...entry, bytes };
}

/**
 * A repository file opened for reading, under the same checks as `readBytesInsideRoot`, without
 * reading it: a medium the bridge streams a piece at a time (issue 25). The caller owns `fd` and
 * closes it.
 */
export function openInsideRoot(root: string, rel: string, options: InsideReadOptions): (Omit<InsideFile, "text"> & { readonly fd: number }) | Refusal {
  const opened = readOpened(root, rel, options, (fd) => fd, true);
  if (!opened.ok) return opened;
  const { content: fd, ...entry } = opened;
  return { ...entry, fd };
}

/** A walked file as `readBytesInsideRoot` reads it on its fast path (`InsideReadOptions.walked`). */
export interface WalkedRead {
  readonly bytes: Buffer;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly ctimeMs: number;
}

/**
 * `readBytesInsideRoot`'s fast path for a walked file (`InsideReadOptions.walked`) under the
 * root's real path, with the same checks, for a thread that reads a load's files ahead of it
 * (issue 22). The ignore rules are the caller's, applied before (the load reads only files they
 * keep). Undefined for anything but a plain read: the caller then reads the file the usual way,
 * which resolves it, applies the rules and says why it cannot be read.
 */
export function readWalkedBytes(real: string, rel: string, maxBytes: number): WalkedRead | undefined {
  return readWalkedWith(real, rel, maxBytes, (fd) => readFileSync(fd));
}

/** `readWalkedBytes` with the bytes read by `read` (given the open file and its size by its stat):
 *  undefined from it, like any refusal, leaves the file to the caller. */
export function readWalkedWith<B extends Uint8Array>(real: string, rel: string, maxBytes: number, read: (fd: number, size: number) => B | undefined): (Omit<WalkedRead, "bytes"> & { readonly bytes: B }) | undefined {
  const walked = walkedPath("", rel, NO_IGNORE_RULES, real);
  if (walked === undefined) return undefined;
  const done = readAt(walked, { maxBytes, ignore: NO_IGNORE_RULES }, read);
  if (!done.ok || done.real !== rel || done.content === undefined) return undefined;
  return { bytes: done.content, size: done.size, mtimeMs: done.mtimeMs, ino: done.ino, ctimeMs: done.ctimeMs };
}

/** Open a file at a checked path inside the root (never following a link in its last part), check it again, and read it. */
function readOpened<T>(root: string, rel: string, options: InsideReadOptions, read: (fd: number) => T, keepOpen = false): (Omit<InsideFile, "text"> & { readonly ok: true; readonly content: T }) | Refusal {
  if (options.walked === true) {
    const walked = walkedPath(root, rel, options.ignore, options.realRoot);
    const fast = walked === undefined ? undefined : readAt(walked, options, read, keepOpen);
    if (fast?.ok === true) return fast;
  }
  const located = locate(root, rel, options.ignore);
  if (!located.ok) return located;
  return readAt(located, options, read, keepOpen);
}

/** A walked path (`InsideReadOptions.walked`) as its own real path, or undefined when it is not a
 *  plain relative path or the ignore rules exclude it (`locate` then says why). */
function walkedPath(root: string, rel: string, ignore: IgnoreRules | null, real?: string): { readonly abs: string; readonly realRel: string } | undefined {
  const normal = posix.normalize(rel);
  if (normal !== rel || isAbsolute(rel) || rel.includes("\\") || rel.includes("\u0000") || normal === "." || normal.startsWith("../") || normal === "..") return undefined;
  if (ignore !== null && ignore.ignores(normal)) return undefined;
  try {
    return { abs: join(real ?? realRoot(root), normal), realRel: normal };
  } catch {
    return undefined;
  }
}

/** Open a located file without following a link in its last part, check it is still the one at
 *  that real path, and read it; with `keepOpen`, a file that passed is left open for the caller. */
function readAt<T>(located: { readonly abs: string; readonly realRel: string }, options: InsideReadOptions, read: (fd: number, size: number) => T, keepOpen = false): (Omit<InsideFile, "text"> & { readonly ok: true; readonly content: T }) | Refusal {
  const { abs, realRel } = located;
  let fd: number;
  try {
    // O_NOFOLLOW: the last part is no link now either; O_NONBLOCK: a pipe does not hang the load.
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return refusalOf(error as NodeJS.ErrnoException);
  }
  let kept = false;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return notFile(st);
    if (!openedInside(fd, abs, st)) return { ok: false, reason: "unreadable", message: "the file changed while it was being read" };
    if (options.maxBytes !== undefined && st.size > options.maxBytes) {
      return { ok: false, reason: "too-large", size: st.size, message: `${st.size} bytes is over the ${options.maxBytes}-byte limit` };
    }
    const content = read(fd, st.size);
    kept = keepOpen;
    return { ok: true, content, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, ctimeMs: st.ctimeMs, real: realRel };
  } catch (error) {
    return refusalOf(error as NodeJS.ErrnoException);
  } finally {
    if (!kept) closeSync(fd);
  }
}

/** What is at a repository path (following links that stay inside the root), without reading it. */
export function statInsideRoot(root: string, rel: string, options: Pick<InsideReadOptions, "ignore">): InsideEntry | Refusal {
  const located = locate(root, rel, options.ignore);
  if (!located.ok) return located;
  try {
    const st = statSync(located.abs);
    return { ok: true, kind: st.isFile() ? "file" : st.isDirectory() ? "folder" : "other", size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, ctimeMs: st.ctimeMs, real: located.realRel };
  } catch (error) {
    return refusalOf(error as NodeJS.ErrnoException);
  }
}

/** Whether a file (not a folder) is at a repository path, inside the root. */
export function isFileInsideRoot(root: string, rel: string, ignore: InsideReadOptions["ignore"]): boolean {
  const st = statInsideRoot(root, rel, { ignore });
  return st.ok && st.kind === "file";
}

/**
 * Whether a link met by `listInsideRoot` leads to a folder, and whether inside the root (with its
 * real path then). Only the kind of an outside target is looked at, never what it holds.
 */
export function folderLink(root: string, rel: string): { readonly inside: true; readonly real: string } | { readonly inside: false } | undefined {
  // The listing applies the rules to what it finds through the link.
  const st = statInsideRoot(root, rel, { ignore: NO_IGNORE_RULES });
  if (st.ok) return st.kind === "folder" ? { inside: true, real: st.real } : undefined;
  if (st.reason !== "outside") return undefined;
  try {
    return statSync(join(root, rel)).isDirectory() ? { inside: false } : undefined;
  } catch {
    return undefined;
  }
}

/** The repository's files as found by walking its real folders, never through a link. */
export interface RootListing {
  /** Regular files whose path `match` accepted, repository-relative. */
  readonly files: readonly string[];
  /** Every link met (to a file or a folder, inside the root or not): the caller decides. */
  readonly links: readonly string[];
  /** Folders that could not be listed, with why: what they hold is not served. */
  readonly unlisted: readonly { readonly folder: string; readonly message: string }[];
  /** Files (and folders) `match` would take whose name is not valid UTF-8 (`bad\xff.mdx`), as
   *  decoded (with U+FFFD): no path names them, so they cannot be read, only said to be skipped. */
  readonly undecodable: readonly string[];
  /** Files, folders and links `match` would take whose name holds a control character
   *  (`CONTROL_NAME`): not served, only said to be skipped. */
  readonly controlNamed: readonly string[];
}

/** A folder as a walk listed it (`FolderListings`): its stat taken before the listing, and what
 *  the walk took of it in the order listed: matched files, links and folders (repo-relative). */
export interface ListedFolder {
  readonly rel: string;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly entries: readonly string[];
  /** Per entry: `ENTRY_FILE`, `ENTRY_LINK`, `ENTRY_FOLDER` or `ENTRY_CONTROL`. */
  readonly kinds: Uint8Array;
}
export const ENTRY_FILE = 0;
export const ENTRY_LINK = 1;
export const ENTRY_FOLDER = 2;
/** A file, folder or link not served for its name (`CONTROL_NAME`). */
export const ENTRY_CONTROL = 3;

/** Folders an earlier walk with the same `match` listed (the site cache's), by repo-relative path. */
export interface KnownFolders {
  get(rel: string): ListedFolder | undefined;
  /** Folders changed at or after this time (ms) may have changed again within their time's
   *  granularity after being listed: they are listed again. */
  readonly trustedBefore: number;
}

/**
 * What a walk remembers of its folders: it fills `listed`, and takes a folder from `known`
 * instead of listing it when the folder's size-free stat (times and inode) is the one it was
 * listed with: adding, removing or renaming an entry changes a folder's modification and change
 * times. A start of a 25,000-page site from the cache stats its 4,765 folders (~15 ms of CPU)
 * instead of listing them (~130 ms).
 */
export interface FolderListings {
  readonly known?: KnownFolders;
  readonly listed: ListedFolder[];
  /** Told of each folder before it is stat'ed and listed (a watch made before the load, so that
   *  a change after its listing or after a read of a file in it is an event: issue 25). */
  readonly beforeListing?: (rel: string) => void;
}

/**
 * Walk the root's real folder: dot-entries (`.git`, `.github`, `.env.mdx`) and `node_modules` are
 * never entered nor listed (they are never served), links are listed but not followed. With
 * `folders`, each folder is stat'ed before it is listed, and remembered (`FolderListings`).
 */
export function listInsideRoot(root: string, match: (rel: string) => boolean, folders?: FolderListings): RootListing {
  const files: string[] = [];
  const links: string[] = [];
  const unlisted: { folder: string; message: string }[] = [];
  const undecodable: string[] = [];
  const controlNamed: string[] = [];
  const walk = (abs: string, rel: string): void => {
    folders?.beforeListing?.(rel);
    const st = folders !== undefined ? folderStat(abs) : undefined;
    const known = st !== undefined ? folders?.known?.get(rel) : undefined;
    if (st !== undefined && known !== undefined && folders?.known !== undefined && unchanged(st, known, folders.known.trustedBefore)) {
      folders.listed.push(known);
      known.entries.forEach((childRel, i) => {
        const kind = known.kinds[i];
        if (kind === ENTRY_FOLDER) walk(join(abs, childRel.slice(rel === "" ? 0 : rel.length + 1)), childRel);
        else if (kind === ENTRY_LINK) links.push(childRel);
        else if (kind === ENTRY_CONTROL) controlNamed.push(childRel);
        else files.push(childRel);
      });
      return;
    }
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (error) {
      unlisted.push({ folder: rel === "" ? "." : rel, message: refusalOf(error as NodeJS.ErrnoException).message });
      return;
    }
    const taken: string[] = [];
    const kinds: number[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      // A name that is not UTF-8 is listed with U+FFFD in place of its bytes, a name no file has.
      if (entry.name.includes("\uFFFD") && (entry.isDirectory() || match(childRel)) && !exists(join(abs, entry.name))) {
        undecodable.push(childRel);
        continue;
      }
      let kind: number;
      if (CONTROL_NAME.test(entry.name) && (entry.isDirectory() || entry.isSymbolicLink() || match(childRel))) {
        // Remembered, so that a start from the site cache still says it is skipped.
        kind = ENTRY_CONTROL;
        controlNamed.push(childRel);
      } else if (entry.isDirectory()) {
        kind = ENTRY_FOLDER;
        walk(join(abs, entry.name), childRel);
      } else if (entry.isSymbolicLink()) {
        kind = ENTRY_LINK;
        links.push(childRel);
      } else if (entry.isFile() && match(childRel)) {
        kind = ENTRY_FILE;
        files.push(childRel);
      } else continue;
      if (st === undefined) continue;
      taken.push(childRel);
      kinds.push(kind);
    }
    if (st !== undefined) folders?.listed.push({ rel, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, entries: taken, kinds: Uint8Array.from(kinds) });
  };
  let base: string;
  try {
    base = realRoot(root);
  } catch (error) {
    return { files, links, unlisted: [{ folder: ".", message: refusalOf(error as NodeJS.ErrnoException).message }], undecodable, controlNamed };
  }
  walk(base, "");
  return { files, links, unlisted, undecodable, controlNamed };
}

/** Whether a path names an entry (a link's own, not its target's). */
function exists(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

/** A folder's stat for `FolderListings`; undefined when it cannot be had (the listing then says why). */
function folderStat(abs: string): Stats | undefined {
  try {
    const st = lstatSync(abs, { throwIfNoEntry: false });
    return st?.isDirectory() === true ? st : undefined;
  } catch {
    return undefined;
  }
}

function unchanged(st: Stats, known: ListedFolder, trustedBefore: number): boolean {
  return st.mtimeMs === known.mtimeMs && st.ctimeMs === known.ctimeMs && st.ino === known.ino && known.mtimeMs < trustedBefore;
}

/**
 * A name holding a control character (C0, DEL, C1: a line break, a tab, ESC): such a file or
 * folder is not served. Its path would break the one-name-a-line output of `ls`, `find`, `grep -l`
 * and `nav` (GNU tools print it raw to a pipe, and an agent reads two names), carry an escape
 * sequence to a terminal, and make a URL no one would type; the platform's file names are URL
 * paths. Refused where the walk meets it, and where a path is read (`locate`), so no way in
 * (docs.json naming a spec, a snippet, a link) serves it.
 */
export const CONTROL_NAME = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a path holding a control character is not read or served (docs/repository.md). */
export function controlNameMessage(name: string): string {
  const c = CONTROL_NAME.exec(name)?.[0] ?? "\u0000";
  return `the name holds a control character (U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}), which svc-mcp does not serve: rename it`;
}

/** Why a path holding a NUL is not read: the words every reader of the repository gives. */
export const NUL_MESSAGE = "the name holds a NUL character, which no file name can";

type Located = { readonly ok: true; readonly abs: string; readonly realRel: string } | Refusal;

/** Resolve `rel` under the root to its real path, or refuse. */
function locate(root: string, rel: string, ignore: IgnoreRules | null): Located {
  // No file name holds a NUL: Node would throw its own message, with the absolute path and the raw NUL in it (adversary round 58, F7).
  if (rel.includes("\u0000")) return { ok: false, reason: "missing", message: NUL_MESSAGE };
  if (CONTROL_NAME.test(rel)) return { ok: false, reason: "missing", message: controlNameMessage(rel) };
  const normal = posix.normalize(rel.replace(/\\/g, "/"));
  if (isAbsolute(rel) || normal === ".." || normal.startsWith("../")) return { ok: false, reason: "leaves", message: "the path leaves the repository" };
  if (ignore !== null && normal !== "." && ignore.ignores(normal)) return { ok: false, reason: "missing", message: IGNORED_MESSAGE };
  let base: string;
  let abs: string;
  try {
    base = realRoot(root);
    abs = realpathSync.native(join(base, normal));
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    // realpath says ENOENT for a link that leads nowhere as for a path with nothing at it.
    if (err.code === "ENOENT" && isLink(root, normal)) return { ok: false, reason: "unreadable", errno: "ENOENT", message: "the link leads nowhere" };
    return refusalOf(err);
  }
  const realRel = relative(base, abs);
  if (realRel.startsWith("..") || isAbsolute(realRel)) return { ok: false, reason: "outside", message: OUTSIDE_MESSAGE };
  const real = realRel.split(sep).join("/");
  // A link serves its target's bytes: only a target the site would serve at its own path
  // (finding 46: a page named link to .env or docs.json served them to every reader).
  if (ignore !== null && real !== normal && real !== "") {
    if (ignore.ignores(real)) return { ok: false, reason: "excluded", message: `the link leads to ${real}, which the ignore rules exclude` };
    const unserved = unservedPath(real);
    if (unserved !== undefined) return { ok: false, reason: "excluded", message: `the link leads to ${real}, ${unserved}` };
  }
  return { ok: true, abs, realRel: real };
}

/** Whether something (a link, possibly dangling) is at `rel`. */
function isLink(root: string, rel: string): boolean {
  try {
    return lstatSync(join(root, rel)).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Whether the opened file is still the one at the checked path, inside the root. Linux names an
 * open file's real path in `/proc/self/fd` (what was opened, whatever happened to the path since);
 * elsewhere, the path is resolved again and must still lead to this same file.
 */
function openedInside(fd: number, abs: string, st: Stats): boolean {
  let opened: string;
  try {
    opened = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    try {
      const again = statSync(abs);
      return realpathSync.native(abs) === abs && again.dev === st.dev && again.ino === st.ino;
    } catch {
      return false;
    }
  }
  return opened === abs;
}

function notFile(st: Stats): Refusal {
  return { ok: false, reason: "not-file", message: st.isDirectory() ? "is a folder, not a file" : "not a regular file" };
}

/** A system error as a refusal, worded for people. */
function refusalOf(error: NodeJS.ErrnoException): Refusal {
  const code = error.code;
  const errno = code !== undefined ? { errno: code } : {};
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return { ok: false, reason: "missing", ...errno, message: "file not found" };
    case "EISDIR":
      return { ok: false, reason: "not-file", ...errno, message: "is a folder, not a file" };
    case "EACCES":
    case "EPERM":
      return { ok: false, reason: "unreadable", ...errno, message: "permission denied" };
    case "ELOOP":
      // Also what O_NOFOLLOW says when the last part became a link after the check.
      return { ok: false, reason: "unreadable", ...errno, message: "the link loops, or changed while being read" };
    default:
      return { ok: false, reason: "unreadable", ...errno, message: error.message };
  }
}
