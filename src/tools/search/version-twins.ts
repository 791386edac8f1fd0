import type { PagePlacement } from "../../config/site-config.js";
import type { Page } from "../../vfs/site.js";

/** A ranked candidate before it becomes a hit. */
export interface Candidate {
  readonly entry: { readonly page: Page; readonly placement: PagePlacement | undefined };
  readonly score: number;
}

/**
 * Fold the same page in several versions into one hit. Versioned sites copy pages per version
 * (`/developer/orders` in v5.x, `/v6/developer/orders` in v6.x): unfiltered, both match alike
 * and fill the results with near-duplicates an agent cannot tell apart. Two candidates are the
 * same page when their paths are equal once segments naming their own version are dropped
 * (`v6` for `v6.x`), or when they have the same title and body; and only when their versions
 * do not overlap and their languages are the same. A group is one hit, at its own rank and
 * score, carrying the others as `otherVersions`: the default version's page when it scores within
 * `tolerance` of the group's best, else the best. `ranked` is sorted best first; so is the result.
 */
export function foldVersionTwins<C extends Candidate>(ranked: readonly C[], defaultVersion: string, tolerance: number): (C & { twins: C[] })[] {
  const groups: C[][] = [];
  const groupOf = new Map<C, C[]>();
  const byKey = new Map<string, C[][]>();
  for (const c of ranked) {
    const versions = c.entry.placement?.versions;
    if (versions === undefined) {
      groupOf.set(c, [c]);
      continue;
    }
    const languages = String(c.entry.placement?.languages);
    const keys = [`p\u0000${languages}\u0000${versionFreePath(c.entry.page.path, versions)}`, `t\u0000${languages}\u0000${c.entry.page.title}\u0000${c.entry.page.body}`];
    const disjoint = (g: C[]): boolean => g.every((m) => !(m.entry.placement?.versions ?? []).some((v) => versions.includes(v)));
    let group = keys.flatMap((k) => byKey.get(k) ?? []).find(disjoint);
    if (group === undefined) {
      group = [];
      groups.push(group);
    }
    group.push(c);
    groupOf.set(c, group);
    for (const k of keys) byKey.set(k, [...(byKey.get(k) ?? []), group]);
  }
  const out: (C & { twins: C[] })[] = [];
  for (const c of ranked) {
    const group = groupOf.get(c) as C[];
    const best = group[0] as C;
    const inDefault = group.find((m) => m.entry.placement?.versions?.includes(defaultVersion) === true);
    const representative = inDefault !== undefined && inDefault.score >= best.score - tolerance ? inDefault : best;
    if (representative === c) out.push({ ...c, twins: group.filter((m) => m !== c) });
  }
  return out;
}

/** `v6`, `V6.x`, `6.x` and `6` name one version: case, a leading `v` and a trailing `.x` aside. */
export function versionKey(v: string): string {
  return v.trim().toLowerCase().replace(/^v(?=\d)/, "").replace(/\.(x|\*)$/, "");
}

/** A page path without the segments that name one of its versions (`/v6/a/b` in v6.x -> `/a/b`). */
function versionFreePath(path: string, versions: readonly string[]): string {
  const keys = new Set(versions.map(versionKey));
  return path
    .split("/")
    .filter((seg) => seg === "" || !keys.has(versionKey(seg)))
    .join("/");
}
