import type { PagePlacement } from "../config/site-config.js";

/** What the navigation pages under one folder (at any depth) say of versions and languages. */
interface FolderTally {
  /** Versions every navigation page under the folder lists; undefined once one lists none. */
  versions: Set<string> | undefined;
  languages: Set<string> | undefined;
}

/** Each navigation's folder tallies, made once per navigation map (a docs.json load makes a new one). */
const tallies = new WeakMap<ReadonlyMap<string, PagePlacement>, Map<string, FolderTally>>();

/**
 * Where a page that navigation does not list belongs, read off its folder: the versions and
 * languages that every navigation page under the nearest folder holding any lists. A site with
 * `seo.indexing: all` searches pages outside navigation, and without this such a page sat in every
 * version and language: under a `v2` filter, Stagehand's `/v3/best-practices/usecase-observe`
 * ranked 3rd (round 63). A folder whose listed pages disagree, or one of which lists no version,
 * says nothing, and the page stays in all, as before. Undefined when nothing is known: search
 * then treats the page as it always did. Breadcrumbs stay empty (navigation shows it nowhere).
 */
export function folderPlacement(navPages: ReadonlyMap<string, PagePlacement>, pagePath: string): PagePlacement | undefined {
  const byFolder = talliesOf(navPages);
  for (let folder = parentOf(pagePath); folder !== undefined; folder = parentOf(folder)) {
    const tally = byFolder.get(folder);
    if (tally === undefined) continue;
    const versions = tally.versions !== undefined && tally.versions.size > 0 ? [...tally.versions].sort() : undefined;
    const languages = tally.languages !== undefined && tally.languages.size > 0 ? [...tally.languages].sort() : undefined;
    if (versions === undefined && languages === undefined) return undefined;
    return { ...(versions !== undefined ? { versions } : {}), ...(languages !== undefined ? { languages } : {}), breadcrumbs: [] };
  }
  return undefined;
}

function talliesOf(navPages: ReadonlyMap<string, PagePlacement>): Map<string, FolderTally> {
  let byFolder = tallies.get(navPages);
  if (byFolder !== undefined) return byFolder;
  byFolder = new Map();
  for (const [path, placement] of navPages) {
    for (let folder = parentOf(path); folder !== undefined; folder = parentOf(folder)) {
      const tally = byFolder.get(folder);
      if (tally === undefined) {
        byFolder.set(folder, { versions: setOf(placement.versions), languages: setOf(placement.languages) });
        continue;
      }
      tally.versions = meet(tally.versions, placement.versions);
      tally.languages = meet(tally.languages, placement.languages);
    }
  }
  tallies.set(navPages, byFolder);
  return byFolder;
}

/** `/a/b/c` -> `/a/b` -> `/a`; the root folder is not one (it holds every version's pages). */
function parentOf(path: string): string | undefined {
  const cut = path.lastIndexOf("/");
  return cut > 0 ? path.slice(0, cut) : undefined;
}

function setOf(names: readonly string[] | undefined): Set<string> | undefined {
  return names === undefined ? undefined : new Set(names);
}

/** The names both say; undefined (nothing known) once either lists none. */
function meet(kept: Set<string> | undefined, names: readonly string[] | undefined): Set<string> | undefined {
  if (kept === undefined || names === undefined) return undefined;
  const listed = new Set(names);
  for (const name of kept) if (!listed.has(name)) kept.delete(name);
  return kept;
}
