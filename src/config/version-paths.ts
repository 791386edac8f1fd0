import type { PagePlacement } from "./site-config.js";
import type { VersionPath } from "./version-path.js";

/**
 * Each version's path segment, derived from the pages navigation lists under it only, never from
 * its label (`Version 2025-06-18 (latest)` lists `/docs/2025-06-18/...`). The segment is at the
 * first depth where the versions' pages part ways: at the depths before it, every version's pages
 * mostly share one segment (`docs`); at that depth, each version's most common segment covers
 * more than half its pages, and no two versions have the same one. Versions without pages of their
 * own, and sites where no such depth exists (one version, or versions whose pages do not follow
 * a path scheme), get no entry. For the search side: a page under a version's prefix and one
 * under another's with the same rest are the same page in two versions. `scopeOf` reads another
 * kind of branch the same way (products: `/cloud/...`, `/self-host/...`).
 */
export function versionPaths(
  navPages: ReadonlyMap<string, PagePlacement>,
  versions: readonly string[],
  scopeOf: (placement: PagePlacement) => readonly string[] | undefined = (p) => p.versions,
): Map<string, VersionPath> {
  const byVersion = new Map<string, string[][]>();
  for (const [path, placement] of navPages) {
    // A page in several versions (or in all) says nothing about where one version lives.
    const scope = scopeOf(placement);
    if (scope?.length !== 1) continue;
    const v = scope[0] as string;
    const list = byVersion.get(v) ?? [];
    list.push(path.split("/").filter((s) => s !== ""));
    byVersion.set(v, list);
  }
  const present = versions.filter((v) => (byVersion.get(v)?.length ?? 0) > 0);
  const out = new Map<string, VersionPath>();
  if (present.length < 2) return out;
  const shared: string[] = [];
  for (let depth = 0; ; depth++) {
    const modes = present.map((v) => mostCommon(byVersion.get(v) as string[][], depth));
    if (modes.some((m) => m === undefined || m.share <= 0.5)) return out;
    const segments = modes.map((m) => (m as { segment: string }).segment);
    if (new Set(segments).size === 1) {
      shared.push(segments[0] as string);
      continue;
    }
    if (new Set(segments).size !== segments.length) return out;
    present.forEach((v, i) => {
      const segment = segments[i] as string;
      out.set(v, { segment, prefix: `/${[...shared, segment].join("/")}` });
    });
    return out;
  }
}

/** The most common segment at a depth among paths, and the share of paths that have it. */
function mostCommon(paths: readonly (readonly string[])[], depth: number): { segment: string; share: number } | undefined {
  const counts = new Map<string, number>();
  for (const p of paths) {
    // The last segment is the page itself, never a folder a version lives in.
    if (p.length <= depth + 1) continue;
    const s = p[depth] as string;
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  let best: { segment: string; share: number } | undefined;
  for (const [segment, n] of counts) if (best === undefined || n / paths.length > best.share) best = { segment, share: n / paths.length };
  return best;
}
