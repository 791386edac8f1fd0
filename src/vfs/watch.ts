import { type Dirent, type FSWatcher, lstatSync, readdirSync, watch } from "node:fs";
import { join } from "node:path";
import { LIMITS } from "../limits.js";
import { IGNORE_FILES } from "../config/ignore-rules.js";
import { ENTRY_FOLDER, type ListedFolder, realRoot } from "../config/inside-root.js";

/** Stops a watcher. */
export type StopWatching = () => Promise<void>;

/**
 * Watch a repository and report changed files (repo-relative, `/`-separated) in batches: editors
 * write several files, or one file several times, in a burst. Dot-folders, `.git` and
 * `node_modules` are never watched (they are never served either); the root ignore files are.
 * Links are watched as links, never followed: nothing outside the root is watched (the real
 * folder of the root is, so a root that is itself a link works).
 *
 * One `fs.watch` per real folder (inotify on Linux), made from one walk of the folders. chokidar,
 * used before, also stat'ed and tracked every file: on a 25,000-page site its first scan took
 * ~6 s of a ~16 s start and ~100 MB, for events the kernel gives per folder anyway. A folder
 * that appears is watched and its files reported; one that goes is reported as a path, as
 * chokidar's `unlinkDir` was (the reload drops what was under it).
 */
export async function watchRepository(
  root: string,
  onChanges: (paths: string[]) => void,
  onError: (error: Error) => void = () => {},
  /** The folders the load listed, with their stats (`LoadedSite.folders`): watched without
   *  listing them again (4,765 folders of the 25k versioned site: ~50 ms of CPU), then each
   *  checked by its stat for a change since the load listed it. Unset: found by a walk. */
  listed?: readonly ListedFolder[],
): Promise<StopWatching> {
  const batch = new PathBatch(onChanges);
  const record = (rel: string): void => batch.add(rel);
  const rootFiles = new Set<string>(IGNORE_FILES);
  const real = realRoot(root);
  const watchers = new Map<string, FSWatcher>();
  let failed = false;
  const fail = (error: Error): void => {
    // Once: a watch limit reached fails every folder after it the same way.
    if (!failed) onError(error);
    failed = true;
  };
  const skipped = (name: string): boolean => name.startsWith(".") || name === "node_modules";

  /** Watch a folder and, with `report`, say every file under it changed (a folder moved in). */
  const watchFolder = (rel: string, report: boolean): void => {
    if (watchers.has(rel)) return;
    const abs = rel === "" ? real : join(real, rel);
    let entries;
    try {
      const watcher = watch(abs, (_event, name) => changed(rel, typeof name === "string" ? name : undefined));
      watcher.on("error", () => unwatch(rel));
      watchers.set(rel, watcher);
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      // Gone before it could be watched: its removal is reported by its parent.
      if (err.code !== "ENOENT" && err.code !== "ENOTDIR") fail(err);
      return;
    }
    for (const entry of entries) {
      if (skipped(entry.name)) continue;
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) watchFolder(child, report);
      else if (report) record(child);
    }
  };

  /**
   * Watch the folders the load listed, then report what changed in them between that listing
   * and their watch: a folder whose stat moved is listed, each entry the load did not take that
   * is not a folder (a new page; other files too, which a reload reads or leaves as it does any
   * change) and each it took that is gone are reported, and a new folder is watched and reported
   * whole, as one that appears later is.
   */
  const watchListed = (folders: readonly ListedFolder[]): void => {
    for (const folder of folders) {
      if (watchers.has(folder.rel)) continue;
      try {
        const watcher = watch(folder.rel === "" ? real : join(real, folder.rel), (_event, name) => changed(folder.rel, typeof name === "string" ? name : undefined));
        watcher.on("error", () => unwatch(folder.rel));
        watchers.set(folder.rel, watcher);
      } catch (error) {
        const err = error as NodeJS.ErrnoException;
        // Gone since the load listed it: its parent's stat moved, and tells below.
        if (err.code !== "ENOENT" && err.code !== "ENOTDIR") fail(err);
      }
    }
    for (const folder of folders) {
      if (!watchers.has(folder.rel)) continue;
      const abs = folder.rel === "" ? real : join(real, folder.rel);
      const entries = listIfChanged(abs, folder);
      if (entries === "same") continue;
      if (entries === "gone") {
        unwatch(folder.rel);
        continue;
      }
      const { paths, folders: found } = changedEntries(folder, entries, skipped, (child) => watchers.has(child));
      for (const path of paths) record(path);
      for (const child of found) watchFolder(child, true);
    }
  };

  /** Stop watching a folder and the folders under it. */
  const unwatch = (rel: string): void => {
    for (const [folder, watcher] of watchers) {
      if (folder === rel || (rel === "" ? true : folder.startsWith(`${rel}/`))) {
        watcher.close();
        watchers.delete(folder);
      }
    }
  };

  const changed = (folder: string, name: string | undefined): void => {
    if (name === undefined) {
      // The kernel did not say which entry: the folder as a whole.
      if (folder !== "") record(folder);
      return;
    }
    const rel = folder === "" ? name : `${folder}/${name}`;
    if (rel.split("/").some(skipped) && !(folder === "" && rootFiles.has(name))) return;
    record(rel);
    let isFolder = false;
    try {
      isFolder = lstatSync(join(real, rel)).isDirectory();
    } catch {
      // Gone: a folder that was watched goes with what was under it.
      if (watchers.has(rel)) unwatch(rel);
      return;
    }
    if (isFolder && !watchers.has(rel)) watchFolder(rel, true);
  };

  if (listed === undefined) watchFolder("", false);
  else watchListed(listed);
  return async () => {
    batch.stop();
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}

/**
 * A listed folder's entries now if its stat moved since the load listed it, "same" if not, or
 * "gone" if it is no folder any more (removed meanwhile, or a file now: its parent's listing
 * reports the path).
 */
function listIfChanged(abs: string, folder: ListedFolder): Dirent[] | "same" | "gone" {
  try {
    const st = lstatSync(abs);
    if (!st.isDirectory()) return "gone";
    if (st.mtimeMs === folder.mtimeMs && st.ctimeMs === folder.ctimeMs && st.ino === folder.ino) return "same";
    return readdirSync(abs, { withFileTypes: true });
  } catch {
    return "gone";
  }
}

/** Changed paths gathered for `LIMITS.load.watchDebounceMs` and handed over together: a checkout or a save of many files is one reload. */
class PathBatch {
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly onChanges: (paths: string[]) => void) {}

  add(rel: string): void {
    this.pending.add(rel);
    if (this.timer === undefined) this.timer = setTimeout(() => this.flush(), LIMITS.load.watchDebounceMs);
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  private flush(): void {
    this.timer = undefined;
    const paths = [...this.pending];
    this.pending.clear();
    if (paths.length > 0) this.onChanges(paths);
  }
}

/**
 * What changed in a listed folder since the load listed it, by its entries now: each entry the
 * load did not take that is not a folder, each it took that is gone, and each new folder (or one
 * not watched) are paths to report; the new folders are also to be watched (and reported whole).
 */
function changedEntries(
  folder: ListedFolder,
  entries: readonly Dirent[],
  skipped: (name: string) => boolean,
  watched: (rel: string) => boolean,
): { paths: string[]; folders: string[] } {
  const before = new Map(folder.entries.map((child, i) => [child, folder.kinds[i]]));
  const now = new Set<string>();
  const paths: string[] = [];
  const folders: string[] = [];
  for (const entry of entries) {
    if (skipped(entry.name)) continue;
    const child = folder.rel === "" ? entry.name : `${folder.rel}/${entry.name}`;
    now.add(child);
    const kind = before.get(child);
    if (!entry.isDirectory()) {
      if (kind === undefined || kind === ENTRY_FOLDER) paths.push(child);
    } else if (kind !== ENTRY_FOLDER || !watched(child)) {
      paths.push(child);
      folders.push(child);
    }
  }
  for (const child of before.keys()) if (!now.has(child)) paths.push(child);
  return { paths, folders };
}
