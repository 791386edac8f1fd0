import type { Diagnostic } from "../config/diagnostic.js";
import type { PageFiles } from "../config/docs-json/rules/rule.js";
import type { IgnoreRules } from "../config/ignore-rule-set.js";
import { isFileInsideRoot, LINK_CODES, NO_IGNORE_RULES } from "../config/inside-root.js";
import type { Site } from "./site.js";

/** Codes of the loader's own findings (`svc-mcp check --json`; listed in docs/docs-json.md). */
export const LOAD_CODES = {
  /** A page file that is not served: too big, unreadable, invalid front matter. */
  pageSkipped: "page-skipped",
  /** `a.md` beside `a.mdx`: the MDX file is the page. */
  pageTwoFiles: "page-two-files",
  /** A spec file over the size limit, not mounted. */
  specSize: "spec-size",
  /** A spec file that cannot be read. */
  specRead: "spec-read",
  /** docs.json gone while serving: the last good configuration keeps serving. */
  docsJsonMissing: "docs-json-missing",
  /** A file docs.json `$ref`s broken while serving: the last good configuration keeps serving. */
  configRefBroken: "config-ref-broken",
  /** An ignore file broken while serving: the last good ignore rules keep applying. */
  ignoreFileBroken: "ignore-file-broken",
  /** An ignore file gone while serving: its last good rules keep applying until restart. */
  ignoreFileMissing: "ignore-file-missing",
  /** An ignore file that had content emptied while serving: its last good rules keep applying until it has content again. */
  ignoreFileEmpty: "ignore-file-empty",
  /** docs.json names no site: the name it was served under stays. */
  nameKept: "name-kept",
} as const;

/**
 * What the docs.json rules may ask about a loaded repository: the file of a page path (`/x` is
 * also `x/index.mdx`), whether an ignore file left a page out, and whether a file exists.
 */
export function pageFilesOf(site: Site, ignore?: IgnoreRules): PageFiles {
  const pageOf = (pagePath: string) => site.pages.get(pagePath) ?? site.pages.get(pagePath === "/" ? "/index" : `${pagePath}/index`);
  return {
    fileOf: (pagePath) => {
      const page = pageOf(pagePath);
      return page === undefined || page.generated ? undefined : page.file.path.slice(1);
    },
    ignoredFileOf: (pagePath) => {
      if (ignore === undefined) return undefined;
      const base = pagePath.slice(1);
      for (const candidate of [`${base}.mdx`, `${base}.md`, `${base}/index.mdx`, `${base}/index.md`]) {
        // Whether the excluded file is there, to say so: it is not read.
        if (ignore.ignores(candidate) && isFileInsideRoot(site.root, candidate, NO_IGNORE_RULES)) return { file: candidate, by: ignore.excludedBy?.(candidate) };
      }
      return undefined;
    },
    skippedFileOf: (pagePath) => {
      const base = pagePath.slice(1);
      const candidates = [`${base}.mdx`, `${base}.md`, `${base}/index.mdx`, `${base}/index.md`];
      // The loader's own skip, or a link it did not follow to this file.
      const d = site.diagnostics.find((x) => candidates.includes(x.file) && x.skipped !== undefined);
      if (d?.skipped !== undefined) return { file: d.file, why: d.line !== undefined ? `line ${d.line}: ${d.skipped}` : d.skipped };
      // A page under a folder link, which the load does not follow.
      const isLink = (x: Diagnostic): boolean => (LINK_CODES as readonly string[]).includes(x.code);
      const folder = site.diagnostics.find((x) => isLink(x) && base.startsWith(`${x.file}/`));
      return folder === undefined ? undefined : { file: folder.file, why: folder.skipped ?? folder.message };
    },
    exists: (relPath) => isFileInsideRoot(site.root, relPath, NO_IGNORE_RULES),
  };
}
