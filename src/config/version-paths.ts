import type { PagePlacement } from "./site-config.js";
import type { VersionPath } from "./version-path.js";

/**
 * Each version's path segment, derived from the pages navigation lists under it only, never from
 * its label (`Version 2025-06-18 (latest)` lists `/docs/2025-06-18/...`). The segment is at the
 * first depth where the versions' pages part ways: at the depths before it, every version's pages
 * mostly share one segment (`docs`); at that depth, each version's most common segment covers
 * more than half its pages, and no two versions have the same one. One version may instead live
 * at that depth itself, beside the others' folders (the latest at the root, older ones under
 * `/v3/...`, as fastmcp and many versioned sites do): it gets no entry, and the others keep
 * theirs, when its pages' paths repeat the rests of another version's pages (`/servers/x` beside
 * `/v3/servers/x`). A segment that is a folder inside another version's pages (`python-sdk` in
 * `/v2/python-sdk/...`) is content, never a version's folder, even where most of the root
 * version's pages are in it. Versions without pages of their own, and sites where no such depth
 * exists (one version, or versions whose pages do not follow a path scheme), get no entry. For
 * the search side: a page under a version's prefix and one under another's with the same rest are
 * the same page in two versions. `scopeOf` reads another kind of branch the same way (products:
 * `/cloud/...`, `/self-host/...`).
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
    const segments = modes.map((m) => (m !== undefined && m.share > 0.5 ? m.segment : undefined));
    if (segments.every((s) => s !== undefined) && new Set(segments).size === 1) {
      shared.push(segments[0] as string);
      continue;
    }
    // A version's segment that is a folder in another version's pages is content (`python-sdk`).
    present.forEach((v, i) => {
      const segment = segments[i];
      if (segment !== undefined && present.some((other, j) => j !== i && foldersBelow(byVersion.get(other) as string[][], depth, segment) >= 2)) segments[i] = undefined;
    });
    // Each version's pages against the others' rests (what follows their segments): more of its
    // pages repeating a rest from this depth itself than from below its own segment means it lives
    // here, and its most common folder is content (the root version's API reference).
    const rests = present.map((v, i) => restsUnder(byVersion.get(v) as string[][], depth, segments[i]));
    const rooted: string[] = [];
    present.forEach((v, i) => {
      const others = rests.filter((_, j) => j !== i);
      const repeats = (rest: string): boolean => others.some((r) => r.has(rest));
      let here = 0;
      let below = 0;
      for (const p of byVersion.get(v) as string[][]) {
        if (segments[i] !== undefined && p[depth] === segments[i]) {
          if (repeats(p.slice(depth + 1).join("/"))) below++;
        } else if (p.length > depth && repeats(p.slice(depth).join("/"))) here++;
      }
      if (segments[i] === undefined ? here === 0 : here <= below) return;
      segments[i] = undefined;
      rooted.push(v);
    });
    const foldered = segments.filter((s) => s !== undefined);
    if (rooted.length > 1 || foldered.length === 0 || foldered.length + rooted.length < present.length || new Set(foldered).size !== foldered.length) return out;
    // Beside a version at this depth, the others' folders must name them (`v3`, `2.x`, `legacy`
    // of `Legacy`): a folder a newer version's pages moved to (spree's `developer/dashboard/` in
    // v6.x) repeats rests too, and is content.
    if (rooted.length === 1 && present.some((v, i) => segments[i] !== undefined && !namesVersion(segments[i] as string, v))) return out;
    present.forEach((v, i) => {
      const segment = segments[i];
      if (segment !== undefined) out.set(v, { segment, prefix: `/${[...shared, segment].join("/")}` });
    });
    return out;
  }
}

/** Whether a folder's name could name a version: it has a digit, or is a word of the label. */
function namesVersion(segment: string, label: string): boolean {
  if (/\d/.test(segment)) return true;
  const words = label.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return words.includes(segment.toLowerCase());
}

/** The rests of a version's pages under its segment at `depth` (`servers/x` of `/v3/servers/x`). */
function restsUnder(paths: readonly (readonly string[])[], depth: number, segment: string | undefined): Set<string> {
  const out = new Set<string>();
  if (segment === undefined) return out;
  for (const p of paths) if (p[depth] === segment) out.add(p.slice(depth + 1).join("/"));
  return out;
}

/** How many of a version's pages have `segment` as a folder deeper than `depth`. */
function foldersBelow(paths: readonly (readonly string[])[], depth: number, segment: string): number {
  let n = 0;
  for (const p of paths) if (p.indexOf(segment, depth + 1) >= 0 && p.indexOf(segment, depth + 1) < p.length - 1) n++;
  return n;
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
