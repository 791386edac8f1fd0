import type { PagePlacement } from "../../config/site-config.js";
import type { Page } from "../../vfs/site.js";

/** A ranked candidate before it becomes a hit. */
export interface Candidate {
  readonly entry: { readonly placement: PagePlacement | undefined; readonly twinKeys: readonly string[] | undefined };
  readonly score: number;
}

/**
 * What makes two pages the same page in different versions (see `foldVersionTwins`), computed
 * once when a page is indexed: its path without segments naming its versions, and its title and
 * text (by a hash: comparing bodies per query would cost more than ranking), each with its
 * languages. Undefined for a page under no version.
 */
export function twinKeys(page: Page, placement: PagePlacement | undefined): readonly string[] | undefined {
  const versions = placement?.versions;
  if (versions === undefined) return undefined;
  const languages = String(placement?.languages);
  return [`p\u0000${languages}\u0000${versionFreePath(page.path, versions)}`, `t\u0000${languages}\u0000${page.title}\u0000${page.body.length}\u0000${hash(page.body)}`];
}

/** 32-bit FNV-1a of a string's UTF-16 units: equal texts, equal hashes; a collision also needs
 *  the same title, length and languages to fold two pages. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
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
    const keys = c.entry.twinKeys;
    if (versions === undefined || keys === undefined) {
      groupOf.set(c, [c]);
      continue;
    }
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
