import { parseFrontMatter } from "../../../src/config/frontmatter.js";
import { readPageMeta, titleFromPath } from "../../../src/config/page-meta.js";
import { readSiteConfig } from "../../../src/config/read-site-config.js";
import { emptySiteConfig, type SiteConfig } from "../../../src/config/site-config.js";
import { pageOfFile, placePage } from "../../../src/vfs/page-routes.js";
import { pagePathOf, type Site } from "../../../src/vfs/site.js";
import type { Page } from "../../../src/vfs/page.js";
import { makeFile } from "../../../src/vfs/site-file.js";

/** A page object as the loader builds it, from a path and the file's text. */
export function makePage(filePath: string, text: string): Page {
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) throw new Error(parsed.message);
  const meta = readPageMeta(parsed.data);
  const path = pagePathOf(filePath);
  return {
    file: makeFile(filePath, text, { ...(meta.groups !== undefined ? { groups: meta.groups } : {}), ...(meta.public === true ? { public: true } : {}) }, new Date(0)),
    path,
    title: meta.title ?? titleFromPath(path),
    meta,
    frontMatter: parsed.data,
    body: parsed.body,
    bodyLine: parsed.bodyLine,
    generated: false,
  };
}

/**
 * A site snapshot built in memory: `files` maps file paths (`/guides/a.mdx`) to text, `docs` is
 * docs.json (omit it for a repository without one, where every page is indexed). Pass
 * `reuse` to keep the Page objects of an earlier snapshot for unchanged files, as the loader does.
 */
export function inlineSite(files: Record<string, string>, docs?: unknown, reuse?: Site): Site {
  const pages = new Map<string, Page>();
  // `a.mdx` beside `a.md`: the loader's rule (`page-routes.ts`).
  const shadowed = new Map<string, Page[]>();
  const all: Page[] = [];
  for (const [path, text] of Object.entries(files)) {
    const old = reuse === undefined ? undefined : pageOfFile(reuse, pagePathOf(path), path);
    const page = old !== undefined && old.file.text === text ? old : makePage(path, text);
    all.push(page);
    placePage(pages, shadowed, page);
  }
  const config = docs === undefined ? emptySiteConfig("test") : configOf(docs);
  return {
    root: "/nonexistent",
    config,
    files: new Map(all.map((p) => [p.file.path, p.file])),
    pages,
    ...(shadowed.size > 0 ? { shadowed } : {}),
    diagnostics: [],
  };
}

/** docs.json read once per object: an edit of pages alone keeps the configuration object, as the
 *  loader's page reload does (what `SearchIndex.sync` keeps its reader branches by). */
const configs = new WeakMap<object, SiteConfig>();
function configOf(docs: unknown): SiteConfig {
  if (docs === null || typeof docs !== "object") return readSiteConfig(docs, "test");
  let config = configs.get(docs);
  if (config === undefined) configs.set(docs, (config = readSiteConfig(docs, "test")));
  return config;
}
