import { normalize, type SiteView } from "../../../vfs/view.js";

/** `cmd 2>/dev/null`, `grep x /dev/null`: an always-empty character device. */
export const DEV_NULL = "/dev/null";

/** What a path names in the view. */
export type Entry =
  | { readonly kind: "file"; readonly path: string; readonly text: string }
  | { readonly kind: "dir"; readonly path: string }
  | { readonly kind: "device"; readonly path: string }
  | { readonly kind: "missing"; readonly path: string }
  | { readonly kind: "notdir"; readonly path: string };

/** The strerror texts the GNU tools print. */
export const ERRNO = {
  ENOENT: "No such file or directory",
  ENOTDIR: "Not a directory",
  EISDIR: "Is a directory",
  EROFS: "Read-only file system",
} as const;

/** Absolute, normalised path of an operand relative to `cwd`. A trailing `/` is kept as a marker. */
export function resolvePath(cwd: string, operand: string): string {
  return normalize(operand.startsWith("/") ? operand : `${cwd}/${operand}`);
}

/**
 * Look an operand up in the view (and in `piped`, the process substitutions of this command). A trailing slash on a file (`/a.mdx/`) is ENOTDIR, as on
 * Linux; a path through a file (`/a.mdx/b`, `/a.mdx/.`) too.
 */
export function lookup(view: SiteView, cwd: string, operand: string, piped?: ReadonlyMap<string, string>): Entry {
  const { path, fault } = view.resolve(operand.startsWith("/") ? operand : `${cwd}/${operand}`);
  if (path === DEV_NULL) return { kind: "device", path };
  // `<(cmd)`: just-bash holds the output at /dev/fd/N outside the view.
  const substituted = piped?.get(path);
  if (substituted !== undefined) return { kind: "file", path, text: substituted };
  // Anything after a file (`/a.mdx/`, `/a.mdx/.`, `/a.mdx/..`) is ENOTDIR, as on Linux (`SiteView.resolve`).
  if (fault !== undefined) return { kind: fault === "ENOTDIR" ? "notdir" : "missing", path };
  const file = view.fileAt(path);
  if (file !== undefined) {
    // Read when a command reads it: `ls`, `stat` and `find` only look a file up, and reading
    // its contents is charged to the call's work budget (`charged-view.ts`).
    return {
      kind: "file",
      path,
      get text() {
        return file.text;
      },
    };
  }
  if (view.isDir(path)) return { kind: "dir", path };
  for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
    if (view.fileAt(path.slice(0, i)) !== undefined) return { kind: "notdir", path };
  }
  return { kind: "missing", path };
}

/** The strerror text for a failed lookup. */
export function lookupError(entry: Entry): string {
  return entry.kind === "notdir" ? ERRNO.ENOTDIR : ERRNO.ENOENT;
}

/**
 * Join a displayed directory and a child name the way GNU tools and ripgrep print it. An
 * empty directory is the implicit `.` of `grep -r x` (printed without a `./` prefix).
 */
export function joinDisplay(dir: string, name: string): string {
  if (dir === "") return name;
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

/** Join absolute paths. */
export function joinPath(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** Final component of a path (`/` for the root). */
export function baseName(path: string): string {
  if (path === "/") return "/";
  return path.slice(path.lastIndexOf("/") + 1);
}

export interface WalkEntry {
  readonly path: string;
  readonly display: string;
  readonly isDir: boolean;
  /** 1 for the starting folder's children, 2 for theirs... */
  readonly depth: number;
}

/**
 * Depth-first walk of a folder in byte order of names (children of each folder sorted, files
 * and folders interleaved), the order `rg --sort path` and `find` on a sorted filesystem use.
 * `visit` returns false to skip a folder's contents.
 */
export function walk(
  view: SiteView,
  dir: string,
  display: string,
  visit: (entry: WalkEntry) => boolean | void,
  depth = 1,
): void {
  const names = view.childrenOf(dir);
  if (names === undefined) return;
  for (const name of names) {
    const path = joinPath(dir, name);
    const isDir = view.isDir(path);
    const d = joinDisplay(display, name);
    const descend = visit({ path, display: d, isDir, depth });
    if (isDir && descend !== false) walk(view, path, d, visit, depth + 1);
  }
}
