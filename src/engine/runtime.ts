import { LoadStoppedError } from "../config/load-stopped.js";
import { availableParallelism } from "node:os";
import { LIMITS } from "../limits.js";
import { cappedFindingLines } from "../config/capped-findings.js";
import { type Diagnostic, formatDiagnostic } from "../config/diagnostic.js";
import type { IgnoreRules } from "../config/ignore-rule-set.js";
import type { FetchLike } from "../config/openapi/load-api-spec.js";
import { failedSpecOf } from "../config/openapi/plan-api-pages.js";
import { prefetchRemoteSpecs } from "../vfs/api-pages.js";
import type { Access } from "../vfs/access.js";
import type { ApiPageInfo } from "../vfs/site-api.js";
import { type LoadedSite, type LoadSiteOptions, loadSite, reloadReplacedRoot, reloadSite, watchedAside } from "../vfs/load-site.js";
import { readerApiPage, readerOutline, sameOutlineBasis, type SiteOutline } from "../vfs/outline.js";
import { type RequestContext, mayRead, visibilityKey } from "../vfs/request-context.js";
import type { Page } from "../vfs/page.js";
import type { Site } from "../vfs/site.js";
import { SiteView } from "../vfs/view.js";
import { RepositoryWatcher, type RootEvent, type SettleOptions, type StopWatching, startWatching } from "../vfs/watch.js";
import { PAGE_READ, type SearchHit, SearchIndex, type SearchRequest } from "./search/search-index.js";
import { AnalysisFeed, analysisWorkers } from "./search/analysis-feed.js";
import { AnalysisDuringLoad } from "./search/analysis-during-load.js";
import { startPageReadAhead } from "./page-read-ahead.js";
import { CallerTurns } from "./search/caller-turns.js";
import { LazyShell } from "./shell/lazy-shell.js";
import type { Shell } from "./shell/shell.js";
import { ShellHost, type ShellHostOptions } from "./shell/shell-host.js";
import type { CallerPlaces } from "./shell/shared-places.js";
import { RenderPool, type RenderPoolOptions } from "./render/render-pool.js";
import { generatedSkill, isSkillFile, listSkills, type Skill } from "./skills.js";
import { type ToolNames, toolNames } from "./tool-names.js";
import type { CachedSite, SiteCache } from "./site-cache.js";
import type { CacheWrite } from "./site-cache-writer.js";
import type { RankingParams } from "./search/ranking.js";
import { collectGarbage } from "./collect-garbage.js";
import type { VariantMemory } from "./variant-memory.js";

export interface RuntimeOptions {
  /** Repository folder on disk. */
  readonly root: string;
  /** `{docs_url}` for links in search hits; defaults to the site's canonical URL or localhost. */
  readonly baseUrl?: string;
  /** Progress and problems (the CLI sends them to stderr). */
  readonly log?: (message: string) => void;
  /** How changed files settle before they are applied (`PathBatch`): the settle period (default
   *  `LIMITS.load.writeSettleMs`), and who is told of files held while they settle. */
  readonly settle?: SettleOptions;
  /** How the site is loaded (spec cache, remote specs); reloads keep these. */
  readonly load?: LoadSiteOptions;
  /**
   * Run shell commands in a pool of worker threads (see `ShellHost`; options to size it): a
   * server (HTTP and stdio alike), whose event loop a command must never hold past its limit.
   * Off, commands run in this thread (`serve --no-shell-worker`).
   */
  readonly shellWorker?: boolean | ShellHostOptions;
  /**
   * How the pool that renders pages for people is sized (`RenderPool`): pages are always
   * rendered in worker threads, started when the first page is asked for.
   */
  readonly renderWorker?: RenderPoolOptions;
  /**
   * Start the shell pool (its first worker, the site's shared encoding) at `prepareShell`, not
   * at load: a stdio server answers `tools/list` first (the encoding takes the main thread for
   * a moment on a large site).
   */
  readonly shellLater?: boolean;
  /** Searches whose hits are kept for a repeat (0: none); `LIMITS.search.cachedResults` by default. */
  readonly searchCache?: number;
  /** Ranking parameters other than `RANKING`'s (the evaluation's variants, tests of one parameter). */
  readonly ranking?: Partial<RankingParams>;
  /** Length of a slice of the initial index build (default `LIMITS.load.indexSliceMs`; tests
   *  pass 0 to pause after every page, so that requests meet an index still being built). */
  readonly indexSliceMs?: number;
  /**
   * Build the search index when `whenIndexed()` or a search first asks, not as soon as the site
   * is loaded: a server passes it and asks once it is serving, so that what it does before (the
   * watcher's first scan, opening its stores: chains of I/O, each step waiting for the event
   * loop) does not wait behind index slices.
   */
  readonly indexLater?: boolean;
  /**
   * The persistent cache of parsed pages and the search index (`site-cache.ts`): read at load,
   * written once the index is built when the start was not answered from it whole. Unset: none.
   */
  readonly siteCache?: SiteCache;
  /**
   * Watch the repository from before the load reads it (`RepositoryWatcher`): a change made while
   * the server starts is then applied like any other, and `watch()` applies those made so far
   * before it resolves. Without it `watch()` watches after the load, and a file changed in place
   * in between is not seen (one-shot commands, which never watch, and tests of that watch).
   */
  readonly watch?: boolean;
  /**
   * Told where the start is (`LoadStep`): tests change files at these points, inside the window
   * between what the load has read and the watch taking over, without timing (issue 25).
   */
  readonly onLoadStep?: (step: LoadStep) => void;
  /**
   * Learn the site vectors search re-orders by (`siteVectorWeight`, `site-vectors.ts`) after each
   * build and each reload that changes pages, in slices between requests (`learnVectors`): a
   * server passes it. Searches before they are learned re-order by nothing. Off (tests, one-shot
   * commands): never learned, so results never depend on when a search came; a test that wants
   * them passes it and waits for `whenVectorsLearned()`.
   */
  readonly learnVectors?: boolean;
  /**
   * Count the persistent cache's write delay (`LIMITS.cache.writeDelayMs`) from `serving()`, not
   * from the end of the index build: an HTTP server opens its port only after the build and the
   * shell pool's load, which take seconds on a large site, and a write begun meanwhile took this
   * thread's slices and its memory before the port opened and beside the first search (issue 22).
   */
  readonly writeCacheOnceServing?: boolean;
  /**
   * Begin the search index's page analysis while a first load reads the pages
   * (`AnalysisDuringLoad`), not once the build starts: for a runtime whose index is built right
   * after the load (`serve`, which waits for it before it answers). Off where a build may never
   * come (`indexLater` without a search: one-shot commands), whose load it would only slow.
   */
  readonly analyseWhileLoading?: boolean;
  /**
   * Each reader class's time of each file with restricted parts, kept in a state file across
   * starts (`VariantMemory`): the load dates classes by it, and `close` writes it. Unset (tests,
   * one-shot commands): a start dates every class by the file's time.
   */
  readonly timesMemory?: VariantMemory;
}

/** Points of a start (`RuntimeOptions.onLoadStep`): the persistent cache checked against the
 *  configuration files (before the pages are read), and every file read. */
export type LoadStep = "cache-checked" | "read";

/** What the initial index build did: started from the persistent cache or not, and how many
 *  pages it indexed (all, from none; else those the cache did not hold as they are) and removed. */
export interface IndexBuild {
  readonly fromCache: boolean;
  readonly added: number;
  readonly removed: number;
  /** The reader whose prepared search state came from the cache too (`SearchIndex.preparedFromState`). */
  readonly preparedReader?: string;
}

/** Everything one reader uses, built once per (site snapshot, auth setting, reader) and shared by calls. */
export interface ReaderState {
  readonly view: SiteView;
  readonly shell: Shell;
  readonly skills: readonly Skill[];
  /** The sections, versions and languages this reader may be told about. */
  readonly outline: SiteOutline;
}

/** What changed in a reload, for servers to notify their clients. */
export interface RuntimeChange {
  readonly site: Site;
  readonly previous: Site;
  readonly namesChanged: boolean;
  /** Diagnostics of this reload (errors mean the last good state kept serving for that file). */
  readonly diagnostics: readonly Diagnostic[];
}

/** Fallback `{docs_url}` when neither `--base-url` nor docs.json gives one: `mint dev`'s address. */
export const DEFAULT_BASE_URL = "http://localhost:3000";

/** Readers with distinct group sets (and auth settings) get distinct views; keep the most recent ones. */
const MAX_CACHED_READERS = 256;

/** A cache write due (`begin` starts it, once) or under way (`write`), and its end. */
interface PendingSave {
  readonly done: Promise<boolean>;
  readonly begin: () => void;
  /** Start the delay after which `begin` runs (at once from `save`, or from `serving`). */
  delay?: () => void;
  /** A search was answered: the write, if not begun, begins `writeDelayMs` from now (at most
   *  `writeDelayMaxMs` after the delay started). */
  later: () => void;
  started?: boolean;
  write?: CacheWrite;
}

/**
 * The live docs service: the current site snapshot, its search index and per-reader views,
 * reloaded on file changes. Every transport (stdio, HTTP) serves from one runtime.
 */
export class DocsRuntime {
  private loaded: LoadedSite;
  private index: SearchIndex;
  /** A save's analysis in workers, while it is awaited (`analyseSaved`): `close` ends it. */
  private savedFeed: AnalysisFeed | undefined;
  /** Saved pages whose analysis a worker made (`analyseSaved`), since the start. */
  private savedInWorkers = 0;
  /** What the start took from the persistent cache, until the initial index build uses it. */
  private cached: CachedSite | undefined;
  /** The persistent cache's write due or under way (`save`), until it ends. */
  private saving: PendingSave | undefined;
  /** Per-reader state by (snapshot, auth setting, reader key): see `readerState`. */
  private readers = new Map<string, ReaderState>();
  /** Each reader class's outline, by `visibilityKey`: kept across snapshots while the site's
   *  structure is the same (`sameOutlineBasis`), dropped with the readers' states otherwise. */
  private outlines = new Map<string, SiteOutline>();
  /** Bumped by every new site snapshot; part of every per-reader cache key. */
  private snapshot = 0;
  private readonly listeners = new Set<(change: RuntimeChange) => void>();
  /** Announcements that compare the snapshot a change published with the one before (`announceChanges`). */
  private readonly announcers = new Set<(change: RuntimeChange) => Promise<void>>();
  /**
   * The announcements of the snapshot served now, until they have all been made: the next
   * snapshot is not served before (`announceChanges`).
   */
  private announced: Promise<void> = Promise.resolve();
  /** Whose search runs now: one at a time per caller, so none holds the thread for many (`CallerTurns`). */
  readonly searchTurns = new CallerTurns();
  private stopWatching: StopWatching | undefined;
  /** The watch, told the configuration files after every load (`RepositoryWatcher.watchConfigFiles`). */
  private watcher: RepositoryWatcher | undefined;
  /** Reloads and the initial index build, one after another. */
  private queue: Promise<void> = Promise.resolve();
  /** The initial index build once started (`whenIndexed`): every search waits for it. */
  private indexing: Promise<void> | undefined;
  /** False while the initial index is incomplete, and for good when `close` stopped its build. */
  private indexComplete = false;
  /** The reader `prepareSearch` was last asked for (the server's own: stdio's local reader, HTTP's
   *  anonymous one): the persistent cache keeps what its first search needs (`SearchIndex.state`). */
  private preparedReader: ((access: Access) => boolean) | undefined;
  private built: IndexBuild | undefined;
  private pendingPaths = new Set<string>();
  private namesOf: { site: Site; names: ToolNames } | undefined;
  private readonly log: (message: string) => void;
  /**
   * The snapshot each snapshot made by applying remote specs (`applyRemote`) was made from, as
   * far back as the last one a file change made: its pages' file times are that one's, so a cache
   * write due for it may write the snapshot after it (`save`). Every `serve` of a site naming a
   * remote spec applies it seconds after the start, which dropped the write of the first build:
   * such a site was indexed whole at every start (portkey: 8-12 s, never from the cache).
   */
  private readonly remoteBases = new WeakMap<Site, Site>();

  /** Set once remote specs are to be fetched (`fetchRemoteSpecs`). */
  private remote: { readonly fetch: FetchLike; readonly abort: AbortController; readonly attempted: Set<string> } | undefined;
  private closed = false;
  /** `serving()` was called (`RuntimeOptions.writeCacheOnceServing`). */
  private isServing = false;
  /** The site vectors' learning under way (`learnVectors`), until it ends. */
  private vectorsLearning: Promise<void> | undefined;
  private readonly shellHost: ShellHost | undefined;
  private renders: RenderPool | undefined;

  private constructor(
    loaded: LoadedSite,
    private readonly options: RuntimeOptions,
    cached?: CachedSite,
    /** When the load began (`Date.now()`): files changed since may have changed again unseen. */
    private readonly loadStarted = Date.now(),
    /** The watch made before the load (`RuntimeOptions.watch`), until `watch()` takes it. */
    private early?: RepositoryWatcher,
    /** The analysis begun during the load (`RuntimeOptions.analyseWhileLoading`), until the build takes it. */
    private duringLoad?: AnalysisDuringLoad,
  ) {
    this.loaded = loaded;
    this.cached = cached;
    this.log = options.log ?? (() => {});
    this.index = this.newIndex();
    // The index is built after `load` returns, so that a server answers `initialize` and
    // `tools/list` (which need the site, not the index) while it builds: more than half of the
    // start-up of a site of a thousand pages. Searches and reloads wait for it.
    if (options.indexLater !== true) void this.whenIndexed();
    if (options.shellWorker !== undefined && options.shellWorker !== false) {
      this.shellHost = new ShellHost({ log: this.log, ...(options.shellWorker === true ? {} : options.shellWorker) });
      // Workers start and load the site now (encoded once, shared): the first command finds one
      // ready. With `shellLater` nothing starts before `prepareShell` (or a command): a worker's
      // boot (~0.3 s of CPU on another core, beside the V8 threads' collection and the cache's
      // checksum thread) took the second core from a large site's start from the cache, which
      // uses both (issue 22).
      if (options.shellLater !== true) this.shellHost.start(loaded.site);
    }
  }

  /** Load a repository; its search index is built in the background (see `whenIndexed`). */
  static async load(options: RuntimeOptions): Promise<DocsRuntime> {
    const loadStarted = Date.now();
    const log = options.log ?? (() => {});
    const watcher = options.watch === true ? new RepositoryWatcher(options.root, (error) => log(`warning: file watcher: ${error.message}`), options.settle) : undefined;
    const duringLoad = options.analyseWhileLoading === true && availableParallelism() >= 2 ? new AnalysisDuringLoad(availableParallelism(), log) : undefined;
    try {
      // The cache's checksums are computed by another thread while the load goes on from it: its
      // sums are waited for once the load is over (a warm start of the 25k-page versioned site
      // waited 0.6-1.1 s for them before the load began, issue 22), and a cache that fails them
      // is dropped with all that was made from it, the site loaded again without it.
      const pending = options.siteCache?.readPending();
      let cached = pending?.site;
      options.onLoadStep?.("cache-checked");
      // Each folder is watched before the load lists it, so every file it reads is read after its
      // folder is watched. A first load of a large site reads its files in a worker thread ahead
      // of it (`PageReadAhead`), after the listing.
      const load = { readAhead: (real: string, rels: readonly string[], maxBytes: number) => startPageReadAhead(real, rels, maxBytes, options.log), ...(duringLoad !== undefined ? { onPage: (page: Page) => duringLoad.offer(page) } : {}), ...(options.timesMemory !== undefined ? { timesMemory: options.timesMemory } : {}), ...options.load };
      const loadFrom = (known: CachedSite["known"] | undefined): Promise<LoadedSite> => loadSite(options.root, options.log, undefined, load, known, watcher !== undefined ? (rel) => watcher.beforeListing(rel) : undefined);
      let loaded: LoadedSite;
      try {
        loaded = await loadFrom(cached?.known);
      } catch (error) {
        // A load that failed from a cache that then fails its sums failed for the cache: loaded
        // again without it. Otherwise it is the site's failure.
        if (pending === undefined || pending.verify()) throw error;
        cached = undefined;
        loaded = await loadFrom(undefined);
      }
      if (cached !== undefined && pending?.verify() === false) {
        cached = undefined;
        loaded = await loadFrom(undefined);
      }
      // The cache was checked against the configuration files (by their text) before their
      // folders were watched: checked again now that they are (3-16 ms of CPU for the 1.7 MB
      // docs.json of the 25k-page site), a change in between reloads them as an event would.
      if (watcher !== undefined && cached !== undefined) watcher.record(cached.changedConfigs());
      options.onLoadStep?.("read");
      // A start from the cache indexes only what changed: nothing was offered (a first load only).
      if (cached !== undefined) duringLoad?.close();
      return new DocsRuntime(loaded, options, cached, loadStarted, watcher, cached === undefined ? duringLoad : undefined);
    } catch (error) {
      duringLoad?.close();
      // A load stopped (an ignore file that cannot be read) leaves no watch holding the process open.
      watcher?.stop();
      throw error;
    }
  }

  /**
   * Index the first snapshot in slices of `LIMITS.load.indexSliceMs`, yielding to the event loop
   * between them (`setImmediate` runs after pending I/O: a request that arrived is read and
   * answered first). Stops early when the runtime is closed (a one-shot command that never
   * searched); nothing searches a closed runtime.
   */
  private async buildIndex(): Promise<void> {
    if (this.closed) return;
    // The snapshot of now: reloads before the build (`indexLater`) only replaced the site.
    const site = this.site;
    const fromCache = this.restoreCached();
    const feed = this.analysisFeed(site);
    try {
      await this.runSteps(site, this.index.syncSteps(site, feed), fromCache);
    } finally {
      feed?.close();
    }
  }

  /**
   * Page analysis in worker threads for a build with many pages to analyse (`AnalysisFeed`): one
   * worker per core beside this thread's, and two on two cores for a site of mostly distinct
   * pages (`analysisWorkers`); none on a single core, where this thread does it all as before.
   * The index is the same either way.
   */
  private analysisFeed(site: Site): AnalysisFeed | undefined {
    const duringLoad = this.duringLoad;
    this.duringLoad = undefined;
    if (availableParallelism() < 2) return undefined;
    const imports = duringLoad?.takeImports();
    if (imports !== undefined) this.index.takeImports(imports);
    const bodies = this.index.bodiesToAnalyse(site);
    const workers = analysisWorkers(availableParallelism(), bodies.length, site.pages.size);
    // Begun during the load: the build takes what it has made, and it goes on in the build's order.
    const begun = duringLoad?.feedFor(bodies, workers);
    if (begun !== undefined) return begun;
    const { analysisWorkersFrom, analysisWorkersFromChars } = LIMITS.search;
    let chars = 0;
    for (const body of bodies) chars += body.chars;
    return bodies.length >= analysisWorkersFrom || chars >= analysisWorkersFromChars ? new AnalysisFeed(bodies, workers, this.log) : undefined;
  }

  /** Run a build's steps in slices (see `buildIndex`), waiting where a step waits for a worker. */
  private async runSteps(site: Site, steps: Generator<Promise<void> | typeof PAGE_READ | undefined, { added: number; removed: number }>, fromCache: boolean): Promise<void> {
    const sliceMs = this.options.indexSliceMs ?? LIMITS.load.indexSliceMs;
    const started = performance.now();
    let sliceStart = started;
    // Progress by pages done, never by time: what stderr says must not depend on how fast the
    // machine is (a test asserting a 600-page start's whole stderr met a line per 2 s at load 40).
    const { progressPages, progressSteps } = LIMITS.load;
    const every = site.pages.size > progressPages ? Math.ceil(site.pages.size / progressSteps) : Infinity;
    let done = 0;
    let read = 0;
    let step = steps.next();
    while (step.done !== true) {
      // Pages are read (analysed, their boilerplate counted) before they are indexed (`syncSteps`).
      if (step.value === PAGE_READ) {
        if (++read % every === 0 && read < site.pages.size) this.log(`reading pages for search: ${read} of ${site.pages.size} pages`);
      } else if (step.value !== undefined) await step.value;
      else if (++done % every === 0 && done < site.pages.size) this.log(`indexing for search: ${done} of ${site.pages.size} pages`);
      step = steps.next();
      const now = performance.now();
      if (now - sliceStart < sliceMs) continue;
      await new Promise((resolve) => setImmediate(resolve));
      if (this.closed) return;
      sliceStart = performance.now();
    }
    const seconds = (performance.now() - started) / 1000;
    const { added, removed } = step.value;
    // Reported where the load said what it was loading (a large site): small sites start quietly.
    if (added > LIMITS.load.announcedPages) this.log(`search ready: ${added} pages (${this.index.textCount} distinct texts) indexed in ${seconds.toFixed(1)} s`);
    else if (fromCache && site.pages.size > LIMITS.load.announcedPages) this.log(`search ready from the cache in ${seconds.toFixed(1)} s (pages indexed again: ${added}; removed: ${removed})`);
    this.indexComplete = true;
    const preparedReader = this.index.preparedFromState;
    this.built = { fromCache, added, removed, ...(preparedReader !== undefined ? { preparedReader } : {}) };
    this.shellHost?.releaseTexts(site);
    if (!fromCache || added > 0 || removed > 0) this.save(site);
    this.learnVectors();
  }

  /**
   * Learn the site vectors (`SearchIndex.vectorSteps`) in slices of `LIMITS.load.indexSliceMs`
   * between requests, when `RuntimeOptions.learnVectors` asks and the index wants them: 4-41 s of
   * CPU on a large site, which the first search used to pay. Again after a change that drops them.
   */
  private learnVectors(): void {
    if (this.options.learnVectors !== true || this.vectorsLearning !== undefined || this.closed || !this.index.vectorsWanted) return;
    const learning = this.runVectorSteps().finally(() => {
      if (this.vectorsLearning === learning) this.vectorsLearning = undefined;
      // A reload during the learning dropped what it learned: learn the pages as they are now.
      this.learnVectors();
    });
    this.vectorsLearning = learning;
  }

  private async runVectorSteps(): Promise<void> {
    // Always in finite slices: an HTTP server builds its index in one (its port opens after), but
    // answers requests while the vectors are learned.
    const given = this.options.indexSliceMs;
    const sliceMs = given !== undefined && Number.isFinite(given) ? given : LIMITS.load.indexSliceMs;
    const index = this.index;
    const steps = index.vectorSteps();
    // Requests already waiting are answered first.
    await new Promise((resolve) => setImmediate(resolve));
    let sliceStart = performance.now();
    while (!this.closed && this.index === index) {
      // Said nowhere: a line on stderr would come at a time of its own among the ready lines.
      if (steps.next().done === true) return;
      if (performance.now() - sliceStart < sliceMs) continue;
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }

  private newIndex(): SearchIndex {
    const { searchCache, ranking } = this.options;
    return new SearchIndex({ ...(searchCache !== undefined ? { cachedResults: searchCache } : {}), ...(ranking !== undefined ? { ranking } : {}) });
  }

  /**
   * Resolves when no site-vector learning is under way (`RuntimeOptions.learnVectors`): true when
   * searches now re-order by vectors of the pages as they are. The explicit point tests wait for.
   */
  async whenVectorsLearned(): Promise<boolean> {
    while (this.vectorsLearning !== undefined) await this.vectorsLearning;
    return this.index.vectorsLearned;
  }

  /**
   * Start the index from the persistent cache's (`site-cache.ts`), if the start read one: the
   * build that follows then indexes only the pages the load did not reuse, as a reload would.
   * An index that cannot be restored (a cache that passed its checks and still does not fit) is
   * dropped for an empty one: the build indexes everything.
   */
  private restoreCached(): boolean {
    const cached = this.cached;
    this.cached = undefined;
    if (cached === undefined) return false;
    try {
      this.index.restore(cached.index, cached.pageAt, cached.fileAt);
      return true;
    } catch (error) {
      this.log(`search cache not used: ${(error as Error).message}; indexing the site again`);
      this.index = this.newIndex();
      return false;
    }
  }

  /**
   * Write the persistent cache `LIMITS.cache.writeDelayMs` after the build or the last search
   * answered since (`PendingSave.later`; `writeDelayMaxMs` after the build at most), in slices that give
   * the thread back (`site-cache-writer.ts`): searches and commands are answered meanwhile, and
   * a client that stops the server soon after its first answers no longer stops a write that had
   * not begun. Only while the site is the one indexed: a reload drops the write (after a reload
   * the pages' file times no longer describe the snapshot: the next start indexes the edits
   * again). `close` starts it at once if it has not started, and lets it finish without yielding.
   */
  private save(site: Site): void {
    const cache = this.options.siteCache;
    if (cache === undefined) return;
    let settle: (written: boolean) => void = () => {};
    const done = new Promise<boolean>((resolve) => (settle = resolve));
    const save: PendingSave = {
      done,
      later: () => {},
      begin: () => {
        if (save.started) return;
        save.started = true;
        clearTimeout(timer);
        if (this.fileBasis(this.site) !== this.fileBasis(site)) return settle(false);
        // The build's garbage given back before the write makes its own on top of it: the
        // process's peak at 50,000 pages is this write, while the first commands run.
        if (site.pages.size > LIMITS.load.announcedPages) collectGarbage();
        try {
          // Written as it is now (the remote specs applied since `site`, if any), and only while
          // it stays so: a change during the write changes the index it is writing.
          const writing = this.site;
          save.write = cache.write(this.loaded, this.index.state(this.preparedReader), this.loadStarted, this.loaded.cacheConfigFiles, () => this.site === writing);
        } catch (error) {
          this.log(`search cache not written: ${(error as Error).message}`);
          return settle(false);
        }
        // Said where the load said what it was loading: whether the next start can use it is
        // then known (a client that stops the server at once may end the write, issue 22).
        const started = performance.now();
        void save.write.done.then((written) => {
          if (written && site.pages.size > LIMITS.load.announcedPages) this.log(`persistent cache written in ${((performance.now() - started) / 1000).toFixed(1)} s: the next start reads it`);
          // What the write made (its page columns, the serializer's parts) and the build before it
          // left are given back now (`collect-garbage.ts`): ~110 MB at 50,000 pages, which the
          // process otherwise kept. A pause of a fraction of a second, once, on a large site only.
          if (site.pages.size > LIMITS.load.announcedPages) collectGarbage();
          settle(written);
        });
      },
    };
    // Once the delay has started: whatever searches come, begun by `latest`.
    let timer: NodeJS.Timeout | undefined;
    let latest = 0;
    const schedule = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(save.begin, ms);
      timer.unref();
    };
    save.delay = () => {
      latest = Date.now() + LIMITS.cache.writeDelayMaxMs;
      schedule(LIMITS.cache.writeDelayMs);
    };
    save.later = () => {
      if (save.started === true || timer === undefined) return;
      schedule(Math.max(0, Math.min(LIMITS.cache.writeDelayMs, latest - Date.now())));
    };
    if (this.options.writeCacheOnceServing !== true || this.isServing) save.delay();
    this.saving = save;
    void done.then(() => {
      if (this.saving === save) this.saving = undefined;
    });
  }

  /**
   * The server serves now (`RuntimeOptions.writeCacheOnceServing`): a cache write due waits its
   * delay from here, and the variant times are kept from here (`VariantMemory.serving`: a start
   * that fails leaves none). Later calls change nothing.
   */
  serving(): void {
    if (this.isServing) return;
    this.isServing = true;
    this.options.timesMemory?.serving();
    if (this.options.writeCacheOnceServing === true && this.saving?.started !== true) this.saving?.delay?.();
  }

  /** Resolves when the persistent cache's write (if one is due) has ended: true when written. */
  async whenCacheWritten(): Promise<boolean | undefined> {
    return this.saving?.done;
  }

  /**
   * Resolves when the initial search index is complete, starting its build if it has not
   * started (`indexLater`); searches wait for it themselves. It is built after the reloads
   * already queued, and reloads queued after it wait for it.
   */
  whenIndexed(): Promise<void> {
    if (this.indexing === undefined) {
      const build = this.queue.then(() => this.buildIndex());
      this.indexing = build;
      // A failed build fails each search (a tool error), not the process; reloads still apply.
      this.queue = build.catch((error: unknown) => this.log(`error: building the search index failed: ${(error as Error).message}`));
    }
    return this.indexing;
  }

  /** What the initial index build did, once complete. */
  get indexBuild(): IndexBuild | undefined {
    return this.built;
  }

  /** The pages the last build or reload indexed and removed, by key (`SearchIndex.lastSync`). */
  get lastIndexSync(): SearchIndex["lastSync"] {
    return this.index.lastSync;
  }

  /** Saved pages whose analysis was made in a worker thread, not on the thread answering
   *  callers (`analyseSaved`), since the start. */
  get savedAnalysedInWorkers(): number {
    return this.savedInWorkers;
  }

  /** Whether the initial search index is complete. */
  get indexReady(): boolean {
    return this.indexComplete;
  }

  get site(): Site {
    return this.loaded.site;
  }

  /** The snapshot of files `site` stands for (`remoteBases`). */
  private fileBasis(site: Site): Site {
    return this.remoteBases.get(site) ?? site;
  }

  /** The ignore rules of the current snapshot (what the preview may serve of the repository's other files). */
  get ignore(): IgnoreRules {
    return this.loaded.ignore;
  }

  get names(): ToolNames {
    // Asked on every request by the HTTP bridge: derive once per site snapshot.
    const site = this.site;
    if (this.namesOf?.site !== site) this.namesOf = { site, names: toolNames(site.config.name) };
    return this.namesOf.names;
  }

  /** `{docs_url}`: `--base-url`, else docs.json's canonical URL, else localhost. */
  get baseUrl(): string {
    return (this.options.baseUrl ?? this.site.config.canonicalUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  }

  /**
   * The view, shell, skills and outline of a request's reader. Nothing here depends on who asked
   * before: the state is cached by the snapshot, the auth setting the request read and the
   * reader's key, so two requests with different settings in flight each get their own.
   */
  readerState(context: RequestContext): ReaderState {
    const key = `${this.snapshot}|${visibilityKey(context)}`;
    const cached = this.readers.get(key);
    if (cached !== undefined) {
      // Refresh recency for the LRU.
      this.readers.delete(key);
      this.readers.set(key, cached);
      return cached;
    }
    const site = this.site;
    const names = this.names;
    const outline = this.outlineOf(site, context);
    // Whether this reader sees a skill file of the site's own: a reader who sees none gets the
    // generated one, so an empty list never hints that restricted skills exist. It is dated like
    // their newest file (a restricted file's time is not theirs to see).
    let ownSkills = false;
    let newest = 0;
    for (const f of site.files.values()) {
      if (!mayRead(context, f.access)) continue;
      // The reader's variant's time: an edit to a part they may not read does not date it.
      const variants = site.variants?.get(f.path);
      const mine = variants?.file === f ? variants.forReader(context.reader, context.authMode)?.file : f;
      if (mine === undefined) continue;
      newest = Math.max(newest, mine.mtime.getTime());
      if (isSkillFile(f.path)) ownSkills = true;
    }
    const generated = ownSkills ? undefined : generatedSkill(site, names, outline, new Date(newest));
    const view = new SiteView(site, context.reader, context.authMode, generated === undefined ? [] : [generated.file]);
    const shell = this.shellHost !== undefined ? this.pooledShell(this.shellHost, site, view) : inThreadShell(view);
    // The generated skill is offered only where its file is visible (not to anonymous readers
    // of a fully authenticated site, who see public pages only).
    const skills = generated === undefined ? listSkills(view, names.slug) : view.fileAt(generated.file.path) !== undefined ? [generated] : [];
    const state: ReaderState = { view, shell, skills, outline };
    this.readers.set(key, state);
    if (this.readers.size > MAX_CACHED_READERS) {
      const oldest = this.readers.keys().next().value;
      if (oldest !== undefined) this.readers.delete(oldest);
    }
    return state;
  }

  private outlineOf(site: Site, context: RequestContext): SiteOutline {
    const key = visibilityKey(context);
    let outline = this.outlines.get(key);
    if (outline === undefined) {
      outline = readerOutline(site, context);
      this.outlines.set(key, outline);
      if (this.outlines.size > MAX_CACHED_READERS) this.outlines.delete(this.outlines.keys().next().value as string);
    }
    return outline;
  }

  /**
   * Load and build the shell of `context`'s reader now (in this thread, or with `shellLater` the
   * pool's first worker and the site's shared encoding), so that their first command does not
   * wait for it: `serve` calls it once it has answered what a client asks first.
   */
  prepareShell(context: RequestContext): void {
    // A worker ended since (or none yet): one boots on another core while this thread encodes the site.
    this.shellHost?.start();
    // Its view built in the pool's workers now, too: over HTTP the port opens once one has
    // (`whenShellLoaded`), so the first command does not wait for it.
    this.readerState(context).shell.prepare?.();
  }

  /**
   * A reader's shell in the pool. With `shellLater` its view is matched to the shared snapshot
   * when first needed (`prepareShell` or a command): doing so encodes the snapshot, which must
   * not hold up a stdio server's first answers.
   */
  private pooledShell(host: ShellHost, site: Site, view: SiteView): Shell {
    if (this.options.shellLater !== true) return host.shellFor(site, view);
    // A turn of the event loop first: `prepareShell` comes right after `prepareSearch`, and a
    // search the client sent meanwhile (agents ask one first) is read and answered before the
    // site is encoded (0.3-0.7 s of this thread on a 25,000-page site), not after it. Read is not
    // enough: a search waits a turn for the thread (`CallerTurns`), which the encoding took
    // first (2026-11-29, 25k versioned site: 0.1 s of the first search), so until it has ended.
    return new LazyShell(async () => {
      await ioTurn();
      await this.searchTurns.whenIdle();
      // The encoding begun and the reader's view sent to the worker first (`shellFor`'s `warm`):
      // the worker builds its records and the view (~0.5 s at 50,000 files) on another core
      // while this thread encodes the texts and answers the first search, instead of after both
      // (issue 22: the first command after the first search waited ~1.8 s for them, in a row).
      const shell = host.shellFor(site, view, true);
      // A slice at a time: a search that arrives once the encoding has begun (the client's round
      // trip is longer than a turn) is answered between two slices, not after it (issue 22).
      await host.encodeSoon(site);
      // The view's folders are not made here: a command's answer reads a folder's time from
      // its sorted files (`SiteView.folderTime`; making them was ~0.2 s of this thread after
      // the first search at 50,000 files, issue 22).
      return shell;
    });
  }

  /**
   * Count the shell pool's callers with the other worker processes of `serve --http --workers N`
   * (`ShellHost.shareCallerPlaces`): a worker calls it before it serves. No pool, nothing to count.
   */
  shareShellPlaces(places: CallerPlaces): void {
    this.shellHost?.shareCallerPlaces(places);
  }

  /** Resolves once the shell pool (if any) has a worker holding the site (`ShellHost.whenLoaded`). */
  async whenShellLoaded(): Promise<void> {
    await this.shellHost?.whenLoaded();
  }

  /**
   * Make what `context`'s reader's first search needs, when the index is built (`SearchIndex.prepareReader`):
   * `serve` calls it with `prepareShell`.
   */
  prepareSearch(context: RequestContext): void {
    const canRead = (access: Access): boolean => mayRead(context, access);
    this.preparedReader = canRead;
    if (this.indexComplete) this.index.prepareReader(canRead);
  }

  /**
   * Search as a request's reader: hits on pages the reader may not read are never returned.
   * Waits for the initial index; after it, `sync` on reload runs in one go, so a search never
   * sees an index half way through an update.
   */
  /** The ranking work of every search so far (`SearchIndex.work`): what a caller's search is
   *  charged in its turns (`CallerTurns`), the difference across it. */
  get searchWork(): number {
    return this.index.work;
  }

  /** The work a search of `request` is expected to make (`SearchIndex.expectedWork`), for its
   *  turn (`CallerTurns.take`): 0 until the initial index is built, when nothing is known. */
  expectedSearchWork(request: Pick<SearchRequest, "query" | "version" | "language">): number {
    return this.indexComplete ? this.index.expectedWork(request) : 0;
  }

  async search(context: RequestContext, request: Omit<SearchRequest, "canRead">): Promise<readonly SearchHit[]> {
    await this.whenIndexed();
    if (!this.indexComplete) throw new Error("the docs runtime was closed before its search index was built");
    const hits = this.index.search({ ...request, canRead: (access: Access) => mayRead(context, access) });
    // The cache's write waits for a pause in searches: its start (the index's state, ~0.3 s of
    // this thread at 50,000 pages) landed on the first search after ready, which a client sends
    // at once, or on its answer's last steps (issue 22).
    this.saving?.later();
    return hits;
  }

  /**
   * The API facts (servers, playground) of a page the request may read; undefined for a page
   * that does not exist and for one it may not read alike (the playground relay's lookup). A
   * front-matter page whose operation is restricted beyond the page's own rule has none: its
   * reference is not shown (`readersCover`), so it is no API page for anyone. The page is the
   * one the request's reader gets at the path: a generated page behind a file they may not read
   * answers with its own facts (`readerApiPage`).
   */
  apiPage(pagePath: string, context: RequestContext): ApiPageInfo | undefined {
    return readerApiPage(this.site, context, pagePath)?.info;
  }

  /** Subscribe to reloads; returns the unsubscribe function. */
  onChange(listener: (change: RuntimeChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Subscribe an announcement of each reload that reads the runtime's snapshot (a reader's lists
   * compared with those last told, `NotificationStreams`): the snapshot after is served only once
   * the announcement has settled, so it always compares the snapshot that changed, never a later
   * one. Made against a later one, the announcement of a save whose next save was published
   * while it awaited a token check merged the two (a staff reader told once of two changes of
   * their skills), and told nothing of a change the next save undid, to a client that had listed
   * it meanwhile. `announce` must never wait for a reload (`applyChanges`): the reload waits for
   * it. Returns the unsubscribe function.
   */
  announceChanges(announce: (change: RuntimeChange) => Promise<void>): () => void {
    this.announcers.add(announce);
    return () => this.announcers.delete(announce);
  }

  /**
   * Wait until the announcements of the snapshot served now have been made (`announceChanges`),
   * before it is replaced: false when the runtime closed meanwhile (nothing is replaced then).
   */
  private async announcedBefore(): Promise<boolean> {
    await this.announced;
    return !this.closed;
  }

  /**
   * Apply changed files (repo-relative). Reloads are serialised; paths arriving while one runs
   * are batched into the next. Resolves when the change is searchable.
   */
  applyChanges(paths: readonly string[]): Promise<void> {
    for (const p of paths) this.pendingPaths.add(p);
    this.queue = this.queue.then(async () => {
      if (this.pendingPaths.size === 0) return;
      const batch = [...this.pendingPaths];
      this.pendingPaths = new Set();
      const previous = this.site;
      const previousNames = this.names;
      let loaded: LoadedSite;
      try {
        loaded = await reloadSite(this.loaded, batch, this.log);
      } catch (error) {
        // A reload bug must not take the server down: keep serving the last good snapshot.
        this.log(`error: reload failed, still serving the previous version: ${(error as Error).message}`);
        // One stopped by what it could not read (a folder made unreadable) is tried again with
        // the next change: its paths are still to be applied once it can be read.
        if (error instanceof LoadStoppedError) for (const p of batch) this.pendingPaths.add(p);
        return;
      }
      // The saved pages analysed on another core while this snapshot keeps serving (the site and
      // its index are replaced together, after it).
      const feed = loaded.site === previous ? undefined : await this.analyseSaved(loaded.site);
      if (!(await this.announcedBefore())) {
        feed?.close();
        return;
      }
      this.loaded = loaded;
      if (this.loaded.site === previous) return;
      this.watcher?.watchConfigFiles(watchedAside(this.loaded));
      this.publish(previous, previousNames, this.site.diagnostics.filter((d) => batch.includes(d.file) || d.file === "docs.json"), feed);
      // docs.json may now name a remote spec: fetch it too (in the background).
      void this.fetchPendingRemote();
    });
    return this.queue;
  }

  /**
   * The analysis of saved pages (split, tokenize: `AnalysisFeed`) made in a worker thread, for a
   * save whose changed pages hold `LIMITS.search.savedAnalysisFromChars` characters or more:
   * resolves once every analysis sent has come, and the sync that follows takes them. Made on
   * this thread, a 2 MB page's analysis held every caller ~1.4-2.7 s per save (2026-12-05), and
   * one inlining four restricted snippets 19 s (its 16 reader variants, adversary). At most
   * `analysisAhead` bodies go (a branch switch's thousands of pages: the rest on this thread, as
   * before); none on one core, or before the first index is built (it analyses the new site).
   */
  private async analyseSaved(site: Site): Promise<AnalysisFeed | undefined> {
    if (!this.indexComplete || availableParallelism() < 2) return undefined;
    const { savedAnalysisFromChars, analysisAhead } = LIMITS.search;
    const bodies = this.index.bodiesToAnalyse(site, true).slice(0, analysisAhead);
    let chars = 0;
    for (const body of bodies) chars += body.chars;
    if (chars < savedAnalysisFromChars) return undefined;
    const workers = Math.min(analysisWorkers(availableParallelism(), bodies.length, site.pages.size), bodies.length);
    const feed = new AnalysisFeed(bodies, workers, this.log);
    this.savedFeed = feed;
    try {
      for (const body of bodies) await feed.arriving(body.key, body.api);
    } finally {
      this.savedFeed = undefined;
    }
    return feed;
  }

  /** After a new snapshot: index it (with the analyses `feed` made, if any), drop per-reader
   *  views, tell subscribers. */
  private publish(previous: Site, previousNames: ToolNames, diagnostics: readonly Diagnostic[], feed?: AnalysisFeed): void {
    // Before the initial build has started there is nothing to update: it indexes the new site.
    if (this.indexing !== undefined) this.index.sync(this.site, feed);
    feed?.close();
    this.savedInWorkers += feed?.delivered ?? 0;
    this.snapshot++;
    this.readers = new Map();
    if (!sameOutlineBasis(previous, this.site)) this.outlines = new Map();
    this.shellHost?.prepare(this.site);
    if (this.indexComplete) this.shellHost?.releaseTexts(this.site);
    if (this.indexComplete) this.learnVectors();
    const change: RuntimeChange = { site: this.site, previous, namesChanged: this.names.search !== previousNames.search, diagnostics };
    for (const l of this.listeners) l(change);
    // Settled, failed or not: a failed announcement is its announcer's to report, and must not
    // stop the saves after it.
    this.announced = Promise.allSettled([...this.announcers].map((announce) => announce(change))).then(() => undefined);
  }

  /**
   * Fetch the remote API specs docs.json names (a site is loaded without them, so serving never
   * waits on the network), then apply their pages as a reload: clients get `list_changed`. Uses
   * `fetch` with the usual time and size limits (`LIMITS.api`); specs named by later docs.json
   * edits are fetched too. A failure is a warning on the log, and the rest keeps serving.
   * Resolves when the pages are applied (or at once when there is nothing to fetch).
   */
  fetchRemoteSpecs(fetch: FetchLike): Promise<void> {
    if (this.remote === undefined) {
      const abort = new AbortController();
      // `close()` aborts a download in progress: a slow host must not hold the process open.
      const guarded: FetchLike = (url, init) => fetch(url, { ...init, signal: AbortSignal.any([init.signal, abort.signal]) });
      this.remote = { fetch: guarded, abort, attempted: new Set() };
    }
    return this.fetchPendingRemote();
  }

  private async fetchPendingRemote(): Promise<void> {
    const remote = this.remote;
    const cache = this.loaded.apiCache;
    if (remote === undefined || cache === undefined || this.closed) return;
    const urls = (this.site.api?.plan.unverified ?? []).filter((u) => !remote.attempted.has(u));
    if (urls.length === 0) return;
    for (const u of urls) remote.attempted.add(u);
    this.log(`fetching ${urls.length === 1 ? "a remote API spec" : `${urls.length} remote API specs`} in the background: ${urls.join(", ")}`);
    try {
      const specCache = this.loaded.options.specCache;
      await prefetchRemoteSpecs(this.options.root, urls, cache, { ignore: this.loaded.ignore, fetch: remote.fetch, ...(specCache !== undefined ? { specCache } : {}) });
    } catch (error) {
      this.log(`error: fetching remote API specs failed: ${(error as Error).message}`);
      return;
    }
    if (this.closed) return;
    this.queue = this.queue
      .then(() => this.applyRemote(urls))
      .catch((error: unknown) => this.log(`error: applying remote API specs failed: ${(error as Error).message}`));
    await this.queue;
  }

  /** Reload with the fetched specs (now in the API cache) and say what came of each. */
  private async applyRemote(urls: readonly string[]): Promise<void> {
    if (this.closed) return;
    const previous = this.site;
    const previousNames = this.names;
    let loaded: LoadedSite;
    try {
      // Everything the reload reports was reported at load, except what the new specs bring.
      loaded = await loadSite(this.options.root, () => {}, this.loaded, this.loaded.options);
    } catch (error) {
      this.log(`error: reload failed, still serving the previous version: ${(error as Error).message}`);
      return;
    }
    if (!(await this.announcedBefore())) return;
    // No file changed: the reload reused every page without a stat of its file, which the
    // persistent cache needs to tell an unchanged file at the next start (`pageStats`).
    const stats = new Map([...(this.loaded.pageStats ?? []), ...(loaded.pageStats ?? [])]);
    this.loaded = { ...loaded, pageStats: stats };
    this.remoteBases.set(this.site, this.fileBasis(previous));
    const failed = new Set<string>();
    for (const url of urls) {
      const result = this.loaded.apiCache?.specs.get(url)?.result;
      if (result === undefined) continue;
      if (result.ok) {
        const pages = [...(this.site.api?.pages.values() ?? [])].filter((p) => p.generated && p.source === url).length;
        this.log(`fetched ${url}: ${pages === 1 ? "1 API page" : `${pages} API pages`}`);
      } else {
        failed.add(url);
        this.log(`warning: remote API spec ${url}: ${result.message}; its pages are left out, the rest of the site keeps serving`);
      }
    }
    const before = new Set(previous.diagnostics.map(formatDiagnostic));
    const fresh = this.site.diagnostics.filter((d) => !before.has(formatDiagnostic(d)) && !failed.has(failedSpecOf(d) ?? ""));
    for (const line of cappedFindingLines(fresh, formatDiagnostic, "(`svc-mcp check --json` lists every one)")) this.log(line);
    this.publish(previous, previousNames, fresh);
  }

  /** Watch the repository and apply changes as they happen. */
  async watch(): Promise<void> {
    if (this.stopWatching !== undefined) return;
    const early = this.early;
    if (early !== undefined) {
      this.early = undefined;
      this.stopWatching = async () => early.stop();
      this.watcher = early;
      early.watchConfigFiles(watchedAside(this.loaded));
      early.onRootChange((event) => this.rootChanged(event));
      // Two turns of the event loop: the second goes through its poll phase, which reads every
      // event the kernel queued so far (a change is queued by the write itself). Everything
      // changed before this point is then applied before `watch()` resolves; `serve` awaits it
      // before it answers, so the first call sees it (docs/repository.md, "Watching").
      await ioTurn();
      await ioTurn();
      let applied: Promise<void> | undefined;
      early.deliver((paths) => {
        const done = this.applyChanges(paths);
        applied ??= done;
      });
      await applied;
      return;
    }
    const watcher = startWatching(
      this.options.root,
      (paths) => void this.applyChanges(paths),
      (error) => this.log(`warning: file watcher: ${error.message}`),
      // The folders the load listed (none after a reload of a few files): not listed again.
      this.loaded.folders,
      this.options.settle,
    );
    this.stopWatching = async () => watcher.stop();
    this.watcher = watcher;
    watcher.watchConfigFiles(watchedAside(this.loaded));
    watcher.onRootChange((event) => this.rootChanged(event));
  }

  /**
   * The docs root itself was replaced while serving, or is gone (`RepositoryWatcher.onRootChange`).
   * Gone: the last good state keeps serving whole, said once. Replaced: the whole site is loaded
   * from the new tree as a fresh start would (changed paths of the old tree are dropped: they
   * name nothing in the new one), said once (adversary round 11 F4).
   */
  private rootChanged(event: RootEvent): void {
    if (event === "gone") {
      this.log(`warning: the docs root ${this.options.root} is gone; still serving the last good state until a folder is there again`);
      return;
    }
    this.log(`the docs root ${this.options.root} was replaced; loading the whole site from it again`);
    this.queue = this.queue.then(async () => {
      this.pendingPaths = new Set();
      const previous = this.site;
      const previousNames = this.names;
      let loaded: LoadedSite;
      try {
        loaded = await reloadReplacedRoot(this.loaded, this.log);
      } catch (error) {
        this.log(`error: reload failed, still serving the previous version: ${(error as Error).message}`);
        return;
      }
      if (!(await this.announcedBefore())) return;
      this.loaded = loaded;
      this.watcher?.watchConfigFiles(watchedAside(this.loaded));
      this.publish(previous, previousNames, this.site.diagnostics);
      void this.fetchPendingRemote();
    });
  }

  /** Stop watching, abort remote downloads, and wait for a reload in progress. */
  async close(): Promise<void> {
    this.closed = true;
    // A save's analysis under way ends now (the reload waiting for it is dropped).
    this.savedFeed?.close();
    // Closed before its build took the analysis begun during the load: its workers end now.
    this.duringLoad?.close();
    this.duringLoad = undefined;
    this.remote?.abort.abort();
    this.early?.stop();
    this.early = undefined;
    const stop = this.stopWatching;
    this.stopWatching = undefined;
    this.watcher = undefined;
    if (stop !== undefined) await stop();
    await this.queue;
    // What the last snapshot dated, for the next start (it dates nothing after this).
    this.options.timesMemory?.close();
    // A cache write under way finishes now, without giving the thread back: the next start needs it.
    const saving = this.saving;
    if (saving !== undefined) {
      saving.begin();
      saving.write?.hurry();
      await saving.done;
    }
    await this.shellHost?.close();
    await this.renders?.close();
  }

  /** The pool that renders pages' MDX for people (the preview, `serve --http`): its workers start with the first page. */
  get renderPool(): RenderPool {
    this.renders ??= new RenderPool({ log: this.log, ...this.options.renderWorker });
    return this.renders;
  }
}

/** Resolves after the event loop's next turn (`setImmediate`: after its poll for I/O). */
function ioTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A shell in this thread over `view`, its interpreter and commands imported when it is first
 * used (`LazyShell`): a server that has not run a command yet has not loaded them.
 */
function inThreadShell(view: SiteView): Shell {
  return new LazyShell(async () => {
    const [{ DocsShell }, { SHELL_COMMANDS }] = await Promise.all([import("./shell/docs-shell.js"), import("./shell/commands/index.js")]);
    return new DocsShell(view, SHELL_COMMANDS.map((make) => make(view)), LIMITS.shell);
  });
}
