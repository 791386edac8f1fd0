import { type Dirent, type FSWatcher, lstatSync, readdirSync, realpathSync, statSync, watch } from "node:fs";
import { performance } from "node:perf_hooks";
import { basename, dirname, join, resolve } from "node:path";
import { LIMITS } from "../limits.js";
import { IGNORE_FILES } from "../config/ignore-rules.js";
import { ENTRY_CONTROL, ENTRY_FOLDER, type ListedFolder, realRoot } from "../config/inside-root.js";

/** Stops a watcher. */
export type StopWatching = () => Promise<void>;

/** How changed files wait until they are applied (`PathBatch`). */
export interface SettleOptions {
  /** How long a changed file must stay unchanged before it is handed over (default
   *  `LIMITS.load.writeSettleMs`). */
  readonly settleMs?: number;
  /** Told of the files a check found still settling, once per file and change: the paths
   *  held, not yet handed over. */
  readonly onHeld?: (paths: readonly string[]) => void;
}

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
 *
 * A server starts it before its load reads anything (`RepositoryWatcher`), so that a change made
 * while it starts is an event like any other (issue 25); this function watches a repository
 * already loaded.
 */
export async function watchRepository(
  root: string,
  onChanges: (paths: string[]) => void,
  onError: (error: Error) => void = () => {},
  /** The folders the load listed, with their stats (`LoadedSite.folders`): watched without
   *  listing them again (4,765 folders of the 25k versioned site: ~50 ms of CPU), then each
   *  checked by its stat for a change since the load listed it. Unset: found by a walk. A file
   *  changed in place in that time does not move its folder's stat, and is not seen: a server
   *  watches before it loads instead. */
  listed?: readonly ListedFolder[],
): Promise<StopWatching> {
  const watcher = startWatching(root, onChanges, onError, listed);
  return async () => watcher.stop();
}

/** `watchRepository`, its watcher returned (to be told the configuration files: `watchConfigFiles`). */
export function startWatching(root: string, onChanges: (paths: string[]) => void, onError: (error: Error) => void, listed?: readonly ListedFolder[], settle: SettleOptions = {}): RepositoryWatcher {
  const watcher = new RepositoryWatcher(root, onError, settle);
  if (listed === undefined) watcher.watchFolder("", false);
  else watcher.watchListed(listed);
  watcher.deliver(onChanges);
  return watcher;
}

/**
 * The watch of a repository, made before the load reads it: the load's walk calls
 * `beforeListing` for each folder before it lists it (or takes its listing from the cache), and
 * everything it reads after, so a change to a file after its read, or to a folder after its
 * listing, is an event. Until `deliver` is called the changed paths are kept; then they are
 * handed over at once, later ones in batches.
 */
export class RepositoryWatcher {
  private readonly batch: PathBatch;
  private readonly rootFiles = new Set<string>(IGNORE_FILES);
  /** Configuration files in folders never watched (a dot-folder an ignore file's link leads
   *  into): watched for them alone (`watchConfigFiles`). */
  private readonly hiddenConfigs = new Set<string>();
  private real: string;
  private readonly watchers = new Map<string, FSWatcher>();
  /** The folders holding the root (the path given and its real path), each watched for the
   *  root's own name in it: what sees the root itself replaced (`checkRoot`). */
  private readonly parents = new Map<string, { readonly watcher: FSWatcher; readonly names: Set<string> }>();
  /** The real folder being watched as the root, by path and inode; undefined while it is gone. */
  private identity: RootIdentity | undefined;
  private lost = false;
  private onRoot: ((event: RootEvent) => void) | undefined;
  private pendingRoot: RootEvent | undefined;
  private failed = false;
  private stopped = false;

  constructor(
    private readonly root: string,
    private readonly onError: (error: Error) => void = () => {},
    settle: SettleOptions = {},
  ) {
    this.batch = new PathBatch((rel) => markOf(this.abs(rel)), settle);
    this.identity = identityOf(root);
    // A root that cannot be resolved is the load's to report; its watch fails quietly (ENOENT).
    this.real = this.identity?.real ?? root;
    this.watchParents();
  }

  /**
   * Be told when the root itself is replaced (a deploy's `mv docs.new docs`, a retargeted
   * `current` link, `rm -rf` then a new clone) or gone: the folders watched were the old tree's,
   * whose later events must decide nothing, so its changed paths are dropped, the new tree is
   * watched whole, and the listener loads it whole (adversary round 11 F4). Told once per change.
   */
  onRootChange(listener: (event: RootEvent) => void): void {
    this.onRoot = listener;
    const pending = this.pendingRoot;
    this.pendingRoot = undefined;
    if (pending !== undefined) listener(pending);
  }

  /** Watch a folder the load is about to list (or take from the cache): not listed here. */
  beforeListing(rel: string): void {
    if (this.stopped) return;
    // A folder that cannot be read is the listing's to report (its pages are not served), and
    // must not take the one warning a watch limit gets (`fail`).
    this.watchOnly(rel, UNREADABLE);
  }

  /**
   * Watch the configuration files the load read (`LoadedSite.configFiles`) that are in a folder
   * never watched otherwise (a dot-folder a link leads into: `.svcignore -> .rules/main.txt`): an
   * edit of one reloads what read it, as for any configuration file (issue 25, F3).
   */
  watchConfigFiles(rels: Iterable<string>): void {
    if (this.stopped) return;
    for (const rel of rels) {
      const slash = rel.lastIndexOf("/");
      // Watched again if its folder's watch was dropped (a folder above it moved or replaced).
      if (slash < 0 || !rel.split("/").some((part) => this.skipped(part))) continue;
      this.hiddenConfigs.add(rel);
      this.watchOnly(rel.slice(0, slash));
    }
  }

  /** Report paths as changed, as if their events came (a change seen otherwise: the cache's configuration files). */
  record(paths: readonly string[]): void {
    for (const path of paths) this.batch.add(path);
  }

  /** Hand the changed paths over from now on: those kept so far at once. */
  deliver(onChanges: (paths: string[]) => void): void {
    // Paths of a root since replaced or gone are not handed over (`checkRoot` says what happened).
    this.batch.deliver((paths) => {
      if (!this.checkRoot()) onChanges(paths);
    });
  }

  /** Stop watching. */
  stop(): void {
    this.stopped = true;
    this.batch.stop();
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    for (const { watcher } of this.parents.values()) watcher.close();
    this.parents.clear();
  }

  /** Watch the folders holding the root (as given, and its real folder) for its name. */
  private watchParents(): void {
    const given = resolve(this.root);
    for (const abs of [given, ...(this.identity !== undefined ? [this.identity.real] : [])]) {
      let parent: string;
      try {
        parent = realpathSync.native(dirname(abs));
      } catch {
        continue;
      }
      const name = basename(abs);
      const known = this.parents.get(parent);
      if (known !== undefined) {
        known.names.add(name);
        continue;
      }
      try {
        const names = new Set([name]);
        const watcher = watch(parent, (_event, changed) => {
          if (typeof changed !== "string" || names.has(changed)) this.checkRoot();
        });
        watcher.on("error", () => {
          watcher.close();
          this.parents.delete(parent);
        });
        this.parents.set(parent, { watcher, names });
      } catch {
        // A parent that cannot be watched (permissions): a replaced root is then seen by the
        // next batch of changes only, if any.
      }
    }
  }

  /**
   * Whether the root is no longer the folder watched: replaced by another (its real path or its
   * inode moved) or gone. On a change, the old tree's watches and changed paths are dropped, a
   * new tree is watched whole, and `onRootChange`'s listener is told.
   */
  private checkRoot(): boolean {
    if (this.stopped) return false;
    const now = identityOf(this.root);
    const was = this.identity;
    if (now === undefined) {
      if (was === undefined) return this.lost;
      this.identity = undefined;
      this.lost = true;
      this.dropTree();
      this.tell("gone");
      return true;
    }
    if (was !== undefined && was.real === now.real && was.dev === now.dev && was.ino === now.ino) return false;
    if (was === undefined && !this.lost) {
      // Never resolved at the start (the load said why): from now on, this is the root.
      this.identity = now;
      return false;
    }
    this.identity = now;
    this.lost = false;
    this.dropTree();
    this.real = now.real;
    this.watchParents();
    this.watchFolder("", false);
    this.tell("replaced");
    return true;
  }

  /** Stop watching the tree's folders and forget its changed paths. */
  private dropTree(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.batch.clear();
  }

  private tell(event: RootEvent): void {
    if (this.onRoot !== undefined) this.onRoot(event);
    else this.pendingRoot = event;
  }

  private fail(error: Error): void {
    // Once: a watch limit reached fails every folder after it the same way.
    if (!this.failed) this.onError(error);
    this.failed = true;
  }

  private skipped(name: string): boolean {
    return name.startsWith(".") || name === "node_modules";
  }

  private abs(rel: string): string {
    return rel === "" ? this.real : join(this.real, rel);
  }

  /** Watch one folder, without listing it; false when it cannot be watched (`quiet`: error codes not reported). */
  private watchOnly(rel: string, quiet: ReadonlySet<string> = GONE): boolean {
    if (this.watchers.has(rel)) return true;
    try {
      const watcher = watch(this.abs(rel), (_event, name) => this.changed(rel, typeof name === "string" ? name : undefined));
      watcher.on("error", () => this.unwatch(rel));
      this.watchers.set(rel, watcher);
      return true;
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      // Gone before it could be watched: its removal is reported by its parent (or its parent's listing).
      if (!quiet.has(err.code ?? "")) this.fail(err);
      return false;
    }
  }

  /** Watch a folder and, with `report`, say every file under it changed (a folder moved in). */
  watchFolder(rel: string, report: boolean): void {
    if (this.watchers.has(rel) || !this.watchOnly(rel)) return;
    let entries;
    try {
      entries = readdirSync(this.abs(rel), { withFileTypes: true });
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      if (err.code !== "ENOENT" && err.code !== "ENOTDIR") this.fail(err);
      return;
    }
    for (const entry of entries) {
      if (this.skipped(entry.name)) continue;
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) this.watchFolder(child, report);
      else if (report) this.batch.add(child);
    }
  }

  /**
   * Watch the folders the load listed, then report what changed in them between that listing
   * and their watch: a folder whose stat moved is listed, each entry the load did not take that
   * is not a folder (a new page; other files too, which a reload reads or leaves as it does any
   * change) and each it took that is gone are reported, and a new folder is watched and reported
   * whole, as one that appears later is.
   */
  watchListed(folders: readonly ListedFolder[]): void {
    for (const folder of folders) this.watchOnly(folder.rel);
    for (const folder of folders) {
      if (!this.watchers.has(folder.rel)) continue;
      const entries = listIfChanged(this.abs(folder.rel), folder);
      if (entries === "same") continue;
      if (entries === "gone") {
        this.unwatch(folder.rel);
        continue;
      }
      const { paths, folders: found } = changedEntries(folder, entries, (name) => this.skipped(name), (child) => this.watchers.has(child));
      for (const path of paths) this.batch.add(path);
      for (const child of found) this.watchFolder(child, true);
    }
  }

  /** Stop watching a folder and the folders under it. */
  private unwatch(rel: string): void {
    for (const [folder, watcher] of this.watchers) {
      if (folder === rel || (rel === "" ? true : folder.startsWith(`${rel}/`))) {
        watcher.close();
        this.watchers.delete(folder);
      }
    }
  }

  private changed(folder: string, name: string | undefined): void {
    if (name === undefined) {
      // The kernel did not say which entry: the folder as a whole.
      if (folder !== "") this.batch.add(folder);
      return;
    }
    const rel = folder === "" ? name : `${folder}/${name}`;
    if (rel.split("/").some((part) => this.skipped(part)) && !(folder === "" && this.rootFiles.has(name)) && !this.hiddenConfigs.has(rel)) return;
    this.batch.add(rel);
    let isFolder = false;
    try {
      isFolder = lstatSync(join(this.real, rel)).isDirectory();
    } catch {
      // Gone: a folder that was watched goes with what was under it.
      if (this.watchers.has(rel)) this.unwatch(rel);
      return;
    }
    // An event on a folder's own entry: what was watched there may no longer be what is there.
    // Its watch follows the folder it was made on, wherever that went (moved out of the root,
    // where its events must decide nothing), and events come after the fact: a folder moved out,
    // replaced by a link, then moved back, is the same folder again by the time they are read,
    // with its pages dropped while the link stood (adversary round 11 F2). So whatever the event,
    // a watch at that path is dropped, and a folder there now is listed again and reported whole.
    if (this.watchers.has(rel)) this.unwatch(rel);
    if (isFolder) this.watchFolder(rel, true);
  }
}

/** What became of the root (`RepositoryWatcher.onRootChange`). */
export type RootEvent = "replaced" | "gone";

/** A root's real folder: its path, and its device and inode (a folder renamed over it keeps the path). */
interface RootIdentity {
  readonly real: string;
  readonly dev: number;
  readonly ino: number;
}

function identityOf(root: string): RootIdentity | undefined {
  try {
    const real = realRoot(root);
    const st = statSync(real);
    return st.isDirectory() ? { real, dev: st.dev, ino: st.ino } : undefined;
  } catch {
    return undefined;
  }
}

/** Errors of a folder gone before it could be watched (its parent reports its removal). */
const GONE: ReadonlySet<string> = new Set(["ENOENT", "ENOTDIR"]);
/** ... and of one that cannot be read (the load reports it, as a folder it cannot list). */
const UNREADABLE: ReadonlySet<string> = new Set([...GONE, "EACCES", "EPERM"]);

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

/** A path's stat, as `PathBatch` compares it: size, times and inode; or what stands there instead. */
type Mark = string;
const GONE_MARK = "gone";
const FOLDER_MARK = "folder";

/** `abs`'s mark (a link's target's, as the load reads it; a dangling link's own). */
function markOf(abs: string): Mark {
  let st;
  try {
    st = statSync(abs);
  } catch {
    try {
      st = lstatSync(abs);
    } catch {
      return GONE_MARK;
    }
  }
  if (st.isDirectory()) return FOLDER_MARK;
  return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
}

/** A changed path not handed over yet: when it was last seen changing, its mark then, and
 *  whether `onHeld` was told it is held. */
interface Settling {
  changedAt: number;
  mark: Mark;
  told: boolean;
}

/**
 * Changed paths handed over once each has settled: a file is handed over when it has not changed
 * (no event, and the same size, times and inode) for `LIMITS.load.writeSettleMs`, checked every
 * `LIMITS.load.watchDebounceMs` or so. A file written in place in parts (`cmd > file`: truncated,
 * part written, a pause, the rest) is then applied whole, not part by part (adversary round 57
 * F2: the first part of a page, an ignore file or a spec was served, its restrictions not yet
 * written). Decided by events and stats, never by how fast the machine is: an empty file is held
 * like any other, and so is a path gone: a link removed and a folder renamed into its place (a
 * checkout, a folder moved back) is one reload whatever the machine's load puts between the two
 * events, not one without the folder and then one with it. A folder is handed over at the next
 * check (its files are reported, and settle, each on its own). Paths settled together
 * are handed over together: a checkout or a save of many files is one reload. Kept, with no timer,
 * until there is someone to hand them to (`deliver`: a watch made before the load).
 */
class PathBatch {
  private readonly pending = new Map<string, Settling>();
  private timer: NodeJS.Timeout | undefined;
  private onChanges: ((paths: string[]) => void) | undefined;
  private readonly settleMs: number;

  constructor(
    private readonly mark: (rel: string) => Mark,
    private readonly settle: SettleOptions,
  ) {
    this.settleMs = settle.settleMs ?? LIMITS.load.writeSettleMs;
  }

  add(rel: string): void {
    this.pending.set(rel, { changedAt: performance.now(), mark: this.mark(rel), told: false });
    this.schedule(LIMITS.load.watchDebounceMs);
  }

  /** Hand over the paths kept so far at once (each was seen and read by the load meanwhile), then check later ones as they settle. */
  deliver(onChanges: (paths: string[]) => void): void {
    this.onChanges = onChanges;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const paths = [...this.pending.keys()];
    this.pending.clear();
    if (paths.length > 0) onChanges(paths);
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.onChanges = undefined;
  }

  /** Forget the paths not handed over yet. */
  clear(): void {
    this.pending.clear();
  }

  private schedule(ms: number): void {
    if (this.timer === undefined && this.onChanges !== undefined) this.timer = setTimeout(() => this.check(), ms);
  }

  /** Hand over the paths settled; check the rest again when the first of them may have. */
  private check(): void {
    this.timer = undefined;
    const now = performance.now();
    const ready: string[] = [];
    const held: string[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [rel, settling] of this.pending) {
      const mark = this.mark(rel);
      // Changed with no event seen (one the kernel merged, or lost): it starts to settle again.
      if (mark !== settling.mark) {
        settling.mark = mark;
        settling.changedAt = now;
      }
      const waited = now - settling.changedAt;
      if (mark === FOLDER_MARK || waited >= this.settleMs) {
        ready.push(rel);
        continue;
      }
      next = Math.min(next, this.settleMs - waited);
      if (!settling.told) {
        settling.told = true;
        held.push(rel);
      }
    }
    // A folder (moved in, or gone) waits for the files under it that still settle: a folder
    // moved back in is one reload with its pages, as it was before files settled.
    const holding = new Set<string>();
    const settled = new Set(ready);
    for (const rel of this.pending.keys()) {
      if (settled.has(rel)) continue;
      for (let slash = rel.lastIndexOf("/"); slash > 0; slash = rel.lastIndexOf("/", slash - 1)) holding.add(rel.slice(0, slash));
    }
    const handed = holding.size === 0 ? ready : ready.filter((rel) => !holding.has(rel));
    for (const rel of handed) this.pending.delete(rel);
    if (held.length > 0) this.settle.onHeld?.(held);
    if (handed.length > 0) this.onChanges?.(handed);
    if (this.pending.size > 0) this.schedule(Math.max(Math.ceil(next), LIMITS.load.watchDebounceMs));
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
    // Not served for its name, and said so by the load that listed it: nothing in it to watch.
    if (kind === ENTRY_CONTROL) continue;
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
