import { readFileSync, statSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import fg from "fast-glob";
import { formatDiagnostic, type Diagnostic } from "../config/diagnostic.js";
import { parseFrontMatter } from "../config/frontmatter.js";
import { IGNORE_FILES, compileIgnoreRules, type IgnoreRules } from "../config/ignore-rules.js";
import { type DocsJsonResult, loadDocsJson } from "../config/load-docs-json.js";
import { readSiteConfig } from "../config/read-site-config.js";
import { readPageMeta, titleFromBody, titleFromPath } from "../config/page-meta.js";
import { emptySiteConfig, type SiteConfig } from "../config/site-config.js";
import { LIMITS } from "../limits.js";
import { type ApiCache, generateApiPages } from "./api-pages.js";
import type { FetchLike } from "../config/openapi/load-api-spec.js";
import type { SpecCache } from "../config/openapi/spec-cache.js";
import { SKIPPED } from "./page-files.js";
import { makeFile, pagePathOf, type Page, type Site, type SiteFile } from "./site.js";

/** Page files: Markdown and MDX. */
export const PAGE_GLOB = "**/*.{md,mdx,MD,MDX}";
const PAGE_RE = /\.(md|mdx)$/i;

/** Everything needed to load a site and to reload it incrementally. */
export interface LoadedSite {
  readonly site: Site;
  readonly ignore: IgnoreRules;
  /** Repo-relative files whose change means a full reload (docs.json, `$ref`s, ignore files, specs). */
  readonly configFiles: ReadonlySet<string>;
  /** Compiled validators and loaded specs, reused by the next load while a spec is unchanged. */
  readonly apiCache?: ApiCache;
  /** The options it was loaded with; a reload uses them again. */
  readonly options: LoadSiteOptions;
}

export interface LoadSiteOptions {
  /** Fetch remote API specs named in docs.json with this (see README, "API reference").
   *  Unset: remote specs are not fetched and their operation entries stay unverified. */
  readonly fetchRemoteSpecs?: FetchLike;
  /** `false` leaves the API reference out: no spec is loaded and no page generated (the
   *  config bench measures docs.json and navigation work with it). Default: included. */
  readonly apiReference?: boolean;
  /** Parsed specs kept across processes (`openSpecCache`); unset: every spec is parsed. */
  readonly specCache?: SpecCache;
}

/** Reports progress and problems; the CLI sends these to stderr (never stdout: stdio is protocol). */
export type LoadLog = (message: string) => void;

/** Load a docs repository from disk into an immutable snapshot. Never throws for a bad file. */
export async function loadSite(root: string, log: LoadLog = () => {}, previous?: LoadedSite, options: LoadSiteOptions = {}): Promise<LoadedSite> {
  const diagnostics: Diagnostic[] = [];
  const ignore = compileIgnoreRules(readIgnoreTexts(root));

  const docs = await loadDocsJson(root);
  diagnostics.push(...docs.diagnostics);
  // An invalid docs.json keeps the last good configuration. At first load there is none: serve
  // what can be read of it (versions, languages, places in the navigation, the specs), with
  // every page searchable, so that one mistake does not take the navigation away.
  // A best-effort configuration is no good state to keep: it is read again from the new file.
  const lastGood = previous !== undefined && (previous.site.config.document !== undefined || !previous.site.config.present) ? previous.site.config : undefined;
  const config: SiteConfig = docs.config ?? lastGood ?? firstLoadConfig(docs, basename(root));

  const relPaths = fg.sync(PAGE_GLOB, {
    cwd: root,
    dot: false,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore: ["**/node_modules/**"],
  });
  const kept = relPaths.filter((p) => !ignore.ignores(p)).sort();
  if (kept.length > 500) log(`loading ${kept.length} pages from ${root}`);

  const files = new Map<string, SiteFile>();
  const pages = new Map<string, Page>();
  const previousPages = previous?.site.pages;
  // Synchronous reads: fast-glob has listed the files, and reading them one after the other
  // (~18 ms for spree's 428) beats a stat and a read per file through the thread pool (~60 ms).
  for (const rel of kept) {
    const result = readPage(root, rel, previousPages);
    if (result.diagnostic !== undefined) diagnostics.push(result.diagnostic);
    if (result.page !== undefined) addPage(files, pages, result.page, diagnostics);
  }

  const specFiles = new Map<string, SiteFile>();
  for (const spec of config.specs) {
    if (spec.remote || ignore.ignores(spec.source)) continue;
    const file = readSpecFile(root, spec.source, diagnostics);
    if (file !== undefined) specFiles.set(file.path, file);
  }
  for (const [path, file] of specFiles) files.set(path, file);

  // API reference: generated operation/channel pages join the site like any page (readable,
  // searchable, placed in navigation). A broken spec is a diagnostic; the rest keeps serving.
  const generated =
    options.apiReference === false
      ? undefined
      : // An invalid docs.json keeps the last good one for the API reference too.
        await generateApiPages(root, (docs.config !== undefined ? docs.raw : previous?.site.config.document ?? docs.raw) ?? {}, pages, {
          ...(previous?.apiCache !== undefined ? { cache: previous.apiCache } : {}),
          ...(options.fetchRemoteSpecs !== undefined ? { fetch: options.fetchRemoteSpecs } : {}),
          ...(options.specCache !== undefined ? { specCache: options.specCache } : {}),
          specFiles,
        });
  diagnostics.push(...(generated?.diagnostics ?? []));
  for (const page of generated?.pages ?? []) {
    if (pages.has(page.path)) continue;
    files.set(page.file.path, page.file);
    pages.set(page.path, page);
  }
  const navPages = new Map(config.navPages);
  for (const [path, placement] of generated?.placements ?? []) if (!navPages.has(path)) navPages.set(path, placement);
  const siteConfig: SiteConfig = { ...config, navPages };

  for (const d of diagnostics) log(formatDiagnostic(d));
  const site: Site = { root, config: siteConfig, files: sortByPath(files), pages: sortByPath(pages), diagnostics, ...(generated !== undefined ? { api: generated.api } : {}) };
  const configFiles = new Set<string>([...docs.files, ...IGNORE_FILES, ...config.specs.filter((s) => !s.remote).map((s) => s.source)]);
  return { site, ignore, configFiles, options, ...(generated !== undefined ? { apiCache: generated.cache } : {}) };
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
  if (changed.some((p) => prev.configFiles.has(p))) return loadSite(prev.site.root, log, prev, prev.options);
  const files = new Map(prev.site.files);
  const pages = new Map(prev.site.pages);
  const diagnostics: Diagnostic[] = prev.site.diagnostics.filter((d) => !changed.includes(d.file));
  // A removed or renamed folder arrives as one path: expand it to the pages it held.
  const expanded = new Set<string>();
  for (const rel of changed) {
    if (PAGE_RE.test(rel)) expanded.add(rel);
    const prefix = `/${rel}/`;
    for (const path of prev.site.files.keys()) if (path.startsWith(prefix) && PAGE_RE.test(path)) expanded.add(path.slice(1));
  }
  for (const rel of expanded) {
    const filePath = `/${rel}`;
    const pagePath = pagePathOf(filePath);
    const existing = files.get(filePath);
    if (prev.ignore.ignores(rel)) continue;
    const result = readPage(prev.site.root, rel, undefined);
    if (result.missing === true) {
      if (existing !== undefined) {
        files.delete(filePath);
        if (pages.get(pagePath)?.file === existing) pages.delete(pagePath);
      }
      continue;
    }
    if (result.diagnostic !== undefined) {
      diagnostics.push(result.diagnostic);
      log(formatDiagnostic(result.diagnostic) + (existing !== undefined ? " (keeping the last good version)" : ""));
    }
    if (result.page !== undefined) addPage(files, pages, result.page, diagnostics);
  }
  const site: Site = { ...prev.site, files: sortByPath(files), pages: sortByPath(pages), diagnostics };
  return { ...prev, site };
}

interface ReadResult {
  page?: Page;
  diagnostic?: Diagnostic;
  missing?: boolean;
}

function readPage(root: string, rel: string, previous: ReadonlyMap<string, Page> | undefined): ReadResult {
  const abs = join(root, rel);
  let text: string;
  let mtime: Date;
  try {
    const st = statSync(abs);
    if (!st.isFile()) return { missing: true };
    if (st.size > LIMITS.load.maxPageBytes) {
      return { diagnostic: { severity: "warning", file: rel, message: `${SKIPPED}${st.size} bytes is over the ${LIMITS.load.maxPageBytes}-byte page limit` } };
    }
    const filePath = `/${rel}`;
    const old = previous?.get(pagePathOf(filePath));
    // Unchanged since the last load: reuse the parsed page (keeps search-index diffs cheap).
    if (old !== undefined && old.file.path === filePath && old.file.mtime.getTime() === new Date(st.mtimeMs).getTime() && old.file.size === st.size) {
      return { page: old };
    }
    text = readFileSync(abs, "utf8");
    mtime = new Date(st.mtimeMs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { missing: true };
    return { diagnostic: { severity: "warning", file: rel, message: `${SKIPPED}cannot read (${(error as Error).message})` } };
  }
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) {
    return {
      diagnostic: {
        severity: "warning",
        file: rel,
        ...(parsed.line !== undefined ? { line: parsed.line } : {}),
        message: `${SKIPPED}invalid front matter: ${parsed.message}`,
      },
    };
  }
  const meta = readPageMeta(parsed.data);
  const filePath = `/${rel}`;
  const path = pagePathOf(filePath);
  const access = {
    ...(meta.groups !== undefined ? { groups: meta.groups } : {}),
    ...(meta.public === true ? { public: true } : {}),
  };
  const page: Page = {
    file: makeFile(filePath, text, access, mtime),
    path,
    title: meta.title ?? titleFromBody(parsed.body) ?? titleFromPath(path),
    meta,
    frontMatter: parsed.data,
    body: parsed.body,
    bodyLine: parsed.bodyLine,
    generated: false,
  };
  return { page };
}

/** Add a page; `a.mdx` wins over `a.md` for the same page path (the platform prefers MDX). */
function addPage(files: Map<string, SiteFile>, pages: Map<string, Page>, page: Page, diagnostics: Diagnostic[]): void {
  files.set(page.file.path, page.file);
  const other = pages.get(page.path);
  if (other !== undefined && other.file.path !== page.file.path) {
    const keepOther = /\.mdx$/i.test(other.file.path) && !/\.mdx$/i.test(page.file.path);
    const [kept, dropped] = keepOther ? [other, page] : [page, other];
    diagnostics.push({
      severity: "warning",
      file: dropped.file.path.slice(1),
      message: `two files for page ${page.path}: ${kept.file.path.slice(1)} is the page, ${dropped.file.path.slice(1)} is only readable as a file`,
    });
    pages.set(page.path, kept);
    return;
  }
  pages.set(page.path, page);
}

function readSpecFile(root: string, rel: string, diagnostics: Diagnostic[]): SiteFile | undefined {
  // `openapi: "../../etc/passwd"` must not mount a file from outside the repository (the API
  // reference loader reports "the path leaves the repository" at the docs.json key).
  const inside = relative(resolve(root), resolve(root, rel));
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return undefined;
  try {
    const abs = join(root, rel);
    const st = statSync(abs);
    if (st.size > LIMITS.load.maxSpecBytes) {
      diagnostics.push({ severity: "warning", file: rel, message: `not mounted: ${st.size} bytes is over the ${LIMITS.load.maxSpecBytes}-byte spec limit` });
      return undefined;
    }
    return makeFile(`/${rel}`, readFileSync(abs, "utf8"), {}, new Date(st.mtimeMs));
  } catch (error) {
    // A missing spec is reported by the API reference loader, at the place docs.json names it.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    diagnostics.push({ severity: "error", file: "docs.json", message: `API spec ${rel}: ${(error as Error).message}` });
    return undefined;
  }
}

function readIgnoreTexts(root: string): string[] {
  const texts: string[] = [];
  for (const name of IGNORE_FILES) {
    try {
      texts.push(readFileSync(join(root, name), "utf8"));
    } catch {
      // An absent ignore file is the normal case.
    }
  }
  return texts;
}

function sortByPath<V>(map: Map<string, V>): Map<string, V> {
  return new Map([...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

