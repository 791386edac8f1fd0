import type { PagePlacement } from "../../config/site-config.js";

/** The key of a placement without versions (or languages): in every one. */
const EVERY = "";

/**
 * How many page units a search's version and language filters keep (`SearchIndex.expectedWork`),
 * counted once per change of the index, so that no filter costs a pass over the units: a pass per
 * filter (~20 ms at 24,920 pages, loaded) was made before a search whose filter was not kept,
 * ahead of its turn, where nothing orders it. A unit is in a filter's scope when its placement
 * lists the filter's version or lists none, and likewise its language (`inScope` in
 * `search-index.ts`): each unit is tallied once under each version and language it lists (or
 * `EVERY`), alone and in pairs, and a filter's count is the sum of the at most four tallies it
 * keeps. Each page has its own placement object, so they are not grouped by object (~40-110 ms
 * by their JSON text at 24,920 pages, loaded).
 */
export class ScopeSizes {
  private readonly byVersion = new Map<string, number>();
  private readonly byLanguage = new Map<string, number>();
  /** By version, then language. */
  private readonly byBoth = new Map<string, Map<string, number>>();
  /** Every live unit. */
  readonly live: number;

  constructor(placements: Iterable<Pick<PagePlacement, "versions" | "languages"> | undefined>) {
    let live = 0;
    for (const p of placements) {
      live++;
      const versions = distinct(p?.versions);
      const languages = distinct(p?.languages);
      for (const v of versions) add(this.byVersion, v);
      for (const l of languages) add(this.byLanguage, l);
      for (const v of versions) {
        let of = this.byBoth.get(v);
        if (of === undefined) this.byBoth.set(v, (of = new Map()));
        for (const l of languages) add(of, l);
      }
    }
    this.live = live;
  }

  /** The units a search filtered to `version` and `language` (either undefined: any) may rank. */
  count(version: string | undefined, language: string | undefined): number {
    if (version === undefined && language === undefined) return this.live;
    if (language === undefined) return (this.byVersion.get(version as string) ?? 0) + (this.byVersion.get(EVERY) ?? 0);
    if (version === undefined) return (this.byLanguage.get(language) ?? 0) + (this.byLanguage.get(EVERY) ?? 0);
    let n = 0;
    for (const v of [version, EVERY]) for (const l of [language, EVERY]) n += this.byBoth.get(v)?.get(l) ?? 0;
    return n;
  }
}

/** A placement's versions or languages, each once; `EVERY` when it lists none. */
function distinct(listed: readonly string[] | undefined): readonly string[] {
  if (listed === undefined) return [EVERY];
  return listed.length > 1 ? [...new Set(listed)] : listed;
}

function add(tally: Map<string, number>, key: string): void {
  tally.set(key, (tally.get(key) ?? 0) + 1);
}
