import { basename } from "node:path";
import { escapeNonAscii } from "../config/escape-non-ascii.js";
import { emptyFolderMessage, noDocsJsonMessage } from "../config/no-docs-json.js";
import type { Diagnostic } from "../config/diagnostic.js";
import type { ResolveEntry } from "../config/docs-json/entries.js";
import { readNavigation } from "../config/docs-json/nav-model.js";
import { listSpecReferences } from "../config/docs-json/spec-references.js";
import { locate, sortDiagnostics, VALIDATION_CODES } from "../config/docs-json/validate.js";
import { type DocsJsonResult, loadDocsJson } from "../config/load-docs-json.js";
import { parseOperationEntry } from "../config/openapi/entry.js";
import { frontMatterShape, frontMatterWarning } from "../config/frontmatter.js";
import { frontMatterProblems } from "../config/page-meta.js";
import { readSiteConfig } from "../config/read-site-config.js";
import { toPagePath } from "../config/site-config.js";
import { type LoadedSite, type LoadLog, type LoadSiteOptions, loadSite } from "./load-site.js";
import { resolveEntryFromSite } from "./api-entries.js";
import { pageFilesOf } from "./page-files.js";
import { placementOf } from "./site.js";

export interface SiteCheck {
  /** Every finding, sorted: docs.json and its `$ref`s first, then pages by path. */
  readonly diagnostics: readonly Diagnostic[];
  readonly errors: number;
  readonly warnings: number;
  readonly loaded: LoadedSite;
  readonly docs: DocsJsonResult;
}

export interface CheckOptions {
  /** Decides which navigation entries are API operations (the OpenAPI engine plugs in here). */
  readonly resolveEntry?: ResolveEntry;
  readonly log?: LoadLog;
  readonly load?: LoadSiteOptions;
  /** The folder as the user named it, for the words of a finding (`noDocsJsonMessage`); default "this folder". */
  readonly named?: string;
}

/** Codes of the findings `check` adds beyond docs.json validation (listed in docs/docs-json.md). */
export const SITE_CHECK_CODES = ["not-in-navigation", "front-matter", "no-docs-json", "remote-spec", "ignore-file-line-ends"] as const;

/** Folders whose pages are never navigation pages: `snippets/` holds MDX imported by pages,
 *  `_snippets/` the files of the platform's older `<Snippet file>` tags. */
const NOT_PAGES = /^_?snippets\//;

/**
 * `svc-mcp check`: load the repository as the server would, then validate docs.json knowing
 * which files exist, and warn about pages no reader can reach through the navigation and about
 * front matter the server cannot read.
 */
export async function checkSite(root: string, options: CheckOptions = {}): Promise<SiteCheck> {
  const loaded = await loadSite(root, options.log, undefined, options.load);
  const docs = await loadDocsJson(root, {
    ignore: loaded.ignore,
    files: pageFilesOf(loaded.site, loaded.ignore),
    resolveEntry: options.resolveEntry ?? resolveEntryFromSite(loaded.site),
  });
  const diagnostics: Diagnostic[] = [...docs.diagnostics, ...loaderFindings(loaded, docs), ...unverifiedSpecs(loaded, docs), ...loneCrFindings(loaded)];
  // With a docs.json that cannot be read as a whole, placements still come from what could be
  // read, so that every problem is reported at once.
  const config =
    docs.config ?? (docs.source?.value !== undefined ? readSiteConfig(docs.source.value, basename(root), docs.model !== undefined ? { model: docs.model } : {}) : undefined);
  if (config?.present === false) {
    diagnostics.push({
      severity: "warning",
      file: "docs.json",
      code: "no-docs-json",
      // A repository with a mint.json (the format before docs.json) is read from it (`loadDocsJson`).
      message: (loaded.site.pages.size === 0 ? emptyFolderMessage : noDocsJsonMessage)(options.named ?? "this folder"),
    });
  }
  // Pages docs.json lists in a part that cannot be read (reported above) are not in the
  // navigation as read: say why.
  const written = new Set(docs.source?.value !== undefined ? readNavigation(docs.source.value).entries.map((e) => toPagePath(e.entry)) : []);
  for (const page of loaded.site.pages.values()) {
    if (page.generated) continue;
    const rel = page.file.path.slice(1);
    // A file at a generated API page's path takes its place in navigation (`withApiPages`), which
    // the configuration as read does not hold: the loaded site's does, an index file's too
    // (`<path>/index.mdx` takes `<path>` as `<path>.mdx` does: adversary round 49 F3).
    const placed = placementOf({ ...loaded.site, config: config ?? loaded.site.config }, page) !== undefined || placementOf(loaded.site, page) !== undefined;
    if (config !== undefined && config.present && !NOT_PAGES.test(rel) && !placed) {
      const where = written.has(page.path) || written.has(`${page.path}/index`) ? "listed only in a part of docs.json that cannot be read (above)" : "not in the navigation";
      diagnostics.push({
        severity: "warning",
        file: rel,
        code: "not-in-navigation",
        message: config.indexing === "all" ? `page is ${where}` : `page is ${where}, so search leaves it out (seo.indexing "all" includes it)`,
      });
    }
    // Only a page whose front matter was read as empty can be one whose YAML was no mapping.
    const shape = Object.keys(page.frontMatter).length === 0 ? frontMatterShape(page.file.text) : undefined;
    if (shape !== undefined) {
      diagnostics.push({
        severity: "warning",
        file: rel,
        line: 1,
        code: "front-matter",
        message: `front matter is ${shape}, not keys with values (\`title: Setup\`): read as none, so the page has no title, description or other setting from it`,
      });
    }
    // Front matter the platform would show as text (or read a key of otherwise): read here, said here.
    const unlike = shape === undefined && Object.keys(page.frontMatter).length > 0 ? frontMatterWarning(page.file.text) : undefined;
    if (unlike !== undefined) diagnostics.push({ severity: "warning", file: rel, line: 1, code: "front-matter", message: unlike });
    for (const problem of frontMatterProblems(page.frontMatter)) {
      const line = frontMatterKeyLine(page.file.text, problem.path.split(/[.[]/)[0] ?? problem.path);
      diagnostics.push({
        severity: "warning",
        file: rel,
        ...(line !== undefined ? { line } : {}),
        path: escapeNonAscii(problem.path),
        code: "front-matter",
        message: problem.message,
      });
    }
  }
  const sorted = sortDiagnostics(diagnostics, docs.files);
  return {
    diagnostics: sorted,
    errors: sorted.filter((d) => d.severity === "error").length,
    warnings: sorted.filter((d) => d.severity === "warning").length,
    loaded,
    docs,
  };
}

/**
 * What the loader found beyond docs.json validation: pages, and the API reference (specs,
 * operation entries). The loader's own docs.json validation is dropped (it is `docs` again,
 * without the files); API findings about docs.json get the position of their JSON path, and
 * are dropped where validation already reported an error at the same path.
 */
function loaderFindings(loaded: LoadedSite, docs: DocsJsonResult): Diagnostic[] {
  const configFiles = new Set([...docs.files, "docs.json"]);
  const errorPaths = new Set(docs.diagnostics.filter((d) => d.severity === "error" && d.path !== undefined).map((d) => d.path));
  const out: Diagnostic[] = [];
  for (const d of loaded.site.diagnostics) {
    if (!configFiles.has(d.file)) {
      out.push(d);
      continue;
    }
    if (d.code !== undefined && VALIDATION_CODES.has(d.code)) continue; // docs.json validation, repeated
    if (d.path !== undefined && errorPaths.has(d.path)) continue;
    const pos = d.path !== undefined && d.line === undefined && docs.source !== undefined ? locate(docs.source, d.path, "value") : undefined;
    const path = d.path !== undefined && docs.mint !== undefined ? { path: docs.mint.writtenAt(d.path) } : {};
    out.push({ ...d, ...(pos !== undefined ? { file: pos.file, line: pos.line, column: pos.column } : {}), ...path });
  }
  return out;
}

/** A warning per remote spec that was not fetched: its operation entries are not verified. */
function unverifiedSpecs(loaded: LoadedSite, docs: DocsJsonResult): Diagnostic[] {
  const unverified = loaded.site.api?.plan.unverified ?? [];
  if (unverified.length === 0 || docs.source?.value === undefined) return [];
  const refs = listSpecReferences(docs.source.value, docs.model);
  const out: Diagnostic[] = [];
  for (const url of unverified) {
    const naming = refs.filter((r) => r.sources.some((s) => s.source === url));
    const first = naming[0]?.sources.find((s) => s.source === url);
    // An element with operation entries has entries left unchecked; one without any would have
    // had every operation generated into it, and now has none. `api.openapi` is a default for
    // entries anywhere (and front matter), so it is about entries.
    const hasEntries = naming.some((r) => r.element === "api" || r.entries.some((e) => parseOperationEntry(e.entry) !== undefined));
    const what = hasEntries ? "the operation entries that use it are not verified" : "no API pages are generated from it";
    const pos = first !== undefined ? locate(docs.source, first.path, "value") : undefined;
    out.push({
      severity: "warning",
      file: pos?.file ?? "docs.json",
      ...(pos !== undefined ? { line: pos.line, column: pos.column } : {}),
      ...(first !== undefined ? { path: first.path } : {}),
      code: "remote-spec",
      message: `${url} is not fetched, so ${what} (--fetch-remote fetches it)`,
    });
  }
  return out;
}

/**
 * A warning per ignore file whose lines a CR alone splits (old Mac line ends): git reads a CR not
 * before an LF as part of the line, and so do the rules here (`# notes\rdrafts/` is one comment,
 * and excludes nothing), so the server keeps that reading and the author learns it here.
 */
function loneCrFindings(loaded: LoadedSite): Diagnostic[] {
  return (loaded.ignore.loneCrLines ?? []).map(({ file, line }) => ({
    severity: "warning",
    file,
    line,
    code: "ignore-file-line-ends",
    message:
      "a CR alone splits this line (old Mac line ends): git reads it as one line, and so does svc-mcp, so it is one rule, or one comment when it starts with #, and the rules written after a CR do not apply; save the file with LF line ends",
  }));
}

/** 1-based line of a top-level front matter key (`noindex: yes`), for compiler-style output. */
function frontMatterKeyLine(text: string, key: string): number | undefined {
  const lines = text.split("\n", 200);
  if (lines[0]?.trim() !== "---") return undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === "---") return undefined;
    if (line.startsWith(`${key}:`) || line.startsWith(`"${key}":`) || line.startsWith(`'${key}':`)) return i + 1;
  }
  return undefined;
}
