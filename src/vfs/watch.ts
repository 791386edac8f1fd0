import { type FSWatcher, lstatSync, readdirSync, watch } from "node:fs";
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
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    const paths = [...pending];
    pending.clear();
    if (paths.length > 0) onChanges(paths);
  };
  const record = (rel: string): void => {
    pending.add(rel);
    if (timer === undefined) timer = setTimeout(flush, LIMITS.load.watchDebounceMs);
  };
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
      let entries;
      try {
        const st = lstatSync(abs);
        if (!st.isDirectory()) {
          // A folder no more (its parent's listing below reports the path).
          unwatch(folder.rel);
          continue;
        }
        if (st.mtimeMs === folder.mtimeMs && st.ctimeMs === folder.ctimeMs && st.ino === folder.ino) continue;
        entries = readdirSync(abs, { withFileTypes: true });
      } catch {
        // Gone meanwhile: its parent's listing reports it.
        unwatch(folder.rel);
        continue;
      }
      const before = new Map(folder.entries.map((child, i) => [child, folder.kinds[i]]));
      const now = new Set<string>();
      for (const entry of entries) {
        if (skipped(entry.name)) continue;
        const child = folder.rel === "" ? entry.name : `${folder.rel}/${entry.name}`;
        now.add(child);
        const kind = before.get(child);
        if (!entry.isDirectory()) {
          if (kind === undefined || kind === ENTRY_FOLDER) record(child);
        } else if (kind !== ENTRY_FOLDER || !watchers.has(child)) {
          record(child);
          watchFolder(child, true);
        }
      }
      for (const child of before.keys()) if (!now.has(child)) record(child);
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
    if (timer !== undefined) clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}
