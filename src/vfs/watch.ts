import { statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { watch } from "chokidar";
import { LIMITS } from "../limits.js";
import { IGNORE_FILES } from "../config/ignore-rules.js";
import { realRoot } from "../config/inside-root.js";

/** Stops a watcher. */
export type StopWatching = () => Promise<void>;

/**
 * Watch a repository and report changed files (repo-relative, `/`-separated) in batches: editors
 * write several files, or one file several times, in a burst. Dot-folders, `.git` and
 * `node_modules` are never watched (they are never served either); the root ignore files are.
 * Links are watched as links, never followed: nothing outside the root is watched (the real
 * folder of the root is, so a root that is itself a link works).
 */
export async function watchRepository(
  root: string,
  onChanges: (paths: string[]) => void,
  onError: (error: Error) => void = () => {},
): Promise<StopWatching> {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    const paths = [...pending];
    pending.clear();
    if (paths.length > 0) onChanges(paths);
  };
  const rootFiles = new Set<string>(IGNORE_FILES);
  const real = realRoot(root);
  const ignored = (path: string): boolean => {
    const rel = relative(real, path).split(sep).join("/");
    if (rel === "" || rootFiles.has(rel)) return false;
    return rel.startsWith("../") || rel.split("/").some((part) => part.startsWith(".") || part === "node_modules");
  };
  const watcher = watch(real, { ignoreInitial: true, followSymlinks: false, ignored });
  const record = (path: string): void => {
    pending.add(relative(real, path).split(sep).join("/"));
    if (timer === undefined) timer = setTimeout(flush, LIMITS.load.watchDebounceMs);
  };
  watcher.on("add", record).on("change", record).on("unlink", record).on("unlinkDir", record);
  // chokidar drops a second write whose stat it took to be an access-time change (its stat of the
  // first write ran after the second: same mtime, newer atime), so an edit saved twice in quick
  // succession kept serving the first. The kernel's own modify events carry no such guess (no
  // access events are asked for): each one is recorded too, and the batch dedupes.
  watcher.on("raw", (event, name, details) => {
    const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (event !== "change" || typeof watched !== "string" || typeof name !== "string") return;
    const path = basename(watched) === name && !isFolder(watched) ? watched : join(watched, name);
    if (!ignored(path) && path !== real) record(path);
  });
  watcher.on("error", (e) => onError(e instanceof Error ? e : new Error(String(e))));
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return async () => {
    if (timer !== undefined) clearTimeout(timer);
    await watcher.close();
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
