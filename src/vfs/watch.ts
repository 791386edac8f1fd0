import { relative, sep } from "node:path";
import { watch } from "chokidar";
import { LIMITS } from "../limits.js";
import { IGNORE_FILES } from "../config/ignore-rules.js";

/** Stops a watcher. */
export type StopWatching = () => Promise<void>;

/**
 * Watch a repository and report changed files (repo-relative, `/`-separated) in batches: editors
 * write several files, or one file several times, in a burst. Dot-folders, `.git` and
 * `node_modules` are never watched (they are never served either); the root ignore files are.
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
  const watcher = watch(root, {
    ignoreInitial: true,
    ignored: (path: string) => {
      const rel = relative(root, path).split(sep).join("/");
      if (rel === "" || rootFiles.has(rel)) return false;
      return rel.split("/").some((part) => part.startsWith(".") || part === "node_modules");
    },
  });
  const record = (path: string): void => {
    pending.add(relative(root, path).split(sep).join("/"));
    if (timer === undefined) timer = setTimeout(flush, LIMITS.load.watchDebounceMs);
  };
  watcher.on("add", record).on("change", record).on("unlink", record).on("unlinkDir", record);
  watcher.on("error", (e) => onError(e instanceof Error ? e : new Error(String(e))));
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return async () => {
    if (timer !== undefined) clearTimeout(timer);
    await watcher.close();
  };
}
