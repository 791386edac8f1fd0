import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PageFiles } from "../config/docs-json/rules/rule.js";
import type { IgnoreRules } from "../config/ignore-rules.js";
import type { Site } from "./site.js";

/** How the loader's message about a page file it could not serve starts (see `readPage`). */
export const SKIPPED = "skipped: ";

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
        if (ignore.ignores(candidate) && existsSync(join(site.root, candidate))) return candidate;
      }
      return undefined;
    },
    skippedFileOf: (pagePath) => {
      const base = pagePath.slice(1);
      const candidates = [`${base}.mdx`, `${base}.md`, `${base}/index.mdx`, `${base}/index.md`];
      const d = site.diagnostics.find((x) => candidates.includes(x.file) && x.message.startsWith(SKIPPED));
      if (d === undefined) return undefined;
      const why = d.message.slice(SKIPPED.length);
      return { file: d.file, why: d.line !== undefined ? `line ${d.line}: ${why}` : why };
    },
    exists: (relPath) => {
      try {
        return statSync(join(site.root, relPath)).isFile();
      } catch {
        return false;
      }
    },
  };
}
