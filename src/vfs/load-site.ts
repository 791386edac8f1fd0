import { LoadStoppedError } from "../config/load-stopped.js";
import { lstatSync } from "node:fs";
import { basename, join, posix } from "node:path";
import { cappedFindingLines } from "../config/capped-findings.js";
import { formatDiagnostic, type Diagnostic } from "../config/diagnostic.js";
import { API_CODES } from "../config/openapi/api-codes.js";
import { tooManyEntriesMessage } from "../config/docs-json/expanded-entries.js";
import type { IgnoreRules } from "../config/ignore-rule-set.js";
import { eitherIgnores, IGNORE_FILES, loadIgnoreRules, readIgnoreRules } from "../config/ignore-rules.js";
import { folderLink, type KnownFolders, realRoot, type WalkedRead, listInsideRoot, controlNameMessage, type ListedFolder, OUTSIDE_MESSAGE, readBytesInsideRoot, type Refusal, refusalCode, statInsideRoot } from "../config/inside-root.js";
import { type DocsJsonResult, loadDocsJson } from "../config/load-docs-json.js";
import { linksOnTheWay } from "../config/links-on-the-way.js";
import { readSiteConfig } from "../config/read-site-config.js";
import { titleFromPath } from "../config/page-meta.js";
import { emptySiteConfig, type PagePlacement, type SiteConfig, type SiteSection } from "../config/site-config.js";
import type { ApiNavItem } from "../config/openapi/plan-api-pages.js";
import { mediaTypeOf } from "../config/media-types.js";
import { LIMITS } from "../limits.js";
import { type ApiCache, type ApiPagesResult, generateApiPages } from "./api-pages.js";
import type { SpecTimes } from "./spec-pages.js";
import type { FetchLike } from "../config/openapi/load-api-spec.js";
import type { RefReaders } from "../config/openapi/ref-target.js";
import type { SpecCache } from "../config/openapi/spec-cache.js";
import { type OperationEntry, parseOperationEntry } from "../config/openapi/entry.js";
import { frontMatterSpecFile, type SpecFileLookup } from "../config/openapi/front-matter-spec.js";
import { type ConfigFiles, readSpecFile, refusedAsSpec, specFileFound } from "../config/openapi/spec-file.js";
import { parseSchemaReference } from "../config/openapi/schema-components.js";
import { parseChannelReference } from "../config/asyncapi/front-matter-channels.js";
import { type RepoSpecText, unnamedSchemaSpecsFor, unnamedSpecsFor } from "../config/openapi/unnamed-spec.js";
import { LOAD_CODES } from "./page-files.js";
import { indexPathOf, pagesAt, placePage, unplacePage } from "./page-routes.js";
import { withBodyKey } from "./body-key.js";
import { withoutInlineData } from "./inline-data.js";
import { heldFile, heldPage } from "./held-text.js";
import { type PageText, ParsedTexts } from "./parsed-texts.js";
import type { AheadRead, ReadAhead, StartReadAhead } from "./read-ahead.js";
import type { TimesMemory } from "./remembered-times.js";
import { siteVariants } from "./site-variants.js";
import { type ReloadSliceOptions, ReloadSlices } from "./reload-slices.js";
import { type PlainStat, plainStat as lstatPlain, type StatAhead, startStatAhead } from "./stat-ahead.js";
import { pagePathOf, type Site } from "./site.js";
import type { Page } from "./page.js";
import { makeFile, type SiteFile } from "./site-file.js";
import { type Access, accessKey, accessOfMeta, readersCover } from "./access.js";
import { appendAll } from "../arrays.js";

/** Page files: Markdown and MDX (the names a walk of the repository lists). */
const PAGE_FILE = /\.(md|mdx|MD|MDX)$/;
/** What a changed path must look like to be re-read as a page. */
const PAGE_RE = /\.(md|mdx)$/i;
/** What a reload's log says after the findings of a kind it leaves out (`cappedFindingLines`). */
const LOGGED_MORE = "(`svc-mcp check` counts them, `svc-mcp check --json` lists every one)";

/** Everything needed to load a site and to reload it incrementally. */
export interface LoadedSite {
  readonly site: Site;
  readonly ignore: IgnoreRules;
  /** Repo-relative files whose change means a full reload (docs.json, `$ref`s, ignore files, specs;
   *  and the real files of those read through a link). */
  readonly configFiles: ReadonlySet<string>;
  /** Those of `configFiles` whose change makes the persistent cache stale: docs.json, its
   *  `$ref`s, the ignore files and the links on the way to them. Not the specs and the files their
   *  `$ref`s read: every load makes the API pages again from them, and the search index takes a
   *  cached page whose sum is the new page's (`SearchIndex.adopt`), so an edit to one operation
   *  indexes that operation's page alone, where a stale cache indexed the whole site again. */
  readonly cacheConfigFiles: ReadonlySet<string>;
  /** Pages read through a link inside the root: the link paths by real path, and by every other
   *  link on the way there (a middle link of a chain, a folder link among the target's parents:
   *  `linksOnTheWay`), so that an edit of the real file, or a retarget of any of those links,
   *  reloads them too (adversary F3: `p -> q -> real`, `q` retargeted, kept serving `real`). */
  readonly links: ReadonlyMap<string, readonly string[]>;
  /** Compiled validators and loaded specs, reused by the next load while a spec is unchanged. */
  readonly apiCache?: ApiCache;
  /** The options it was loaded with; a reload uses them again. */
  readonly options: LoadSiteOptions;
  /** What the last full load found of each page file it read or reused (repo-relative path):
   *  what the persistent cache stores to tell an unchanged file at the next start. */
  readonly pageStats?: ReadonlyMap<string, PageStat>;
  /** docs.json as this load read it, when it could be read whole: what the persistent cache
   *  stores so that the next start of an unchanged site does not read and validate it again. */
  readonly docs?: ReadDocsJson;
  /** The folders the last full load listed, with their stats: what the persistent cache stores
   *  so that the next start lists only the folders changed since. */
  readonly folders?: readonly ListedFolder[];
  /** The `$ref`'d files the served configuration was read from, each read and parsed then
   *  (`DocsJsonResult.refsRead`): the next reload keeps this configuration when one of them breaks. */
  readonly configRefs?: readonly string[];
  /** While an ignore file cannot be read: the rules last read whole, which the next reload
   *  starts from again (`ignore` is them with what the readable ignore files exclude now). */
  readonly lastGoodIgnore?: IgnoreRules;
  /** Set only on the previous load handed to a reload's full load (`forgetting`): the pages of
   *  the files the watcher reported changed, by repo-relative path, which that load reads again;
   *  one that no longer reads keeps this version (`keptOnReload`). */
  readonly changedPages?: ReadonlyMap<string, Page>;
}

/**
 * What a load uses of a docs.json that could be read whole (`DocsJsonResult` with a
 * configuration and a document): its positions (`source`), raw value and navigation model are
 * for `check` and for a docs.json that cannot be read, and are not kept.
 */
export type ReadDocsJson = Pick<DocsJsonResult, "diagnostics" | "files" | "linkTargets" | "refsRead"> & { readonly config: SiteConfig; readonly document: NonNullable<DocsJsonResult["document"]> };

/** A page file as read: its size, times and inode, and its real path (it may be a link). The
 *  change time is git's reason too: a rewrite keeping size, modification time and inode (`cp -p`
 *  over the file, fixed archive dates) still moves it. */
export interface PageStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly ctimeMs: number;
  readonly real: string;
}

/**
 * Pages parsed by an earlier process (the persistent cache, `tools/site-cache.ts`) by repo-relative
 * path: one is reused when its file's size, time and inode are those it was read with, and for a
 * file changed shortly before the cache was written (`trustedBefore`, as git's racy-clean rule)
 * only when its text is the same too.
 */
export interface KnownPages {
  get(rel: string): { readonly page: Page; readonly stat: PageStat; readonly n?: number } | undefined;
  /** Files last changed at or after this time (ms) may have changed again within their time's
   *  granularity after being read: their text is compared. */
  readonly trustedBefore: number;
  /** docs.json as the earlier process read it. Offered only when every configuration file it
   *  was read from (docs.json, its `$ref`s, the ignore files) is as it was then, so reading it
   *  again would give the same: on a 25,000-page versioned site, reading and validating it was
   *  ~0.4 s of CPU, a fifth of a start from the cache. */
  readonly docs?: ReadDocsJson;
  /** The folders the earlier process listed (`FolderListings.known`). */
  readonly folders?: KnownFolders;
  /** Every path `get` answers for (its `n` is the path's number here), and 1 for those trusted
   *  by their stat (not changed shortly before the cache was written, and read where they are,
   *  not through a link): a thread stats these while the walk lists their folders
   *  (`startStatAhead`). */
  readonly files?: { readonly rels: readonly string[]; readonly trusted: Uint8Array };
}

export interface LoadSiteOptions {
  /** Fetch remote API specs named in docs.json with this (see docs/api-reference.md).
   *  Unset: remote specs are not fetched and their operation entries stay unverified. */
  readonly fetchRemoteSpecs?: FetchLike;
  /** `false` leaves the API reference out: no spec is loaded and no page generated (the
   *  config bench measures docs.json and navigation work with it). Default: included. */
  readonly apiReference?: boolean;
  /** Parsed specs kept across processes (`openSpecCache`); unset: every spec is parsed. */
  readonly specCache?: SpecCache;
  /** Reads page files in another thread ahead of a first load (`ReadAhead`); unset: the load
   *  reads them all itself. */
  readonly readAhead?: StartReadAhead;
  /** The name the folder was last served under (`knownSiteName`): a first load whose docs.json
   *  names no site serves under it, not under the folder's name. */
  readonly knownName?: string;
  /** Told each page a first load (no earlier snapshot, nothing reused from a cache) makes from a
   *  file, as soon as it is made: the search index's analysis begins while the load goes on
   *  (`AnalysisDuringLoad`). Never told on a reload. */
  readonly onPage?: (page: Page) => void;
  /** Each reader class's time of each file with restricted parts, kept across starts
   *  (`RememberedTimes`): a start dates a class by it where the class's bytes are the same. */
  readonly timesMemory?: TimesMemory;
  /** How a reload gives the thread back while it builds the new snapshot (`ReloadSlices`;
   *  default: a turn of the event loop every `LIMITS.load.reloadSliceMs`). A first load does not:
   *  nothing is served before it. */
  readonly reloadSlices?: ReloadSliceOptions;
}

/** Reports progress and problems; the CLI sends these to stderr (never stdout: stdio is protocol). */
export type LoadLog = (message: string) => void;

/**
 * Load a docs repository from disk into an immutable snapshot (`beforeListing`: see
 * `FolderListings.beforeListing`). Never throws for a bad file, with one exception: an ignore
 * file that exists but cannot be read stops the load (`LoadStoppedError`), because loading
 * without it would serve what it excludes.
 */
export async function loadSite(root: string, log: LoadLog = () => {}, previous?: LoadedSite, options: LoadSiteOptions = {}, known?: KnownPages, beforeListing?: (rel: string) => void): Promise<LoadedSite> {
  // The page files are listed before docs.json is read, so that a thread reading them ahead
  // (`readAhead`) works while this one reads docs.json; their findings come after its, as before.
  // The listing comes before any file is read, the ignore files too (it does not depend on them),
  // so that with `beforeListing` (a watch made before the load) every file read after is in a
  // watched folder: its change after the read is an event (issue 25).
  const listed: Diagnostic[] = [];
  const folders: ListedFolder[] = [];
  // A start from the cache stats its cached pages' files in a thread (`startStatAhead`), each
  // folder's once the walk has watched it: those `readPage` would stat where they are (`plainStat`).
  const files = previous === undefined ? known?.files : undefined;
  const stats = files !== undefined ? startStatAhead(statPrefix(root), files.rels, { trusted: files.trusted, gated: beforeListing !== undefined }) : undefined;
  try {
    const opened =
      stats !== undefined && beforeListing !== undefined
        ? (rel: string): void => {
            beforeListing(rel);
            stats.open(rel);
          }
        : beforeListing;
    const listing = listInsideRoot(root, (rel) => PAGE_FILE.test(rel), { ...(known?.folders !== undefined ? { known: known.folders } : {}), listed: folders, ...(opened !== undefined ? { beforeListing: opened } : {}) });
    // Folders the walk did not reach (gone since, or never watched) are stat'ed now, as before the walk's end.
    stats?.openAll();
    const diagnostics: Diagnostic[] = [];
    const { ignore, lastGoodIgnore } = ignoreRulesOf(root, previous, diagnostics);
    // A reload that cannot list the root, or a folder it served pages from (a chmod, a checkout
    // under way), would serve the site without them: it keeps the last good state instead, and
    // the paths it was given are tried again with the next change (adversary round 57 F3: the
    // site fell to its generated pages, search empty, and stayed so once readable again).
    if (previous !== undefined) {
      const served = [...previous.site.files.keys()];
      const lost = listing.unlisted.find(({ folder }) => folder === "." || served.some((path) => path.startsWith(`/${folder}/`)));
      if (lost !== undefined) throw new LoadStoppedError(`cannot list the folder ${lost.folder} (${lost.message}); still serving the last good state until it can be read`);
    }
    for (const { folder, message } of listing.unlisted) listed.push(skippedFinding(folder, `cannot list the folder (${message})`));
    for (const file of listing.undecodable) listed.push(skippedFinding(file, "the file name is not valid UTF-8"));
    for (const file of listing.controlNamed) listed.push(skippedFinding(file, controlNameMessage(file)));
    const linkedPages = pageLinks(root, listing.links, ignore, listed);
    // A path the cache holds a page of was not ignored when the cache was written, under the same
    // ignore files (else the cache is stale and not offered): not tested again, ~60 ms of a start
    // of 25,000 pages from the cache.
    // A reload builds the new snapshot aside, callers answered from the one served between slices
    // (adversary F5: at 25,000 pages its ignore matching, stats and real paths held them ~1.5 s).
    const slices = previous !== undefined ? new ReloadSlices(options.reloadSlices) : undefined;
    const kept = await notIgnored([...listing.files, ...linkedPages], (p) => known?.get(p) !== undefined || !ignore.ignores(p), slices);
    const linked = new Set(linkedPages);
    // The root's real path, resolved once for the walked files' reads (`InsideReadOptions.realRoot`).
    const real = knownRealRoot(root);
    // Only a first load with nothing to reuse reads ahead: every walked file is then read.
    const ahead = previous === undefined && known === undefined && real !== undefined ? options.readAhead?.(real, kept.filter((rel) => !linked.has(rel)), LIMITS.load.maxPageBytes) : undefined;
    const statOrder =
      stats !== undefined && files !== undefined
        ? Int32Array.from(kept, (rel) => {
            const n = known?.get(rel)?.n;
            return n !== undefined && files.trusted[n] === 1 ? n : -1;
          })
        : undefined;
    try {
      const loaded = await loadRest(root, log, previous, options, known, { diagnostics, ignore, listed, folders, kept, linked, real, ahead, slices, ...(previous === undefined && known === undefined && options.onPage !== undefined ? { onPage: options.onPage } : {}), ...(stats !== undefined && statOrder !== undefined ? { stats: { ahead: stats, order: statOrder } } : {}) });
      return lastGoodIgnore !== undefined ? { ...loaded, lastGoodIgnore } : loaded;
    } finally {
      ahead?.close();
    }
  } finally {
    stats?.close();
  }
}

/** The listed paths `keep` keeps, sorted; a reload's in slices (~0.1 s of ignore matching at 25,000 files). */
async function notIgnored(paths: readonly string[], keep: (rel: string) => boolean, slices: ReloadSlices | undefined): Promise<string[]> {
  const kept: string[] = [];
  for (const p of paths) {
    if (slices?.due() === true) await slices.turn();
    if (keep(p)) kept.push(p);
  }
  return kept.sort();
}

/** What `loadSite` found before reading docs.json. */
interface Listed {
  readonly diagnostics: Diagnostic[];
  readonly ignore: IgnoreRules;
  /** The listing's findings, which follow docs.json's. */
  readonly listed: readonly Diagnostic[];
  readonly folders: ListedFolder[];
  readonly kept: readonly string[];
  readonly linked: ReadonlySet<string>;
  readonly real: string | undefined;
  readonly ahead: ReadAhead | undefined;
  /** A reload's slices (`ReloadSlices`); a first load has none. */
  readonly slices: ReloadSlices | undefined;
  /** The cached pages' stats taken by a thread, and each kept file's number among them (-1: none). */
  readonly stats?: { readonly ahead: StatAhead; readonly order: Int32Array };
  /** `LoadSiteOptions.onPage`, on a first load. */
  readonly onPage?: (page: Page) => void;
}

/**
 * The configuration a load serves: docs.json's (`configOf`), or on the second pass of a reload
 * past the navigation bound (`overBound`) the last good one, with errors saying so.
 */
function servedConfig(
  docs: DocsJsonResult,
  previous: LoadedSite | undefined,
  root: string,
  diagnostics: Diagnostic[],
  knownName: LoadSiteOptions["knownName"],
  overBound: readonly Diagnostic[] | undefined,
): ReturnType<typeof configOf> | { config: SiteConfig; keptLastGood: true } {
  const lastGood = overBound !== undefined ? lastGoodConfig(previous) : undefined;
  if (lastGood === undefined) return configOf(docs, previous, root, diagnostics, knownName);
  appendAll(diagnostics, keptOverBound(overBound ?? [], lastGood.name));
  return { config: lastGood, keptLastGood: true };
}

/**
 * What the loaded specs' `$ref`s read. `refFiles`: the files they read, parts of specs pruned per
 * reader, so no link serves them as written (finding 46). `specReads`: every file they read or
 * tried to, at any depth, and where a link led: a change to one reloads the spec (issue 25, F2),
 * a file created where one was missing too.
 */
function specPartsRead(generated: Awaited<ReturnType<typeof generateApiPages>> | undefined): { refFiles: Set<string>; specReads: Set<string> } {
  const refFiles = new Set<string>();
  const specReads = new Set<string>();
  for (const { result } of generated?.cache.specs.values() ?? []) {
    for (const d of result.refDecisions ?? []) if ("rel" in d) refFiles.add(d.rel);
    for (const f of result.refFiles ?? []) for (const rel of [f.rel, f.real]) if (rel !== undefined) specReads.add(rel);
  }
  return { refFiles, specReads };
}

/**
 * `loadSite` after the listing: docs.json, the pages, the API reference. `overBound`: a second
 * pass of a reload whose docs.json named specs past the navigation bound (`overBoundAgain`): it
 * serves the last good configuration, with these errors.
 */
async function loadRest(root: string, log: LoadLog, previous: LoadedSite | undefined, options: LoadSiteOptions, known: KnownPages | undefined, listing: Listed, overBound?: readonly Diagnostic[]): Promise<LoadedSite> {
  const { diagnostics, ignore, listed, folders, kept, linked, real, ahead, slices, stats, onPage } = listing;
  const entryDiagnostics = [...diagnostics];
  const docs: DocsJsonResult = known?.docs ?? (await loadDocsJson(root, { ignore, ...betweenStages(slices) }));
  appendAll(diagnostics, docs.diagnostics);
  const { config, keptLastGood } = servedConfig(docs, previous, root, diagnostics, options.knownName, overBound);
  appendAll(diagnostics, listed);
  if (kept.length > LIMITS.load.announcedPages) log(`loading ${kept.length} page files from ${root}`);

  const files = new Map<string, SiteFile>();
  const pages = new Map<string, Page>();
  const shadowed = new Map<string, Page[]>();
  const links = new Map<string, string[]>();
  const pageStats = new Map<string, PageStat>();
  const texts = new ParsedTexts();
  // Synchronous reads, one after the other (~18 ms for spree's 428 files), beat a stat and a read
  // per file through the thread pool (~60 ms); a large site's are read ahead by another thread.
  const aheadTexts = new Map<number, PageText>();
  for (let i = 0, walkedNumber = 0; i < kept.length; i++) {
    if (slices?.due() === true) await slices.turn();
    const rel = kept[i] as string;
    const walked = !linked.has(rel);
    const n = walked ? walkedNumber++ : -1;
    const read = walked && ahead !== undefined ? await ahead.next() : undefined;
    const pre = read === undefined ? undefined : aheadPage(read, n, texts, aheadTexts);
    const statN = stats?.order[i] ?? -1;
    const got = readPage(root, rel, previous?.site, ignore, known, texts, walked ? { ...(real !== undefined ? { realRoot: real } : {}) } : undefined, pre, statN >= 0 ? () => stats?.ahead.stat(statN) : undefined);
    const result = previous === undefined ? got : keptOnReload(rel, got, previous);
    if (result.stat !== undefined) pageStats.set(rel, result.stat);
    if (result.diagnostic !== undefined) diagnostics.push(result.diagnostic);
    if (result.page !== undefined) addPage(files, pages, shadowed, result.page, diagnostics);
    if (result.page !== undefined) onPage?.(result.page);
    addLinks(links, root, rel, result.real, !walked);
  }

  // Specs named only in page front matter (`openapi: "/api-reference/openapi-ja.json GET /x"`)
  // are mounted, watched and pruned per reader like the ones docs.json names.
  // Every page's, those behind another at their path too (`x.md` behind a restricted `x.mdx`):
  // the readers who get one get what it names (adversary round 46 F1).
  const hiddenPages = hiddenLayers(shadowed);
  // Never read as a spec: what the configuration is read from (adversary round 59 F1).
  const configRead: ConfigFiles = new Set([...docs.files, ...docs.linkTargets]);
  const frontMatterSpecs = frontMatterSpecsOf(root, [pages, ...hiddenPages], { ignore, configFiles: configRead }, new Set(config.specs.filter((s) => s.frontMatter !== true).map((s) => s.source)), diagnostics);
  const specs = [...config.specs.filter((s) => s.frontMatter !== true)];
  for (const source of new Set(frontMatterSpecs.values())) {
    if (!specs.some((s) => s.source === source)) specs.push({ source, remote: false, frontMatter: true });
  }
  // Each named spec's file, read by the rule for spec files (`readSpecFile`), is mounted below once
  // it has loaded as an API description: no other file is ever served as one (round 59 F1).
  const specFiles = new Map<string, SiteFile>();
  const linkTargets = new Set<string>(docs.linkTargets);
  for (const spec of specs) {
    if (spec.remote || ignore.ignores(spec.source)) continue;
    const file = readSpecCandidate(root, spec.source, spec.frontMatter === true ? namingPagesAccess(spec.source, frontMatterSpecs, files) : {}, diagnostics, { ignore, configFiles: configRead });
    if (file === undefined) continue;
    specFiles.set(file.file.path, file.file);
    if (file.real !== spec.source) linkTargets.add(file.real);
  }
  // Known only now: the files read as configuration, whose links are no pages (finding 46).
  withdrawConfigLinks(new Set<string>([...docs.files, ...linkTargets, ...specs.filter((s) => !s.remote).map((s) => s.source)]), links, { files, pages, shadowed }, diagnostics);

  // API reference: generated operation/channel pages join the site like any page (readable,
  // searchable, placed in navigation). A broken spec is a diagnostic; the rest keeps serving.
  // API pages are dated by their spec file as their readers see it, known once the variants are.
  const specTimes: SpecTimes = {};
  const generated =
    options.apiReference === false
      ? undefined
      : // What can be read of docs.json; when nothing can, the last good one, as for the rest.
        await generateApiPages(root, (keptLastGood ? config.document : docs.document) ?? previous?.site.config.document ?? docs.raw ?? {}, pages, {
          ...(previous?.apiCache !== undefined ? { cache: previous.apiCache } : {}),
          ...(options.fetchRemoteSpecs !== undefined ? { fetch: options.fetchRemoteSpecs } : {}),
          ...(options.specCache !== undefined ? { specCache: options.specCache } : {}),
          ignore,
          specFiles,
          frontMatterSpecs,
          hiddenPages: hiddenLayers(shadowed),
          specTimes,
          refReaders: refReadersOf(files, specFiles, docs.files),
          configFiles: configRead, ...betweenStages(slices),
        });
  const over = overBound === undefined && !keptLastGood ? overBoundAgain(generated?.diagnostics, previous) : undefined;
  if (over !== undefined) return loadRest(root, log, previous, options, known, { ...listing, diagnostics: entryDiagnostics, ahead: undefined, stats: undefined }, over);
  appendAll(diagnostics, (generated?.diagnostics ?? []));
  // A spec file is mounted once it loads as an API description (never a page or secret named as
  // one), and a kept spec as the bytes its pages were made from, never its text now (`mountKeptSpecs`).
  for (const [path, file] of specFiles) if (loadedAsSpec(generated?.cache, path.slice(1))) files.set(path, file);
  if (generated !== undefined) mountKeptSpecs(generated.cache, specs.filter((s) => !ignore.ignores(s.source)), files, specFiles, previous?.site.files, (source) => (specs.find((s) => s.source === source)?.frontMatter === true ? namingPagesAccess(source, frontMatterSpecs, files) : {}));
  const { refFiles, specReads } = specPartsRead(generated);
  withdrawConfigLinks(refFiles, links, { files, pages, shadowed }, diagnostics);
  if (generated !== undefined) placeApiPages(generated, { files, pages, shadowed });
  const { shared, takenNav } = sharedPlacements(generated, { pages, shadowed });
  const { navPages, generatedNav } = withGeneratedNav(config, shared);
  const sections = generated === undefined ? config.sections : withApiPages(config, generated, navPages, takenNav);
  const { takenNav: _kept, ...served } = config;
  const siteConfig: SiteConfig = { ...served, navPages, sections, specs, ...(generatedNav.size > 0 ? { generatedNav } : {}), ...(takenNav.size > 0 ? { takenNav } : {}) };

  // The diagnostics are not logged here: they are in `site.diagnostics`, and how many lines a
  // user wants (all for `check`, a count for `serve`, `search` and `fs`) is the caller's choice.
  const routes = { files: sortByPath(files), pages: sortByPath(pages), ...(shadowed.size > 0 ? { shadowed } : {}) };
  const snapshot = { root, config: siteConfig, ...routes, diagnostics, ...(generated !== undefined ? { api: generated.api } : {}) };
  const site: Site = { ...snapshot, variants: await siteVariants(snapshot, generated?.cache, previous?.site, options.timesMemory) };
  specTimes.resolve = (source, access) => {
    const file = site.files.get(`/${source}`);
    if (file === undefined) return undefined;
    return site.variants?.get(file.path)?.timeFor(access) ?? file.mtime;
  };
  const configFiles = new Set<string>([...docs.files, ...IGNORE_FILES, ...(ignore.linkTargets ?? []), ...specs.filter((s) => !s.remote).map((s) => s.source), ...linkTargets, ...refFiles, ...specReads]);
  // And every link met on the way to one (a folder link among its parents, a middle link of a
  // chain): retargeting it changes what was read as much as an edit does (adversary round 11 F1).
  for (const rel of [...configFiles]) for (const link of linksOnTheWay(root, rel)) configFiles.add(link);
  const cacheConfigFiles = new Set<string>([...docs.files, ...IGNORE_FILES, ...(ignore.linkTargets ?? []), ...docs.linkTargets]);
  for (const rel of [...cacheConfigFiles]) for (const link of linksOnTheWay(root, rel)) cacheConfigFiles.add(link);
  const read = !keptLastGood && docs.config !== undefined && docs.document !== undefined ? { diagnostics: docs.diagnostics, files: docs.files, linkTargets: docs.linkTargets, ...(docs.refsRead !== undefined ? { refsRead: docs.refsRead } : {}), config: docs.config, document: docs.document } : undefined;
  // A kept configuration keeps the files it was read from.
  const configRefs = previous !== undefined && config === previous.site.config ? previous.configRefs : docs.refsRead;
  return { site, ignore, configFiles, cacheConfigFiles, links, options, pageStats, folders, ...(read !== undefined ? { docs: read } : {}), ...(generated !== undefined ? { apiCache: generated.cache } : {}), ...(configRefs !== undefined ? { configRefs } : {}) };
}

/**
 * A reload gives the thread back between the stages of docs.json's reading and of the API
 * reference's walks of the navigation (`ReloadSlices.stage`): each is a walk of the whole
 * navigation, together several seconds at 90,000 entries (`maxNavigationEntries`). A first load
 * (no callers yet) runs them at once.
 */
function betweenStages(slices: ReloadSlices | undefined): { between?: (stage: string) => Promise<void> } {
  return slices !== undefined ? { between: (stage: string) => slices.stage(stage) } : {};
}

/** The configuration a load serves: docs.json's, else the last good one, else what can be read of
 *  it at a first load; `keptLastGood` when a reload keeps the last good one. */
function configOf(docs: Awaited<ReturnType<typeof loadDocsJson>>, previous: LoadedSite | undefined, root: string, diagnostics: Diagnostic[], knownName: string | undefined): { config: SiteConfig; keptLastGood: boolean } {
  const served = configServed(docs, previous, root, diagnostics);
  // A docs.json that names no site (its name removed, emptied, not a string; or no docs.json at a
  // first load) keeps the name the site was served under: on a reload the last one, at a first
  // load the one the folder was last served under. The name names the tools and the project (its
  // state): taking the folder's instead renamed every tool under the clients and, at a restart,
  // moved the site to a new, empty state with its sign-in gone (adversary round 38, F1).
  const kept = previous !== undefined ? previous.site.config.name : knownName;
  if (served.config.named === true || kept === undefined || kept === served.config.name) return served;
  if (served.config.present) {
    diagnostics.push({ severity: "warning", file: "docs.json", code: LOAD_CODES.nameKept, message: `docs.json names no site; still serving it as "${kept}" (its tools and state stay as they are) until it names one` });
  }
  return { ...served, config: { ...served.config, name: kept } };
}

/** The configuration a reload may keep: the last one read from a docs.json that could be read (or a site without one). */
function lastGoodConfig(previous: LoadedSite | undefined): SiteConfig | undefined {
  return previous !== undefined && (previous.site.config.document !== undefined || !previous.site.config.present) ? previous.site.config : undefined;
}

/**
 * A reload's docs.json whose API groups pass `LIMITS.config.maxNavigationEntries` (counted as the
 * pages are planned, after the configuration was read): its errors, when a last good
 * configuration can serve instead. Before, the reload served the new docs.json with the groups
 * past the bound empty (adversary F2 residue), where a docs.json whose own `$ref`s pass the bound
 * keeps the last good configuration; now both keep it. At first load there is none to keep: what
 * can be listed is, with the error (`check` says the same).
 */
function overBoundAgain(found: readonly Diagnostic[] | undefined, previous: LoadedSite | undefined): Diagnostic[] | undefined {
  const over = (found ?? []).filter((d) => d.code === API_CODES.tooManyEntries && d.severity === "error");
  return over.length > 0 && lastGoodConfig(previous) !== undefined ? over : undefined;
}

/** The errors of `overBoundAgain` as a reload that keeps the last good configuration says them. */
function keptOverBound(over: readonly Diagnostic[], name: string): Diagnostic[] {
  return over.map((d) => ({ ...d, message: tooManyEntriesMessage(LIMITS.config.maxNavigationEntries, `still serving the last good configuration (${name}) until it is fixed`) }));
}

function configServed(docs: Awaited<ReturnType<typeof loadDocsJson>>, previous: LoadedSite | undefined, root: string, diagnostics: Diagnostic[]): { config: SiteConfig; keptLastGood: boolean } {
  // A problem in one element costs that element only: the configuration is read from the rest
  // (`docs.config`), on a reload too, so the rest of an edit applies. Only a docs.json that cannot
  // be read as a whole (it does not parse, or leaves no navigation) keeps the last good
  // configuration. At first load there is none: serve what can be read of it (versions,
  // languages, places in the navigation, the specs), with every page searchable. That
  // best-effort configuration is no good state to keep: it is read again from the new file.
  const lastGood = lastGoodConfig(previous);
  // A file docs.json `$ref`s (a navigation in nav.json) that is broken (unreadable, not parsing,
  // gone while still named: `brokenNotWithdrawn`) is part of the configuration: a reload keeps the
  // last good configuration whole, as for a docs.json that does not parse (issue 25, F4), instead
  // of serving docs.json without that part (its group and pages gone). Only a file the last good
  // configuration was read from: a `$ref` an edit adds to a file that is not there (or never read
  // well) is that edit's mistake, costing its element only, and the rest of the edit applies (a
  // group added beside it, its spec's findings named to who may read them: round 12 F1b). At
  // first load, what can be read, as above.
  const readBefore = new Set(previous?.configRefs ?? []);
  const brokenRefs = docs.config !== undefined && lastGood?.present === true ? (docs.source?.brokenFiles ?? []).filter((b) => readBefore.has(b.file)) : [];
  if (lastGood !== undefined && brokenRefs.length > 0) {
    for (const b of brokenRefs) {
      diagnostics.push({ severity: "error", file: "docs.json", code: LOAD_CODES.configRefBroken, message: `$ref'd file ${b.file}: ${b.message}; still serving the last good configuration (${lastGood.name}) until it is fixed` });
    }
    return { config: lastGood, keptLastGood: true };
  }
  let config: SiteConfig = docs.config ?? lastGood ?? firstLoadConfig(docs, basename(root));
  // A docs.json that goes away while serving (a checkout, an `rm` then `cp` deploy) is a broken
  // one, not a site without one: serving the folder unconfigured would rename the tools and drop
  // the navigation under every client. Keep what was served; `reloadSite` logs the finding once.
  // So is one that leaves a stale mint.json behind it (a repository that converted kept the old
  // file): the site was not configured by it.
  const toMint = docs.config?.olderFormat !== undefined && previous?.site.config.olderFormat === undefined;
  if (previous?.site.config.present === true && (docs.config?.present === false || toMint)) {
    config = previous.site.config;
    diagnostics.push({
      severity: "error",
      file: "docs.json",
      code: LOAD_CODES.docsJsonMissing,
      message: `docs.json is missing; still serving the last good configuration (${config.name}); put it back, or restart to serve this folder ${toMint ? "from its mint.json" : "without one"}`,
    });
  }
  return { config, keptLastGood: docs.config === undefined && lastGood !== undefined };
}

/**
 * Sections with the API pages generated under them, so a section of API pages is shown to the
 * readers who may read one of them (its `pages` list only file entries). Pages that navigation
 * hides are left out, as `sectionsOf` leaves hidden elements out. A path a file takes is the
 * operation's listing there (`SiteApi.taken`): in `apiTaken`, counted for that page's readers,
 * never for every reader of the file. Idempotent: a reload that keeps the last good configuration
 * passes sections that already have them (the paths it generated are `generatedNav`).
 */
function withApiPages(config: SiteConfig, generated: ApiPagesResult, placements: ReadonlyMap<string, PagePlacement>, takenNav: ReadonlyMap<string, PagePlacement>): SiteSection[] {
  const { nav } = generated.api.plan;
  const taken = generated.api.taken;
  const before = config.generatedNav;
  const bySection = navItemsBySection(nav, config.sections);
  return config.sections.map(({ apiTaken: _before, ...section }) => {
    const listed = (item: ApiNavItem): boolean => {
      // A path whose placement is not shared (`sharedPlacements`) is listed as its entry is.
      const placement = placements.get(item.pagePath) ?? takenNav.get(item.pagePath);
      return placement !== undefined && placement.hidden !== true;
    };
    const own = before === undefined ? section.pages : section.pages.filter((p) => !before.has(p));
    const under = (bySection.get(section.path) ?? []).filter(listed).map((item) => item.pagePath);
    const pages = [...new Set([...own, ...under.filter((p) => taken?.has(p) !== true)])];
    const inPages = new Set(pages);
    const apiTaken = [...new Set(under.filter((p) => taken?.has(p) === true && !inPages.has(p)))];
    if (apiTaken.length === 0 && pages.length === section.pages.length && own === section.pages) return section;
    return { ...section, pages, ...(apiTaken.length > 0 ? { apiTaken } : {}) };
  });
}

/**
 * The generated pages' placements the site gives their paths, for every reader (`shared`): a
 * placement is no reader's own (search indexes a placed page, and filters and folds it by its
 * versions), so a path a file takes keeps the generated page's placement only when every reader
 * of a file there may read the generated page too. Else a reader of the file alone would find it
 * placed (and searchable) where the site without the operation does not place it (adversary
 * round 46 F2): the placement is the outline's for the page's readers only (`takenNav`), and the
 * navigation entry theirs only (`listedApiPage`).
 */
function sharedPlacements(generated: ApiPagesResult | undefined, site: Pick<Site, "pages" | "shadowed">): { shared: ReadonlyMap<string, PagePlacement> | undefined; takenNav: Map<string, PagePlacement> } {
  const takenNav = new Map<string, PagePlacement>();
  const taken = generated?.api.taken;
  if (generated === undefined || taken === undefined) return { shared: generated?.placements, takenNav };
  const shared = new Map(generated.placements);
  for (const [path, rule] of taken) {
    const placement = shared.get(path);
    if (placement === undefined) continue;
    // The files of the path and of its index path: no generated page (another path's, or the
    // index path's own, is no file taking this path).
    const files = [...pagesAt(site, path), ...pagesAt(site, indexPathOf(path))].filter((p) => !p.generated);
    if (files.every((p) => readersCover(p.file.access, rule))) continue;
    shared.delete(path);
    takenNav.set(path, placement);
  }
  return { shared, takenNav };
}

/**
 * The generated pages' navigation items under each section's path, in the plan's order: an item
 * is under a section when the section's path is its element's path or a prefix of it ending
 * before a `.` or `[` (`navigation.tabs[1].groups[0]` is in `navigation.tabs[1]`). Each item's
 * prefixes are looked up once. Before, each section filtered every item: one spec named by 1,000
 * groups is 300,000 items times 1,000 sections, and a reload held every caller ~55 s
 * (adversary round 62 F2).
 */
function navItemsBySection(nav: readonly ApiNavItem[], sections: readonly { readonly path: string }[]): Map<string, ApiNavItem[]> {
  const out = new Map<string, ApiNavItem[]>(sections.map((s) => [s.path, []]));
  for (const item of nav) {
    const path = item.element;
    for (let i = 0; i <= path.length; i++) {
      if (i < path.length && path[i] !== "." && path[i] !== "[") continue;
      out.get(path.slice(0, i))?.push(item);
    }
  }
  return out;
}

/**
 * The ignore rules a load applies: the ignore files', else on a reload the last good ones. An
 * ignore file that becomes unreadable or a folder while serving (a chmod, a checkout in progress)
 * keeps what it excluded excluded, as the last good configuration keeps serving for a broken
 * docs.json, while the rest of the edit applies, a new exclusion in the other ignore file too
 * (a withdrawal applies at once); the finding is the site's until it is fixed, so
 * `reloadSite` logs it once. One that goes away is the same (as a docs.json that goes away):
 * a rewrite in two steps (`rm` then write, a checkout, a deploy) would otherwise serve what it
 * excludes between the steps, and whether the watcher reports the steps apart depends on how
 * busy the machine is. One emptied while it had content is the same (a rewrite begun with
 * `cmd > .svcignore`, or a file left empty), and so is one left with blank lines only (`echo >
 * .svcignore`: no rule and no comment, adversary round 63 F4). One whose bytes are no UTF-8 text
 * (saved as UTF-16: `ignoreFileText`) is one that cannot be read. At start-up there are none to
 * keep: an unreadable one stops the load (`LoadStoppedError`), as it always did, and an absent or
 * empty one is no rules.
 */
function ignoreRulesOf(root: string, previous: LoadedSite | undefined, diagnostics: Diagnostic[]): { ignore: IgnoreRules; lastGoodIgnore?: IgnoreRules } {
  if (previous === undefined) return { ignore: loadIgnoreRules(root) };
  const read = readIgnoreRules(root);
  const lastGoodIgnore = previous.lastGoodIgnore ?? previous.ignore;
  if (!read.ok) {
    diagnostics.push({ severity: "error", file: read.file, code: LOAD_CODES.ignoreFileBroken, message: `cannot read (${read.message}); still applying the last good ignore rules until it is fixed` });
    return { ignore: eitherIgnores(lastGoodIgnore, read.readable), lastGoodIgnore };
  }
  const gone = (lastGoodIgnore.files ?? []).filter((name) => !(read.rules.files ?? []).includes(name));
  // Emptied while it had content (`: > .svcignore`, a writer's first step, which settles when the
  // writer pauses past `LIMITS.load.writeSettleMs`; or left empty, or blank: `echo > .svcignore`):
  // taken as written, it would serve every file it excluded until the rest is written, so it is
  // kept like one gone.
  const emptied = (read.rules.emptyFiles ?? []).filter((name) => (lastGoodIgnore.files ?? []).includes(name) && !(lastGoodIgnore.emptyFiles ?? []).includes(name));
  if (gone.length === 0 && emptied.length === 0) return { ignore: read.rules };
  for (const file of gone) diagnostics.push({ severity: "error", file, code: LOAD_CODES.ignoreFileMissing, message: "is missing; still applying its last good ignore rules; put it back, or restart to serve without it" });
  for (const file of emptied) diagnostics.push({ severity: "error", file, code: LOAD_CODES.ignoreFileEmpty, message: "is empty; still applying its last good ignore rules until it has content again; delete it and restart to serve without them" });
  return { ignore: eitherIgnores(lastGoodIgnore, read.rules), lastGoodIgnore };
}

/** The configuration served when the first docs.json read has errors (see `loadSite`). */
function firstLoadConfig(docs: DocsJsonResult, name: string): SiteConfig {
  const raw = docs.raw;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return { ...emptySiteConfig(name), present: true, indexing: "all" };
  return { ...readSiteConfig(raw, name, docs.model !== undefined ? { model: docs.model } : {}), indexing: "all" };
}

/**
 * Apply changed paths (repo-relative) to a loaded site. Page edits are applied file by file;
 * a change to the configuration, an ignore file or a spec reloads everything. A page that no
 * longer parses keeps its last good version.
 */
export async function reloadSite(prev: LoadedSite, changed: readonly string[], log: LoadLog = () => {}): Promise<LoadedSite> {
  if (changed.some((p) => prev.configFiles.has(p))) {
    const next = await loadSite(prev.site.root, log, forgetting(prev, changed), prev.options);
    // An edit to docs.json is worth a line for each problem it brought, not one per known problem.
    // Compared in slices: a navigation listing its pages 65,000 times has as many warnings.
    const slices = new ReloadSlices(prev.options.reloadSlices);
    const known = new Set<string>();
    for (const d of prev.site.diagnostics) {
      if (slices.due()) await slices.turn();
      known.add(formatDiagnostic(d));
    }
    // A page skipped whose file still serves keeps its last good version (`keptOnReload`): said
    // as a single page's reload says it.
    const kept = (d: Diagnostic): string => (d.code === LOAD_CODES.pageSkipped && next.site.files.has(`/${d.file}`) ? " (keeping the last good version)" : "");
    const fresh: Diagnostic[] = [];
    for (const d of next.site.diagnostics) {
      if (slices.due()) await slices.turn();
      if (!known.has(formatDiagnostic(d))) fresh.push(d);
    }
    for (const line of cappedFindingLines(fresh, (d) => formatDiagnostic(d) + kept(d), LOGGED_MORE)) log(line);
    return next;
  }
  const files = new Map(prev.site.files);
  const pages = new Map(prev.site.pages);
  const shadowed = new Map([...(prev.site.shadowed ?? [])].map(([path, list]) => [path, [...list]]));
  const expanded = expandedPaths(prev, changed);
  const links = new Map([...prev.links].map(([real, paths]) => [real, paths.filter((p) => !expanded.has(p))]));
  const changedSet = new Set(changed);
  const diagnostics: Diagnostic[] = prev.site.diagnostics.filter((d) => !changedSet.has(d.file) && !expanded.has(d.file));
  const standing = new Set(prev.site.diagnostics.map(formatDiagnostic));
  const generatedPaths = new Set(prev.site.api?.plan.order ?? []);
  // The new snapshot is built aside; callers are answered from the one served between slices.
  const slices = new ReloadSlices(prev.options.reloadSlices);
  for (const rel of expanded) {
    if (slices.due()) await slices.turn();
    const filePath = `/${rel}`;
    const pagePath = pagePathOf(filePath);
    const existing = files.get(filePath);
    if (prev.ignore.ignores(rel)) continue;
    const read = emptied(rel, readPage(prev.site.root, rel, undefined, prev.ignore));
    const result = read.real !== undefined && prev.configFiles.has(read.real) ? { diagnostic: configLinkFinding(rel, read.real), closed: true, real: read.real } : read;
    // A link refused (into what is ignored, outside, to nothing) is one too: retargeted, it may serve.
    addLinks(links, prev.site.root, rel, result.real, read.real !== undefined || (read.page === undefined && isLink(prev.site.root, rel)));
    // A page that can no longer be served is removed: gone, unreadable, or now a link outside the
    // root or into what the ignore rules exclude (only a page that no longer parses keeps its
    // last good version: that is an edit in progress, not a withdrawal).
    if ((result.missing === true || result.closed === true) && existing !== undefined) {
      files.delete(filePath);
      unplacePage(pages, shadowed, pagePath, filePath);
    }
    if (result.diagnostic !== undefined) {
      diagnostics.push(result.diagnostic);
      // Said once while it stands: a page that stays unreadable or broken is not said again at each of its events.
      const line = formatDiagnostic(result.diagnostic);
      if (!standing.has(line)) log(line + (existing !== undefined && result.closed !== true ? " (keeping the last good version)" : ""));
    }
    // A page that documents an operation (front matter `openapi`), a schema (`openapi-schema`) or a channel (`asyncapi`), before or after the edit,
    // takes the API reference with it (its spec, its shown reference, conflicts): load again,
    // reusing every unchanged page and spec.
    // So does a page at a generated page's path, or in its index form (`p/index` takes `p`: the
    // generated page stands behind it), whether the generated page stands there now or not (adversary
    // round 48 F1: an index file added while serving kept the plan, and its listings, of before).
    // Every page of the path counts: one behind another is some readers' page (`Site.shadowed`).
    const names = (meta: Page["meta"] | undefined): boolean => meta?.openapi !== undefined || meta?.openapiSchema !== undefined || meta?.asyncapi !== undefined;
    const generatedAt = (path: string): boolean => generatedPaths.has(path);
    const taken = generatedAt(pagePath) || (pagePath.endsWith("/index") && generatedAt(pagePath.slice(0, -"/index".length)));
    if (taken || names(result.page?.meta) || pagesAt(prev.site, pagePath).some((p) => p.generated || names(p.meta))) {
      return loadSite(prev.site.root, log, forgetting(prev, [...changed, ...expanded]), prev.options);
    }
    if (result.page !== undefined) addPage(files, pages, shadowed, result.page, diagnostics);
  }
  const { shadowed: _before, ...rest } = prev.site;
  const snapshot = { ...rest, files: sortByPath(files), pages: sortByPath(pages), ...(shadowed.size > 0 ? { shadowed } : {}), diagnostics };
  const site: Site = { ...snapshot, variants: await siteVariants(snapshot, prev.apiCache, prev.site, prev.options.timesMemory) };
  // The folders as the full load listed them no longer describe this snapshot: not kept.
  const { folders: _listed, ...kept } = prev;
  return { ...kept, site, links };
}

/**
 * The page files a reload of `changed` reads again, in the order of `changed`: each changed page,
 * the pages that are links to a changed file, and the pages under a changed path (a removed or
 * renamed folder arrives as one path). Each page's folders are looked up among the changed paths,
 * once: a folder of 20,000 pages removed arrives as thousands of paths, and testing each against
 * every file was their product (~2 s at 25,000 pages, adversary F5).
 */
function expandedPaths(prev: LoadedSite, changed: readonly string[]): Set<string> {
  const changedSet = new Set(changed);
  const under = new Map<string, string[]>();
  for (const path of prev.site.files.keys()) {
    if (!PAGE_RE.test(path)) continue;
    for (let slash = path.indexOf("/", 1); slash > 0; slash = path.indexOf("/", slash + 1)) {
      const folder = path.slice(1, slash);
      if (!changedSet.has(folder)) continue;
      const list = under.get(folder);
      if (list === undefined) under.set(folder, [path.slice(1)]);
      else list.push(path.slice(1));
    }
  }
  const expanded = new Set<string>();
  for (const rel of changed) {
    if (PAGE_RE.test(rel)) expanded.add(rel);
    for (const link of prev.links.get(rel) ?? []) expanded.add(link);
    for (const path of under.get(rel) ?? []) expanded.add(path);
  }
  return expanded;
}

/**
 * A page file emptied while serving, or made empty, is not applied: it is a file being written
 * (`cmd > page.mdx` truncates first), which settled before its writer's next part (a pause longer
 * than `LIMITS.load.writeSettleMs`). Served, a restricted page emptied became a public page named
 * after its file (adversary round 57 F2); kept, its last good version serves until it has content.
 */
function emptied(rel: string, read: ReadResult): ReadResult {
  if (read.page === undefined || read.page.file.size !== 0) return read;
  const { page: _empty, ...rest } = read;
  return { ...rest, diagnostic: { ...skippedFinding(rel, "the file is empty; served once it has content"), subjects: [{ file: rel }] } };
}

/**
 * The whole site loaded again from a docs root replaced while serving (a deploy renamed another
 * tree over it, a `current` link retargeted, the folder removed and made again): as a fresh start
 * would load it, reusing nothing read from the old tree (a page of the same size and time there
 * is another file). Only the last good configuration is kept, for a new tree whose docs.json
 * cannot be read, as on any reload (adversary round 11 F4).
 */
export async function reloadReplacedRoot(prev: LoadedSite, log: LoadLog = () => {}): Promise<LoadedSite> {
  const { apiCache: _specs, pageStats: _stats, folders: _folders, docs: _docs, ...rest } = prev;
  const { shadowed: _shadowed, variants: _variants, ...site } = prev.site;
  const bare: LoadedSite = { ...rest, configFiles: new Set(), cacheConfigFiles: new Set(), links: new Map(), site: { ...site, files: new Map(), pages: new Map() } };
  const next = await loadSite(prev.site.root, log, bare, prev.options);
  const known = new Set(prev.site.diagnostics.map(formatDiagnostic));
  const fresh = next.site.diagnostics.filter((d) => !known.has(formatDiagnostic(d)));
  for (const line of cappedFindingLines(fresh, formatDiagnostic, LOGGED_MORE)) log(line);
  return next;
}

/**
 * The previous load without the pages the watcher reported changed, so the full load reads them
 * again: its reuse test (same time and size) cannot see an edit that keeps the size within one
 * timestamp tick, and the watcher has already said these changed.
 */
function forgetting(prev: LoadedSite, changed: readonly string[]): LoadedSite {
  const gone = new Set(changed.flatMap((rel) => [rel, ...(prev.links.get(rel) ?? [])]).map((rel) => `/${rel}`));
  const changedPages = new Map<string, Page>();
  const kept = (page: Page, path: string): boolean => {
    if (!gone.has(path)) return true;
    changedPages.set(path.slice(1), page.authored ?? page);
    return false;
  };
  const pages = new Map([...prev.site.pages].filter(([, page]) => kept(page, (page.authored ?? page).file.path)));
  const shadowed = new Map([...(prev.site.shadowed ?? [])].map(([path, list]) => [path, list.filter((page) => kept(page, page.file.path))]));
  return { ...prev, site: { ...prev.site, pages, shadowed }, changedPages };
}

/**
 * A page file read by a reload's full load (docs.json edited, a spec, an ignore file) as a
 * single page's reload takes it (`reloadSite`): one that no longer reads (front matter that does
 * not parse or is not closed, over the size limit, unreadable) or that was emptied keeps its
 * last good version, with its finding; a new file in that state is not served. Before, a whole
 * reload dropped such a page (adversary round 57 F3/F6: a page made unreadable or broken, then a
 * docs.json edit), and served an emptied one, a restricted page too, as a public page named after
 * its file. Gone, excluded or a link out (`missing`, `closed`) is a withdrawal: nothing is kept.
 */
function keptOnReload(rel: string, read: ReadResult, previous: LoadedSite): ReadResult {
  const filePath = `/${rel}`;
  const last = (): Page | undefined => previous.changedPages?.get(rel) ?? pagesAt(previous.site, pagePathOf(filePath)).map((p) => p.authored ?? p).find((p) => p.file.path === filePath);
  // An empty page reused as it was (unchanged since a start that served it) is not a new emptying.
  const result = read.page !== undefined && read.page.file.size === 0 && read.page !== last() ? emptied(rel, read) : read;
  if (result.page !== undefined || result.missing === true || result.closed === true || result.diagnostic === undefined) return result;
  const page = last();
  if (page === undefined) return result;
  // No stat: the persistent cache must not take the file as it is now for this version.
  const { stat: _now, ...rest } = result;
  return { ...rest, page };
}

interface ReadResult {
  page?: Page;
  diagnostic?: Diagnostic;
  missing?: boolean;
  /** Not served for a reason that must not keep an older version serving (see `reloadSite`). */
  closed?: boolean;
  /** The real path of the file, when the page is a link to it. */
  real?: string;
  /** The file as read, for a page read or reused from `KnownPages` (not one reused from a previous load). */
  stat?: PageStat;
}

/** Read a page file (`walked`: found by walking real folders, see `InsideReadOptions.walked`, with
 *  the root's real path when known), or reuse its page from the previous load or the cache
 *  (`known`) when the file is unchanged. */
function readPage(root: string, rel: string, previous: Pick<Site, "pages" | "shadowed"> | undefined, ignore: IgnoreRules, known?: KnownPages, texts = new ParsedTexts(), walked?: { readonly realRoot?: string }, ahead?: AheadPage, statAhead?: () => PlainStat | undefined): ReadResult {
  const filePath = `/${rel}`;
  // A page shown with the operation it documents is the authored page plus that part.
  const old = previous === undefined ? undefined : pagesAt(previous, pagePathOf(filePath)).map((p) => p.authored ?? p).find((p) => p.file.path === filePath);
  if (old !== undefined) {
    // Unchanged since the last load: reuse the parsed page (keeps search-index diffs cheap).
    const st = statInsideRoot(root, rel, { ignore });
    if (st.ok && st.kind === "file" && old.file.mtime.getTime() === new Date(st.mtimeMs).getTime() && old.file.size === st.size) {
      return { page: old, ...(st.real !== rel ? { real: st.real } : {}) };
    }
  }
  const cached = known?.get(rel);
  if (cached !== undefined && known !== undefined && cached.stat.mtimeMs < known.trustedBefore) {
    // A stat instead of a read and a parse: the start of a large site from the cache is mostly
    // this. A file the walk found in a real folder (not through a link) is stat'ed where it is,
    // without resolving its folders again (half the time of 25,000 stats): only the cached text
    // is served on a match, so a folder swapped for a link since the walk shows nothing new.
    // (Taken by a thread ahead of this one when `statAhead` is given: `startStatAhead`.)
    const st = cached.stat.real === rel ? (statAhead !== undefined ? asPlainStat(statAhead(), rel) : plainStat(root, rel)) : statInsideRoot(root, rel, { ignore });
    const same = st.ok && st.kind === "file" && st.size === cached.stat.size && st.mtimeMs === cached.stat.mtimeMs && st.ino === cached.stat.ino && st.ctimeMs === cached.stat.ctimeMs && st.real === cached.stat.real;
    if (same) return { page: cached.page, stat: cached.stat, ...(cached.stat.real !== rel ? { real: cached.stat.real } : {}) };
  }
  // Read ahead (`ReadAhead`): as `readBytesInsideRoot` reads a walked file, at its own path.
  const got = ahead !== undefined ? { read: { ...ahead.stat, real: rel }, decoded: ahead.decoded } : readNow(root, rel, ignore, texts, walked);
  if ("reason" in got) return unreadPage(rel, got);
  const { read, decoded } = got;
  const real = read.real !== rel ? { real: read.real } : {};
  const stat: PageStat = { size: read.size, mtimeMs: read.mtimeMs, ino: read.ino, ctimeMs: read.ctimeMs, real: read.real };
  const { size } = decoded;
  const crossFolder = read.real !== rel ? relativeImportLinkFinding(rel, read.real, decoded.text) : undefined;
  if (crossFolder !== undefined) return { diagnostic: crossFolder, closed: true, ...real };
  // Changed shortly before the cache was written, or since: the cached page only if the text is the same.
  if (cached !== undefined && cached.stat.mtimeMs === read.mtimeMs && cached.page.file.text === decoded.text) return { page: cached.page, stat, ...real };
  const parsed = texts.parse(decoded);
  if (!parsed.ok) {
    // Names the file and the parser's words about its front matter only: a reader of the file
    // whole may be told that it is broken, and only a reader of the whole site the parser's words,
    // which quote the new text (its last good version decides who reads the file: `plain`).
    return { diagnostic: { ...skippedFinding(rel, `invalid front matter: ${parsed.message}`, LOAD_CODES.pageSkipped, parsed.line), subjects: [{ file: rel }], plain: "skipped: invalid front matter" }, ...real };
  }
  const { meta, title } = parsed;
  const path = pagePathOf(filePath);
  const access = accessOfMeta(meta);
  // Held so that a shell pool's snapshot can take the text's place in memory (`held-text.ts`);
  // held as bytes from the start when that is smaller (`ParsedTexts`).
  const held = texts.held(decoded, parsed);
  const page = heldPage({ file: heldFile(filePath, held, size, new Date(read.mtimeMs), access), path, title: title ?? titleFromPath(path), meta, frontMatter: parsed.data, bodyLine: parsed.bodyLine }, held);
  const key = texts.bodyKeyOf(decoded);
  return { page: key !== undefined ? withBodyKey(page, key) : page, stat, ...real };
}

/** A file read ahead as `readPage` takes it: its text decoded here, or the text of the earlier
 *  file whose bytes it has (`aheadTexts`, by number). */
function aheadPage(read: AheadRead, n: number, texts: ParsedTexts, aheadTexts: Map<number, PageText>): AheadPage | undefined {
  if ("copyOf" in read) {
    const { copyOf, ...stat } = read;
    const decoded = aheadTexts.get(copyOf);
    // Its first file was decoded here (it came first); else the load reads the file itself.
    return decoded === undefined ? undefined : { stat, decoded };
  }
  const { bytes, held, scan, ...stat } = read;
  const decoded = texts.text(bytes, held === true, scan);
  aheadTexts.set(n, decoded);
  return { stat, decoded };
}

/** Read a page file here (`readPage`); copies of one text (a versioned site's) share its string and its parse. */
function readNow(root: string, rel: string, ignore: IgnoreRules, texts: ParsedTexts, walked: { readonly realRoot?: string } | undefined): Refusal | { readonly read: PageStat; readonly decoded: PageText } {
  // Read up to the larger limit of a file holding inline data; served only if it fits the page
  // limit once its `data:` payloads are cut (`inline-data.ts`).
  const read = readBytesInsideRoot(root, rel, { maxBytes: LIMITS.load.maxPageFileBytes, ignore, walked: walked !== undefined, ...(walked?.realRoot !== undefined ? { realRoot: walked.realRoot } : {}) });
  if (!read.ok) return read.reason === "too-large" ? { ...read, message: `${read.size} bytes is over the ${LIMITS.load.maxPageBytes}-byte limit` } : read;
  const stat = { size: read.size, mtimeMs: read.mtimeMs, ino: read.ino, ctimeMs: read.ctimeMs, real: read.real };
  if (read.size <= LIMITS.load.maxPageBytes) return { read: stat, decoded: texts.text(read.bytes) };
  const kept = withoutInlineData(read.bytes.toString("utf8")).text;
  const bytes = Buffer.from(kept, "utf8");
  if (bytes.length > LIMITS.load.maxPageBytes) return { ok: false, reason: "too-large", size: read.size, message: `${read.size} bytes is over the ${LIMITS.load.maxPageBytes}-byte limit` };
  return { read: stat, decoded: texts.text(bytes) };
}

/** A page file read ahead: its stat and its text (`readPage`). */
interface AheadPage {
  readonly stat: Omit<WalkedRead, "bytes">;
  readonly decoded: PageText;
}

/** The root's real path, or undefined when it cannot be resolved now (each read then says why). */
function knownRealRoot(root: string): string | undefined {
  try {
    return realRoot(root);
  } catch {
    return undefined;
  }
}

/** `root` as `plainStat` prefixes it, normalised once (`join(root, rel)` normalised the whole path
 *  again for each of a start's 25,000 stats: a third of their time). */
let statRoot = { root: "", prefix: "" };

/** What `plainStat` puts before a repository path. */
function statPrefix(root: string): string {
  if (statRoot.root !== root) statRoot = { root, prefix: join(root, "x").slice(0, -1) };
  return statRoot.prefix;
}

type PlainStatResult = { readonly ok: true; readonly kind: "file" | "other"; readonly size: number; readonly mtimeMs: number; readonly ino: number; readonly ctimeMs: number; readonly real: string } | { readonly ok: false };

/** A file's size, time and inode, not following a link at its last part (`readPage`). `rel` is a
 *  path the walk listed: normal already, without `.` or `..` segments. */
function plainStat(root: string, rel: string): PlainStatResult {
  return asPlainStat(lstatPlain(statPrefix(root) + rel), rel);
}

function asPlainStat(st: PlainStat | undefined, rel: string): PlainStatResult {
  return st === undefined ? { ok: false } : { ok: true, kind: st.file ? "file" : "other", size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, ctimeMs: st.ctimeMs, real: rel };
}

/**
 * The warning that a file or folder is not served: `skipped: <why>`, with `why` kept apart so
 * whoever explains a missing page reads it there, never out of the message.
 */
function skippedFinding(file: string, why: string, code: string = LOAD_CODES.pageSkipped, line?: number): Diagnostic {
  return { severity: "warning", file, ...(line !== undefined ? { line } : {}), message: `skipped: ${why}`, code, skipped: why };
}

/** Why a page file is not served, as the loader reports it. */
function unreadPage(rel: string, refusal: Refusal): ReadResult {
  const skipped = (why: string, code: string = LOAD_CODES.pageSkipped): ReadResult => ({ diagnostic: skippedFinding(rel, why, code), closed: true });
  switch (refusal.reason) {
    case "missing":
    case "not-file":
      return { missing: true };
    case "too-large":
      return { diagnostic: skippedFinding(rel, `${refusal.size} bytes is over the ${LIMITS.load.maxPageBytes}-byte page limit`) };
    case "outside":
    case "leaves":
    case "excluded":
      return skipped(refusal.message, refusalCode(refusal));
    case "unreadable":
      // Like a page that no longer parses, not a withdrawal: a chmod, an editor's save under way.
      // A reload keeps its last good version (adversary round 57 F6); a new file is not served.
      return { diagnostic: skippedFinding(rel, `cannot read (${refusal.message})`) };
  }
}

/**
 * The links the walk met, sorted out: a link named as a page file is read as a page (at the
 * link's path) when it leads to a file inside the root, and reported otherwise (`readPage`). A
 * folder link is not followed, inside the root or not (its pages are served at their real path;
 * following would list them twice, and a link to a parent folder would loop), and is reported.
 * A link named as a medium is reported when the preview does not serve it (`mediumLinkFinding`).
 * Other links (a spec, a `$ref`'d file) are reported where something names them.
 */
function pageLinks(root: string, links: readonly string[], ignore: IgnoreRules, diagnostics: Diagnostic[]): string[] {
  const out: string[] = [];
  for (const rel of links) {
    if (ignore.ignores(rel)) continue;
    if (PAGE_FILE.test(rel)) {
      out.push(rel);
      continue;
    }
    if (mediaTypeOf(rel) !== undefined) {
      const finding = mediumLinkFinding(root, rel, ignore);
      if (finding !== undefined) diagnostics.push(finding);
      continue;
    }
    const folder = folderLink(root, rel);
    if (folder === undefined) continue;
    diagnostics.push(
      folder.inside
        ? { severity: "warning", file: rel, message: `folder link not followed: its pages are served at their own path (${folder.real === "" ? "." : folder.real}/)`, code: "link" }
        : skippedFinding(rel, OUTSIDE_MESSAGE, "outside-link"),
    );
  }
  return out;
}

/**
 * Why a link named as a medium (`images/a.png`) is not served, as the preview's media route
 * decides it (`site-media.ts`): it leads outside, to a file the site does not serve, or to a file
 * that is no medium (a page, docs.json, a spec: finding 46). Undefined when it is served, or when
 * nothing is there (a dangling link is found where a page names it).
 */
function mediumLinkFinding(root: string, rel: string, ignore: IgnoreRules): Diagnostic | undefined {
  const st = statInsideRoot(root, rel, { ignore });
  if (!st.ok) return st.reason === "outside" || st.reason === "excluded" ? skippedFinding(rel, st.message, refusalCode(st)) : undefined;
  if (st.kind !== "file" || mediaTypeOf(st.real) !== undefined) return undefined;
  return skippedFinding(rel, `the link leads to ${st.real}, which is no medium, so the preview does not serve it`, "link");
}

/** An import from a path relative to the file (`from "./staff.mdx"`, `from '../x.mdx'`). */
const RELATIVE_IMPORT_RE = /\b(?:from|import)\s*["']\.{1,2}\//;

/**
 * The finding for a page link in another folder than its target whose text imports by a relative
 * path: read at the link's path, `./staff.mdx` names another file (often none) than at the
 * target's, so a restricted import the target's readers have cut out would stay in the link's text
 * as written, its path and component name (adversary, 2026-11-29, finding 46). Such a link is no
 * page; a link in the target's folder, or to a page importing from the root (`/snippets/x.mdx`),
 * reads its imports as the target does and is served.
 */
function relativeImportLinkFinding(rel: string, real: string, text: string): Diagnostic | undefined {
  if (posix.dirname(rel) === posix.dirname(real) || !RELATIVE_IMPORT_RE.test(text)) return undefined;
  return skippedFinding(rel, `the link leads to ${real}, in another folder, whose imports by a relative path would name other files from the link's folder`, "link");
}

/** Take out the pages that are links to one of `targets` (configuration, specs, their `$ref`
 *  files), each with its finding (`configLinkFinding`). */
function withdrawConfigLinks(targets: ReadonlySet<string>, links: ReadonlyMap<string, readonly string[]>, routes: { files: Map<string, SiteFile>; pages: Map<string, Page>; shadowed: Map<string, Page[]> }, diagnostics: Diagnostic[]): void {
  for (const [target, paths] of links) {
    if (!targets.has(target)) continue;
    for (const rel of paths) {
      if (!routes.files.has(`/${rel}`)) continue;
      routes.files.delete(`/${rel}`);
      unplacePage(routes.pages, routes.shadowed, pagePathOf(`/${rel}`), `/${rel}`);
      diagnostics.push(configLinkFinding(rel, target));
    }
  }
}

/**
 * The finding for a page named link to a file the site reads as configuration (docs.json and its
 * navigation files, which name restricted pages) or serves per reader (an API spec, pruned of what
 * each reader may not read): its bytes as written would reach every reader of the link (finding
 * 46), so the link is no page.
 */
function configLinkFinding(rel: string, target: string): Diagnostic {
  return skippedFinding(rel, `the link leads to ${target}, which the site reads as its configuration or an API spec: served only at its own path, as each reader may read it`, "link");
}

/**
 * What the watcher is told besides the folders it walks (`RepositoryWatcher.watchConfigFiles`,
 * which watches those in a folder never watched otherwise): the configuration files, and the
 * links pages are read through, a middle link in a dot-folder (`p.mdx -> .links/q.mdx ->
 * ../guides/real.mdx`) included, whose retarget re-reads its pages (`LoadedSite.links`).
 */
export function watchedAside(loaded: Pick<LoadedSite, "configFiles" | "links">): string[] {
  return [...loaded.configFiles, ...loaded.links.keys()];
}

/**
 * Record the page `rel` by its real path when it is a link to it, and (`isLink`) by every other
 * link met on the way to its file (`linksOnTheWay`): the watcher reports a retargeted link at the
 * link's own path, never at the pages that pass through it, so without this a page kept the
 * bytes of a chain's old target (adversary F3). Looked for only for pages that are links, each a
 * few `lstat`s: a regular page has no links on its way (the walk lists real folders only).
 */
function addLinks(links: Map<string, string[]>, root: string, rel: string, real: string | undefined, isLink: boolean): void {
  if (real !== undefined) addLink(links, real, rel);
  if (isLink) for (const link of linksOnTheWay(root, rel)) if (link !== rel) addLink(links, link, rel);
}

/** Whether the page file `rel` is a link (a refused one included: to nothing, outside, ignored). */
function isLink(root: string, rel: string): boolean {
  return lstatSync(join(root, rel), { throwIfNoEntry: false })?.isSymbolicLink() === true;
}

function addLink(links: Map<string, string[]>, real: string, rel: string): void {
  const paths = links.get(real);
  if (paths === undefined) links.set(real, [rel]);
  else if (!paths.includes(rel)) paths.push(rel);
}

/** Add a page; `a.mdx` wins over `a.md` for the same page path (the platform prefers MDX), and
 *  the other is kept for readers who may not read it (`page-routes.ts`). */
function addPage(files: Map<string, SiteFile>, pages: Map<string, Page>, shadowed: Map<string, Page[]>, page: Page, diagnostics: Diagnostic[]): void {
  files.set(page.file.path, page.file);
  const two = placePage(pages, shadowed, page);
  if (two === undefined) return;
  diagnostics.push({
    severity: "warning",
    file: two.dropped.file.path.slice(1),
    message: `two files for page ${page.path}: ${two.kept.file.path.slice(1)} is the page, ${two.dropped.file.path.slice(1)} is only readable as a file`,
    code: LOAD_CODES.pageTwoFiles,
  });
}

/** The API reference's pages placed among the site's (`generateApiPages`). */
function placeApiPages(generated: Pick<ApiPagesResult, "pages" | "documented" | "hidden" | "behind">, routes: { files: Map<string, SiteFile>; pages: Map<string, Page>; shadowed: Map<string, Page[]> }): void {
  const { files, pages, shadowed } = routes;
  for (const page of generated.pages) {
    if (pages.has(page.path)) continue;
    files.set(page.file.path, page.file);
    pages.set(page.path, page);
  }
  for (const page of generated.documented) {
    files.set(page.file.path, page.file);
    pages.set(page.path, page);
  }
  // A page behind another at its path, with the reference its own front matter names.
  for (const page of generated.hidden) {
    const at = shadowed.get(page.path);
    const k = at?.findIndex((p) => p.file.path === page.file.path) ?? -1;
    if (at === undefined || k === -1) continue;
    at[k] = page;
    files.set(page.file.path, page.file);
  }
  // A generated page whose path a file takes stands behind that file's page (last, after an
  // `x.md` beside it): a reader who may read none of them gets it, as on the site without them.
  // Where `<path>/index` files take the path too, behind those (`page-routes.ts`, `behindIndex`):
  // a reader gets `<path>`'s files first, then the index files, then the generated page.
  // Its file is in no table: the reader's view takes it from here.
  // Only files take it there: a generated page at `<path>/index` alone (no file) leaves it on its
  // own path, behind its own files (adversary round 49 F1).
  for (const page of generated.behind) {
    const atIndex = pages.get(indexPathOf(page.path));
    const at = atIndex !== undefined && !atIndex.generated ? indexPathOf(page.path) : page.path;
    if (!pages.has(at)) continue;
    shadowed.set(at, [...(shadowed.get(at) ?? []), page]);
  }
}

/**
 * The authored pages behind another at their path (`x.md` behind `x.mdx`), one table by page
 * path per depth: the API reference plans each apart (`ApiPagesOptions.hiddenPages`).
 */
function hiddenLayers(shadowed: ReadonlyMap<string, readonly Page[]>): Map<string, Page>[] {
  const layers: Map<string, Page>[] = [];
  for (const [path, list] of shadowed) {
    for (const [k, page] of list.filter((p) => !p.generated).entries()) {
      while (layers.length <= k) layers.push(new Map());
      (layers[k] as Map<string, Page>).set(path, page);
    }
  }
  return layers;
}

/**
 * The spec file each page's front matter `openapi` names (`frontMatterSpecFile`), by the page's
 * file path (`/guides/x.md`: a page path can hold two pages, `Site.shadowed`):
 * only files inside the real root count (`statInsideRoot`, as for every read); the repository's
 * spec-like files are listed (the same walk as pages) only when a name is found nowhere else.
 */
function frontMatterSpecsOf(root: string, tables: readonly ReadonlyMap<string, Page>[], rule: SpecFileRule, named: ReadonlySet<string>, diagnostics: Diagnostic[]): Map<string, string> {
  const { ignore, configFiles } = rule;
  const out = new Map<string, string>();
  let listed: string[] | undefined;
  // Only a file the rule for spec files lets be one is found: any other reads as missing, so the
  // page's finding is a missing spec's, whatever is there (adversary round 59 F1).
  const lookup: SpecFileLookup = {
    exists: (rel) => specFileFound(root, rel, ignore, configFiles),
    specFiles: () => (listed ??= listInsideRoot(root, (rel) => SPEC_FILE.test(rel)).files.filter((rel) => !ignore.ignores(rel) && refusedAsSpec(rel, rel, configFiles) === undefined).sort()),
  };
  let texts: RepoSpecText[] | undefined;
  // Every spec-like file's text, read once and only for a reference that names no file.
  const specTexts = (): RepoSpecText[] =>
    (texts ??= lookup.specFiles().flatMap((rel) => {
      const read = readSpecFile(root, rel, ignore, configFiles);
      return "text" in read ? [{ rel, text: read.text }] : [];
    }));
  // What a page's name resolves to is a function of the repository's files and that page alone
  // (adversary round 47 F4, F6, F7): never of what other pages name, so a staff page naming a
  // file moves no public page's reference (to another file, or off one). What restricted pages
  // name narrows only who may read a file (`namingPagesAccess`), and a page counts among the
  // namers of the file its name resolves to, so mounting and the plan agree: a file a staff page
  // names and a public page's name finds is shown to the public page's readers (their page names it).
  const unnamedSchemas: [Page, string][] = [];
  const unnamedOperations: [Page, OperationEntry][] = [];
  for (const page of tables.flatMap((pages) => [...pages.values()])) {
    const entry = page.meta.openapi !== undefined ? parseOperationEntry(page.meta.openapi) : undefined;
    // A data model page (`openapi-schema`) names its spec the same way, or names none: then the
    // first repository spec by file name holding the schema's name, as the platform picks (the
    // plan also looks in docs.json's specs).
    const schema = entry === undefined && page.meta.openapiSchema !== undefined ? parseSchemaReference(page.meta.openapiSchema) : undefined;
    // A channel page (`asyncapi`) names its spec file the same way; naming none, the plan looks
    // among the site's AsyncAPI specs. One reference per page: `openapi` first, as the plan reads.
    const channel = page.meta.openapi === undefined && page.meta.openapiSchema === undefined && page.meta.asyncapi !== undefined ? parseChannelReference(page.meta.asyncapi) : undefined;
    const file = channel !== undefined ? channel.file : (entry?.file ?? schema?.file);
    if (file !== undefined) {
      const spec = frontMatterSpecFile(file, page.file.path.slice(1), lookup);
      if (spec !== undefined) out.set(page.file.path, spec);
      continue;
    }
    if (schema !== undefined) unnamedSchemas.push([page, schema.name]);
    else if (entry !== undefined) unnamedOperations.push([page, entry]);
  }
  for (const [page, entry] of unnamedOperations) {
    const holders = unnamedSpecsFor(entry, specTexts());
    const first = holders[0];
    // A spec docs.json names among them: the API reference's plan chooses among those, and says so.
    if (first === undefined || holders.some((rel) => named.has(rel))) continue;
    out.set(page.file.path, first);
    if (holders.length > 1) {
      const label = `${entry.method.toUpperCase()} ${entry.path}`;
      const listed = holders.slice(0, 3).join(", ") + (holders.length > 3 ? ` and ${holders.length - 3} more` : "");
      diagnostics.push({
        severity: "warning",
        file: page.file.path.slice(1),
        code: API_CODES.frontMatter,
        message: `front matter openapi "${page.meta.openapi as string}" names no spec, and ${holders.length} specs have ${label} (${listed}): the page shows ${first}'s, the first by file name, as the hosted platform takes it; name one as "<spec file> ${label}"`,
      });
    }
  }
  for (const [page, name] of unnamedSchemas) {
    const holders = unnamedSchemaSpecsFor(name, specTexts());
    const first = holders[0];
    // As for an operation: a spec docs.json names among them, and the plan chooses among the
    // loaded specs; taking another here would open a file the page does not show to its readers.
    if (first !== undefined && !holders.some((rel) => named.has(rel))) out.set(page.file.path, first);
  }
  return out;
}

/**
 * Whether every reader of a local spec may read a file its `$ref`s name (finding 43): a file
 * docs.json's navigation is read from names restricted pages and is served to no one; a mounted
 * file (a page, a snippet, a spec) has its own readers, who must include every reader of the
 * spec; a page file the site did not mount (unreadable, too large) is read by no one (fail
 * closed); any other file (a schema beside the spec) has no rule of its own. A part of another
 * spec restricted by `x-svc` is judged as a file is.
 */
function refReadersOf(files: ReadonlyMap<string, SiteFile>, specFiles: ReadonlyMap<string, SiteFile>, configFiles: readonly string[]): (source: string) => RefReaders {
  const config = new Set(configFiles);
  return (source) => {
    const specAccess = specFiles.get(`/${source}`)?.access ?? {};
    return {
      file: (rel) => {
        if (config.has(rel)) return false;
        // A spec's file is mounted only once the specs have loaded: judged by its rule meanwhile.
        const file = files.get(`/${rel}`) ?? specFiles.get(`/${rel}`);
        if (file === undefined) return !PAGE_RE.test(rel);
        return readersCover(specAccess, file.access);
      },
      part: (rule) => readersCover(specAccess, rule),
    };
  };
}

/** Files that may hold an API description. */
const SPEC_FILE = /\.(json|ya?ml)$/i;

/**
 * Who may read a spec mounted only because page front matter names it: the readers of one of
 * those pages. Decided from the pages alone, so a spec that cannot be loaded (and so cannot be
 * pruned part by part) is no more readable than the pages that name it.
 */
function namingPagesAccess(source: string, frontMatterSpecs: ReadonlyMap<string, string>, files: ReadonlyMap<string, SiteFile>): Access {
  const groups = new Set<string>();
  for (const [filePath, named] of frontMatterSpecs) {
    if (named !== source) continue;
    const access = files.get(filePath)?.access;
    if (access === undefined) continue;
    // A page anyone (or any signed-in reader on a full site) may read: the spec is as open.
    if (access.public === true || access.groups === undefined || access.groups.length === 0) return {};
    for (const g of access.groups) groups.add(g);
  }
  return { groups: [...groups].sort() };
}

/**
 * A spec kept as its last good version (`SpecLoadResult.refused`: emptied, no longer parsing,
 * gone while still named, over a limit) is mounted as it was last read whole, as its pages are
 * kept: the command each generated page ends with (`jq ... /openapi.json`) still answers, and a
 * reader reads the bytes the pages were made from, under that version's rules (adversary round
 * 57 F4). Mounted as it reads now before, an emptied spec was an empty file and a deleted one
 * none, under pages that still named it. `mounted` (the texts now) is what the API reference
 * loaded, and stays so: that is what tells it the file is broken.
 */
function mountKeptSpecs(cache: ApiCache, specs: readonly { readonly source: string; readonly remote: boolean }[], files: Map<string, SiteFile>, mounted: ReadonlyMap<string, SiteFile>, before: ReadonlyMap<string, SiteFile> | undefined, accessOf: (source: string) => Access): void {
  for (const spec of specs) {
    if (spec.remote) continue;
    const result = cache.specs.get(spec.source)?.result;
    if (result?.ok !== true || result.refused === undefined || result.keptText === undefined) continue;
    const path = `/${spec.source}`;
    const access = accessOf(spec.source);
    const last = before?.get(path);
    // The file as the last load mounted it, when that was this text (kept or last good): its
    // variants are reused as they were.
    if (last !== undefined && last.text === result.keptText && accessKey(last.access) === accessKey(access)) files.set(path, last);
    else files.set(path, makeFile(path, result.keptText, access, last?.mtime ?? mounted.get(path)?.mtime ?? new Date()));
  }
}

/** What the rule for spec files is decided by (`readSpecFile`). */
interface SpecFileRule {
  readonly ignore: IgnoreRules;
  readonly configFiles: ConfigFiles;
}

/** Whether the API reference loaded a local spec's file as an API description (`notSpec`), so that
 *  the site may mount it; a spec it did not load (none: no API reference) is not mounted. */
function loadedAsSpec(cache: ApiCache | undefined, source: string): boolean {
  const result = cache?.specs.get(source)?.result;
  return result !== undefined && result.notSpec !== true;
}

/** A spec file docs.json or front matter names, read to be mounted if it loads as a spec
 *  (`loadedAsSpec`); undefined when it cannot be read (the reason is reported). */
function readSpecCandidate(root: string, rel: string, access: Access, diagnostics: Diagnostic[], rule: SpecFileRule): { file: SiteFile; real: string } | undefined {
  const read = readSpecFile(root, rel, rule.ignore, rule.configFiles);
  if (read.ok) return { file: makeFile(`/${rel}`, read.text, access, new Date(read.mtimeMs)), real: read.real };
  switch (read.reason) {
    // A file no spec may be reads as missing (`SPEC_FILE_MISSING`), reported as one by the loader.
    case "missing":
    case "outside":
    case "leaves":
      // Reported by the API reference loader, at the place docs.json names the spec.
      return undefined;
    case "too-large":
      diagnostics.push({ severity: "warning", file: rel, message: `not mounted: ${read.size} bytes is over the ${LIMITS.load.maxSpecBytes}-byte spec limit`, code: LOAD_CODES.specSize });
      return undefined;
    case "excluded":
      diagnostics.push({ severity: "warning", file: rel, message: `not mounted: ${read.message}`, code: "link" });
      return undefined;
    default:
      diagnostics.push({ severity: "error", file: "docs.json", message: `API spec ${rel}: ${read.message}`, code: LOAD_CODES.specRead });
      return undefined;
  }
}

function sortByPath<V>(map: Map<string, V>): Map<string, V> {
  // Files are added in path order (the pages' files, sorted, then specs and generated pages):
  // a map already in order is kept as it is, not copied (~30 ms at 25,000 pages, twice a load).
  let last: string | undefined;
  let sorted = true;
  for (const key of map.keys()) {
    if (last !== undefined && key < last) {
      sorted = false;
      break;
    }
    last = key;
  }
  if (sorted) return map;
  return new Map([...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}


/** docs.json's navigation pages with the generated API pages' placements it does not list, and
 *  which paths those are (`SiteConfig.generatedNav`); a kept last good configuration's own
 *  generated placements are left for these. */
function withGeneratedNav(config: SiteConfig, placements: Iterable<readonly [string, PagePlacement]> | undefined): { navPages: Map<string, PagePlacement>; generatedNav: Set<string> } {
  const navPages = new Map(config.navPages);
  for (const path of config.generatedNav ?? []) navPages.delete(path);
  const generatedNav = new Set<string>();
  for (const [path, placement] of placements ?? []) {
    if (navPages.has(path)) continue;
    navPages.set(path, placement);
    generatedNav.add(path);
  }
  return { navPages, generatedNav };
}
