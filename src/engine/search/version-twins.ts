import type { PagePlacement, SiteConfig } from "../../config/site-config.js";
import type { VersionPath } from "../../config/version-path.js";
import { versionPaths } from "../../config/version-paths.js";
import { type FolderShape, TwinKeys } from "./twin-keys.js";

/**
 * The same page in several versions (or products), folded into one hit. Versioned sites copy
 * pages per version (`/v4/basics/act`, `/v3/basics/act`; `/docs/2025-06-18/x`,
 * `/docs/2025-03-26/x`), products copy them per edition (Cloud / Self-host): unfiltered, the
 * copies match alike and fill the results with near-duplicates an agent cannot tell apart.
 */

/** Where each version's and product's pages live, derived from navigation once per site. */
export interface TwinRules {
  readonly versions: ReadonlyMap<string, VersionPath>;
  readonly products: ReadonlyMap<string, VersionPath>;
  /** Whether copies in other languages are twins too (a search without a language filter): then
   *  a page's place is its path without its language segment (`/v2/ko/x` -> `/v2/x`). */
  readonly languages: boolean;
  /** Twin keys as numbers (`TwinInfo.ids`), given out as the rules' units are described: equal
   *  keys get one number, so folding compares numbers, not strings. */
  readonly keys: TwinKeys;
}

/**
 * The twin rules of a reader: path segments of versions and products (`versionPaths`), derived
 * from the navigation pages `visible` keeps (the reader's): where restricted pages sit must not
 * change how the pages a reader may read fold (it would tell that they exist).
 */
export function twinRules(config: Pick<SiteConfig, "navPages" | "versions">, visible: (path: string) => boolean = () => true, languages = false): TwinRules {
  // Across languages, versions and products live where they do once the language segment is
  // dropped: dify's `/en/cloud`, `/zh/cloud` are one product path, `/cloud`.
  const cut = languages ? languageCutter() : undefined;
  const navPages = new Map([...config.navPages].filter(([path]) => visible(path)).map(([path, p]) => [cut !== undefined ? cut(path, p.languages) : path, p]));
  const products = new Set<string>();
  for (const p of navPages.values()) for (const name of p.products ?? []) products.add(name);
  return {
    versions: versionPaths(navPages, config.versions),
    products: versionPaths(navPages, [...products], (p) => p.products),
    languages,
    keys: new TwinKeys(),
  };
}

/**
 * What tells a page unit's twins, computed once when the unit is indexed. Its keys are strings
 * (`twinInfo`), kept as their numbers only: equal numbers are equal strings.
 */
export interface TwinInfo {
  /** A bottom-k sketch of the unit's word triples (sorted ascending), for near-identical text. */
  readonly sketch: Uint32Array;
  /**
   * The numbers of its keys in its rules (`TwinRules.keys`). `keys`: its path with the segment
   * naming its version (product) dropped, with its languages (equal keys are the same page), and
   * first, when the rules fold languages, its path less its language (`l`). `title`: its title
   * and languages (twins by text need equal ones). `cls`: its path with the segments naming its
   * version (product) and, when the rules fold languages, its language dropped: the copies of one
   * page in every branch share it. Ranking counts its top by these (`rankPages`' classes), so
   * that 35 versions of one page take one place in it.
   */
  readonly ids: { readonly keys: readonly number[]; readonly title: number; readonly cls: number };
  /** The number of its key across languages (the `l` key, `keys[0]`), or -1 when the rules do not fold languages. */
  readonly language: number;
}

/** How many of the smallest word-triple hashes a sketch keeps: enough to tell 0.6 Jaccard from
 *  0.9 within a few hundredths, small enough to compare 20 candidates pairwise per query. */
const SKETCH_SIZE = 48;
/** Share of word triples two same-titled pages must share to be one page (estimated Jaccard):
 *  copies differing in versioned links and a few edits share ~0.8-1, distinct pages far less. */
export const TWIN_SIMILARITY = 0.6;

/**
 * The twin information of a page unit under a version or product, or undefined under neither
 * (a page in every version has no twin). `sketch` is the unit's `sketchOf`; the rest is made
 * per query from the current rules, so a navigation change needs no re-indexing.
 */
export function twinInfo(path: string, title: string, placement: PagePlacement | undefined, sketch: Uint32Array, rules: TwinRules): TwinInfo | undefined {
  const byLanguage = rules.languages && placement?.languages !== undefined;
  if (placement?.versions === undefined && placement?.products === undefined && !byLanguage) return undefined;
  const numbers = rules.keys;
  // Each unit of a site at its first fold (25,000 on a site of 35 versions x 4 languages): the
  // keys of a folder's pages are made once (`FolderShape`), a page's numbered by its file name.
  const cut = path.lastIndexOf("/");
  if (cut >= 0) {
    const folder = path.slice(0, cut + 1);
    const shape = numbers.shapeOf(folder, placement, () => folderShape(folder, placement, rules, byLanguage));
    const name = path.slice(cut + 1);
    if (shape?.isOrdinary(name) === true) {
      const keys = shape.keys.map((head) => numbers.of(head, name));
      return { sketch, ids: { keys, title: numbers.titleId(shape.languageText, title), cls: numbers.of(shape.cls, name) }, language: shape.language < 0 ? -1 : (keys[shape.language] as number) };
    }
  }
  const texts = keyTexts(path, placement, rules, byLanguage);
  const keys = texts.keys.map((text) => numbers.id(text));
  return { sketch, ids: { keys, title: numbers.titleId(texts.languages, title), cls: numbers.id(texts.cls) }, language: byLanguage ? (keys[0] as number) : -1 };
}

/** A page unit's twin keys as texts, for tests: what `twinInfo`'s numbers stand for (equal numbers, equal texts). */
export function twinKeyTexts(path: string, title: string, placement: PagePlacement | undefined, rules: TwinRules): { keys: string[]; title: string; cls: string } {
  const byLanguage = rules.languages && placement?.languages !== undefined;
  const texts = keyTexts(path, placement, rules, byLanguage);
  return { keys: texts.keys, title: `t\u0000${texts.languages}\u0000${title}`, cls: texts.cls };
}

/** A file name no language, version or product is named: a folder's keys are made with it (`folderShape`), and end with it. */
const PROBE = "\u0000";

/**
 * The keys of a page's twins as texts (`TwinInfo.ids`): its keys, distinct, with the `l` key
 * first when `byLanguage`; its class key; and its languages as the keys write them.
 */
function keyTexts(path: string, placement: PagePlacement | undefined, rules: TwinRules, byLanguage: boolean): { keys: string[]; cls: string; languages: string } {
  const languages = String(placement?.languages);
  const keys: string[] = [];
  let classKey: string | undefined;
  if (byLanguage) {
    // One key for the copies in every language at one place (in one version): its path, less its language.
    path = withoutLanguage(path, placement?.languages);
    keys.push(`l\u0000${path}`);
  }
  const add = (kind: string, rest: string | undefined): void => {
    if (rest === undefined) return;
    // With the language: a copy in another language is found by the `l` key alone, in its own
    // version, so a top page brings its 3 translations, not 3 × 35 versions to score (crewAI).
    const key = `${kind}\u0000${languages}\u0000${rest}`;
    if (!keys.includes(key)) keys.push(key);
    classKey ??= `${kind}\u0000${byLanguage ? "" : languages}\u0000${rest}`;
  };
  const versions = placement?.versions;
  if (versions !== undefined) {
    for (const name of versions) add("v", placeIn(path, name, rules.versions));
    // Label-named segments too (`/v6/...` in `v6.x`): a site whose versions share no path
    // scheme (spree: v5.x at the root, v6.x under `/v6`) still has them.
    add("v", withoutNamedSegments(path, versions));
  }
  const products = placement?.products;
  if (products !== undefined) for (const name of products) add("p", placeIn(path, name, rules.products));
  return { keys, cls: classKey ?? keys[0] ?? `u\u0000${path}`, languages };
}

/**
 * The keys of pages in `folder` with `placement`, made with the file name `PROBE`: path keys
 * drop whole segments (a language's, a version's) or a prefix of whole segments (`withoutPrefix`),
 * so a page whose file name is none of those has the same keys with its name for `PROBE`.
 * Undefined when some key does not end with the file name (then each page's keys are made whole).
 */
function folderShape(folder: string, placement: PagePlacement | undefined, rules: TwinRules, byLanguage: boolean): FolderShape | undefined {
  const probe = keyTexts(folder + PROBE, placement, rules, byLanguage);
  const end = `/${PROBE}`;
  if (![...probe.keys, probe.cls].every((text) => text.endsWith(end))) return undefined;
  const languageNames = byLanguage ? namesOf(placement?.languages ?? [], lowerCase) : undefined;
  // A language named across segments could take in the file name.
  if ([...(languageNames ?? [])].some((name) => name.includes("/"))) return undefined;
  const versionKeys = placement?.versions !== undefined ? namesOf(placement.versions, versionKey) : undefined;
  const isOrdinary = (name: string): boolean => {
    if (name === "") return false;
    if (languageNames !== undefined) {
      // Lower-casing that changes the length (`İ`) changes how `withoutLanguage` cuts.
      const lower = name.toLowerCase();
      if (lower.length !== name.length || languageNames.has(lower)) return false;
    }
    return versionKeys === undefined || !versionKeys.has(segmentKey(name));
  };
  if (!isOrdinary(PROBE)) return undefined;
  const numbers = rules.keys;
  const headOf = (text: string): Map<string, number> => numbers.head(text.slice(0, text.length - PROBE.length));
  return {
    versions: placement?.versions,
    languages: placement?.languages,
    products: placement?.products,
    usable: true,
    keys: probe.keys.map(headOf),
    cls: headOf(probe.cls),
    language: byLanguage ? 0 : -1,
    languageText: probe.languages,
    isOrdinary,
  };
}

/** A page's path without the segment naming its language (`/v2/ko/x` -> `/v2/x`, `/fr/x` -> `/x`):
 *  the first segment equal to one of its languages, case aside. */
export function withoutLanguage(path: string, languages: readonly string[] | undefined): string {
  if (languages === undefined) return path;
  // Found in the lower-cased path at segment boundaries rather than by splitting it: done for
  // every page unit of a site at its first search (25,000 on crewAI's shape).
  const lower = `/${path.toLowerCase()}`;
  // Lower-casing that changes the length (`İ`) would misplace the cut: split the path then.
  if (lower.length !== path.length + 1) return withoutLanguageSegment(path, namesOf(languages, lowerCase));
  let at = -1;
  let length = 0;
  for (const name of namesOf(languages, lowerCase)) {
    if (name === "") continue;
    for (let i = lower.indexOf(`/${name}`); i >= 0 && (at < 0 || i < at); i = lower.indexOf(`/${name}`, i + 1)) {
      const after = i + 1 + name.length;
      if (after === lower.length || lower[after] === "/") {
        at = i;
        length = name.length + 1;
        break;
      }
    }
  }
  if (at < 0) return path;
  // `lower` has one character more than `path` in front.
  const out = `/${path}`.slice(0, at) + `/${path}`.slice(at + length);
  return (path.startsWith("/") ? out.slice(1) : out.replace(/^\//, "")) || "/";
}

/**
 * `withoutLanguage`, its folders' answers kept: the navigation pages of a site of 35 versions in
 * four languages (25,000) sit in a few thousand folders, and each reader class's twin rules cut
 * every one (issue 22: a tenth of the time before a warm start's first search). The first
 * language segment of a path is its folder's when its folder holds one (then the file name
 * stays), else its file name if that is one; anything unusual is cut whole by `withoutLanguage`.
 */
export function languageCutter(): (path: string, languages: readonly string[] | undefined) => string {
  /** By set of names: whether they can be cut this way, and each folder's cut (null: none). */
  const byNames = new Map<ReadonlySet<string>, { readonly usable: boolean; readonly folders: Map<string, string | null | undefined> }>();
  return (path, languages) => {
    if (languages === undefined) return path;
    const names = namesOf(languages, lowerCase);
    let known = byNames.get(names);
    if (known === undefined) {
      // A name that could reach across a segment or match the probe.
      const usable = ![...names].some((name) => name.includes("/") || name.includes(PROBE));
      byNames.set(names, (known = { usable, folders: new Map() }));
    }
    const at = path.lastIndexOf("/");
    const name = path.slice(at + 1);
    const lowerName = name.toLowerCase();
    // Lower-casing that changes a length (`withoutLanguage` then splits the path), no folder, no name.
    if (!known.usable || at < 0 || name === "" || lowerName.length !== name.length) return withoutLanguage(path, languages);
    const folder = path.slice(0, at + 1);
    let cut = known.folders.get(folder);
    if (cut === undefined) {
      // The folder's cut, made with a file name no language is (`PROBE`); undefined (not kept):
      // a folder whose lower-casing changes its length.
      const probe = folder + PROBE;
      const probed = folder.toLowerCase().length === folder.length ? withoutLanguage(probe, languages) : undefined;
      cut = probed === undefined ? undefined : probed === probe ? null : probed.slice(0, probed.length - PROBE.length);
      if (cut === undefined) return withoutLanguage(path, languages);
      known.folders.set(folder, cut);
    }
    if (cut !== null) return cut + name;
    return names.has(lowerName) ? withoutLanguage(path, languages) : path;
  };
}

/** `withoutLanguage` by splitting the path into segments. */
function withoutLanguageSegment(path: string, names: ReadonlySet<string>): string {
  const segments = path.split("/");
  const at = segments.findIndex((seg) => seg !== "" && names.has(seg.toLowerCase()));
  return at < 0 ? path : [...segments.slice(0, at), ...segments.slice(at + 1)].join("/") || "/";
}

/** One function, not an arrow per call: `namesOf` keeps its sets by the function (an arrow per
 *  call made a new table per page unit, never reused and never let go). */
function lowerCase(name: string): string {
  return name.toLowerCase();
}

/** Sets of names as compared (`normal`), made once per list of names and kind: a site's 25,000
 *  page units hold a few hundred lists between them, and twin rules are made for all at once. */
const nameSets = new Map<(n: string) => string, Map<string, ReadonlySet<string>>>();
function namesOf(names: readonly string[], normal: (n: string) => string): ReadonlySet<string> {
  let byList = nameSets.get(normal);
  if (byList === undefined) nameSets.set(normal, (byList = new Map()));
  const key = names.join("\u0000");
  let set = byList.get(key);
  if (set === undefined) {
    // Bounded: lists come from sites' navigation; a server serving many sites over time starts over.
    if (byList.size >= 10_000) byList.clear();
    byList.set(key, (set = new Set(names.map(normal))));
  }
  return set;
}

/**
 * A page's place in a branch's scheme: its rest after the branch's prefix (`withoutPrefix`); for
 * the one branch that lives beside the others' folders (`versionPaths`: the latest at the root),
 * its path after their shared folders, when it is under none of theirs (`/servers/x` in the
 * latest is the place of `/v3/servers/x` in v3).
 */
function placeIn(path: string, name: string, paths: ReadonlyMap<string, VersionPath>): string | undefined {
  const at = paths.get(name);
  if (at !== undefined || paths.size === 0) return withoutPrefix(path, at);
  let shared: string | undefined;
  for (const other of paths.values()) {
    if (path.startsWith(`${other.prefix}/`)) return undefined;
    shared ??= other.prefix.slice(0, other.prefix.length - other.segment.length);
  }
  return shared !== undefined && path.startsWith(shared) ? `${shared}\u0000${path.slice(shared.length - 1)}` : undefined;
}

/** The rest of a path after a version's prefix (`/v3/basics/act` -> `/basics/act`), or
 *  undefined when it is not under it. */
function withoutPrefix(path: string, at: VersionPath | undefined): string | undefined {
  if (at === undefined || !path.startsWith(`${at.prefix}/`)) return undefined;
  const shared = at.prefix.slice(0, at.prefix.length - at.segment.length);
  return `${shared}\u0000${path.slice(at.prefix.length)}`;
}

/** A page path without the segments that name one of its versions (`/v6/a/b` in v6.x -> `/a/b`). */
function withoutNamedSegments(path: string, versions: readonly string[]): string {
  const keys = namesOf(versions, versionKey);
  return `\u0001${path
    .split("/")
    .filter((seg) => seg === "" || !keys.has(segmentKey(seg)))
    .join("/")}`;
}

/** `versionKey` of path segments, made once per distinct segment: every page unit's path is cut
 *  at a site's first search, and its segments are few (a site's folders and versions). */
const segmentKeys = new Map<string, string>();
function segmentKey(seg: string): string {
  let key = segmentKeys.get(seg);
  if (key === undefined) {
    // Bounded like `nameSets`: a server serving many sites over time starts over.
    if (segmentKeys.size >= 100_000) segmentKeys.clear();
    segmentKeys.set(seg, (key = versionKey(seg)));
  }
  return key;
}

/** The SKETCH_SIZE smallest distinct hashes of a unit's consecutive term triples (`text`: its
 *  indexed term ids in order, -1 between fields, or its sections' so, one after another). */
export function sketchOf(text: Int32Array | readonly Int32Array[]): Uint32Array {
  // The smallest distinct hashes kept in order as they come: past the first few triples almost
  // every hash is above the largest kept and costs one comparison. A set and a sort of every
  // triple's hash were 7% of indexing's CPU at 5,000 distinct pages.
  const best = new Uint32Array(SKETCH_SIZE);
  let count = 0;
  // A page's sections as they come (no triple spans two, as none spans a -1), not joined first.
  for (const terms of text instanceof Int32Array ? [text] : text) {
    for (let i = 0; i + 2 < terms.length; i++) {
      const a = terms[i] as number;
      const b = terms[i + 1] as number;
      const c = terms[i + 2] as number;
      if (a < 0 || b < 0 || c < 0) continue;
      const h = mix(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d));
      if (count === SKETCH_SIZE && h >= (best[SKETCH_SIZE - 1] as number)) continue;
      let at = count;
      while (at > 0 && (best[at - 1] as number) > h) at--;
      if (at > 0 && best[at - 1] === h) continue;
      best.copyWithin(at + 1, at, count === SKETCH_SIZE ? SKETCH_SIZE - 1 : count);
      best[at] = h;
      if (count < SKETCH_SIZE) count++;
    }
  }
  return best.slice(0, count);
}

/** A 32-bit finaliser (murmur3's): spreads the triple's bits so the smallest hashes are a fair sample. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Estimated Jaccard similarity of two sketches: the share of the union's smallest hashes in both. */
export function similarity(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  let i = 0;
  let j = 0;
  let both = 0;
  let seen = 0;
  while (seen < SKETCH_SIZE && (i < a.length || j < b.length)) {
    const x = i < a.length ? (a[i] as number) : Number.POSITIVE_INFINITY;
    const y = j < b.length ? (b[j] as number) : Number.POSITIVE_INFINITY;
    if (x === y) {
      both++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
    seen++;
  }
  return both / seen;
}

/** A ranked candidate before it becomes a hit. */
export interface Candidate {
  readonly entry: { readonly placement: PagePlacement | undefined };
  readonly twin: TwinInfo | undefined;
  readonly score: number;
}

/** Whether two lists of names are both given and share none. */
function disjoint(x: readonly string[] | undefined, y: readonly string[] | undefined): boolean {
  return x !== undefined && y !== undefined && !x.some((v) => y.includes(v));
}

/** Whether two placements are in different branches: disjoint versions, products or languages
 *  (copies in two languages are twins only by key, which has no language when `TwinRules.languages`). */
function apart(a: PagePlacement | undefined, b: PagePlacement | undefined): boolean {
  return disjoint(a?.versions, b?.versions) || disjoint(a?.products, b?.products) || disjoint(a?.languages, b?.languages);
}

/**
 * Placements as small numbers, equal placements one number, and `apart` of two numbers decided
 * once: a fold compares each candidate with every member of the groups it may join (up to 35
 * versions x 4 languages each on crewAI's shape), and comparing name lists each time was most of
 * a search's time there.
 */
/** A placement's versions, products and languages as one string, made once per placement (a
 *  page's lives as long as the site it was loaded with). */
const signatures = new WeakMap<PagePlacement, string>();
function signatureOf(p: PagePlacement): string {
  let key = signatures.get(p);
  if (key === undefined) signatures.set(p, (key = JSON.stringify([p.versions ?? null, p.products ?? null, p.languages ?? null])));
  return key;
}

/**
 * A number per distinct placement signature (`signatureOf`), kept on each placement object: a
 * fold numbers thousands of candidates' placements, and a lookup by object beats hashing the
 * signature string each time. Numbers are never given twice (a new table after 100,000
 * signatures continues the count), so equal numbers are equal signatures; equal signatures with
 * two numbers would only cost a comparison (`PlacementIds.overlaps` compares placements).
 */
let signatureNumbers = new Map<string, number>();
let placementNumbers = new WeakMap<PagePlacement, number>();
let nextSignature = 1;
function signatureNumber(p: PagePlacement): number {
  let n = placementNumbers.get(p);
  if (n !== undefined) return n;
  const key = signatureOf(p);
  n = signatureNumbers.get(key);
  if (n === undefined) {
    if (signatureNumbers.size >= 100_000) {
      signatureNumbers = new Map();
      placementNumbers = new WeakMap();
    }
    signatureNumbers.set(key, (n = nextSignature++));
  }
  placementNumbers.set(p, n);
  return n;
}

class PlacementIds {
  private readonly byId: (PagePlacement | undefined)[] = [undefined];
  /** Ids by signature number (`signatureNumber`). */
  private readonly known = new Map<number, number>();

  /** 0 for none, else 1 and up; equal placements get one id. */
  idOf(p: PagePlacement | undefined): number {
    if (p === undefined) return 0;
    const n = signatureNumber(p);
    let id = this.known.get(n);
    if (id === undefined) {
      id = this.byId.length;
      this.known.set(n, id);
      this.byId.push(p);
    }
    return id;
  }

  /** Each id's placement (undefined for 0), by id. */
  all(): readonly (PagePlacement | undefined)[] {
    return this.byId;
  }

  /** For each id given out so far, the ids not apart from it (itself and 0 among them): a
   *  candidate may join a group holding none of its own. */
  overlaps(): number[][] {
    const n = this.byId.length;
    const out: number[][] = Array.from({ length: n }, (_, a) => (a === 0 ? Array.from({ length: n }, (_, b) => b) : [0, a]));
    for (let a = 1; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        if (apart(this.byId[a], this.byId[b])) continue;
        (out[a] as number[]).push(b);
        (out[b] as number[]).push(a);
      }
    }
    return out;
  }
}

/** Whether two candidates apart (in different branches) are the same page: a shared key, or the
 *  same title and near-identical text. Compared by their numbers (`TwinInfo.ids`). */
function sameTwin(ta: TwinInfo, tb: TwinInfo): boolean {
  const a = ta.ids;
  const b = tb.ids;
  if (a.cls === b.cls) return true;
  for (let i = 0; i < a.keys.length; i++) for (let j = 0; j < b.keys.length; j++) if (a.keys[i] === b.keys[j]) return true;
  return a.title === b.title && similarity(ta.sketch, tb.sketch) >= TWIN_SIMILARITY;
}

/** A group of twins while folding: its members (indices into the ranked list, best first), the
 *  order it was made in, and its members' placements. */
interface FoldGroup {
  readonly members: number[];
  readonly order: number;
  readonly places: Set<number>;
  /** The last candidate that found it near (`foldVersionTwins`): each is looked at once. */
  seenBy: number;
}

/**
 * Fold twins among ranked candidates into one hit each. Two candidates are the same page when
 * they sit in different versions (products) and their paths are equal once each one's own
 * version segment is dropped (the segment navigation shows the version's pages under, or one
 * naming the version: `v6` for `v6.x`; with the language's too when the rules fold languages:
 * `TwinInfo.classKey`), or when they have the same title and near-identical text;
 * and only with equal languages, unless the rules fold languages (`TwinRules.languages`: then
 * path keys hold no language and copies in disjoint languages are apart). A group is one hit, at its own rank and score, carrying the
 * others as its twins: first its language, that of the group's best (the question's, most
 * likely: a Korean question matches the Korean copy), or `defaultLanguage` when a copy in it
 * scores within `tolerance` of the best (a query of identifiers matches every copy alike); then,
 * among the copies in that language, the page in `preferred` (the version the query names, else
 * the default one) when it scores within `tolerance` of their best, else their best. Copies in
 * other languages are its `languageTwins`, one per language: the one in its versions if
 * matched, else the best. A candidate joins the first group it is a twin of whose members are
 * all apart from it. `ranked` is sorted best first; so is the result. Candidates' twin
 * information must come from one `TwinRules` (their keys' numbers are compared).
 *
 * On a site of 35 versions x 4 languages the top's groups hold thousands of candidates a search
 * (140 copies each): keys are compared as numbers, placements' languages and versions are
 * written once per distinct placement, and groups are found through numbered keys.
 */
export function foldVersionTwins<C extends Candidate>(
  ranked: readonly C[],
  preferred: string | undefined,
  tolerance: number,
  defaultLanguage?: string,
): (C & { twins: C[]; languageTwins: C[] })[] {
  const groups: FoldGroup[] = [];
  const groupOf = new Array<FoldGroup>(ranked.length);
  // Groups by the keys and titles of their members: a candidate's twins can only be in groups
  // that share one with it, so each candidate looks at a few groups, not all (a common word can
  // rank a thousand candidates). Each list is in creation order, as is their merge.
  const byKey = new Map<number, FoldGroup[]>();
  const byTitle = new Map<number, FoldGroup[]>();
  // Each candidate's placement (`PlacementIds`), which are not apart, and each placement's
  // languages and versions as compared below.
  const placements = new PlacementIds();
  const placeOf = ranked.map((c) => placements.idOf(c.entry.placement));
  const overlaps = placements.overlaps();
  const languagesOf = placements.all().map((p) => String(p?.languages ?? ""));
  const versionsOf = placements.all().map((p) => String(p?.versions));
  const file = (map: Map<number, FoldGroup[]>, key: number, group: FoldGroup): void => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [group]);
    else if (list[list.length - 1] !== group && !list.includes(group)) list.push(group);
  };
  // A candidate joins a group when it is apart from every member and a twin of one: the same page
  // in another branch. A member in another branch with a shared key is one; else one with its title.
  const joins = (g: FoldGroup, place: number, twin: TwinInfo): boolean => {
    for (const p of overlaps[place] as number[]) if (g.places.has(p)) return false;
    return g.members.some((m) => {
      const other = (ranked[m] as C).twin;
      return other !== undefined && sameTwin(other, twin);
    });
  };
  const near: FoldGroup[] = [];
  const look = (list: readonly FoldGroup[] | undefined, i: number): void => {
    if (list === undefined) return;
    for (const g of list) {
      if (g.seenBy === i) continue;
      g.seenBy = i;
      near.push(g);
    }
  };
  for (let i = 0; i < ranked.length; i++) {
    let group: FoldGroup | undefined;
    const twin = (ranked[i] as C).twin;
    const place = placeOf[i] as number;
    if (twin !== undefined) {
      near.length = 0;
      const { keys, cls, title } = twin.ids;
      for (let k = 0; k < keys.length; k++) look(byKey.get(keys[k] as number), i);
      look(byKey.get(cls), i);
      look(byTitle.get(title), i);
      if (near.length > 1) near.sort((a, b) => a.order - b.order);
      group = near.find((g) => joins(g, place, twin));
    }
    // A new group's list made with its one member: pushed onto `[]`, it grew room for 17 (most
    // groups on a site of few versions keep one member: ~0.15 KB a candidate of a search's ~20).
    if (group === undefined) {
      group = { members: [i], order: groups.length, places: new Set(), seenBy: -1 };
      groups.push(group);
    } else group.members.push(i);
    group.places.add(place);
    groupOf[i] = group;
    if (twin !== undefined) {
      const { keys, cls, title } = twin.ids;
      for (let k = 0; k < keys.length; k++) file(byKey, keys[k] as number, group);
      file(byKey, cls, group);
      file(byTitle, title, group);
    }
  }
  const out: (C & { twins: C[]; languageTwins: C[] })[] = [];
  // Each group's choice, made once (a crewAI group holds up to 35 versions x 4 languages).
  const chosen = new Map<FoldGroup, { representative: number; same: number[]; language: string }>();
  const languageOfMember = (m: number): string => languagesOf[placeOf[m] as number] as string;
  for (let i = 0; i < ranked.length; i++) {
    const group = groupOf[i] as FoldGroup;
    // A candidate alone in its group is its hit, with no twins (what the choice below gives it,
    // made without its lists and maps: most groups on a site of few versions are one page).
    if (group.members.length === 1) {
      out.push(withTwins(ranked[i] as C, [], []));
      continue;
    }
    let pick = chosen.get(group);
    if (pick === undefined) {
      const language = languageOf(group.members.map((m) => ranked[m] as C), defaultLanguage, tolerance);
      const same = group.members.filter((m) => languageOfMember(m) === language);
      const best = same[0] as number;
      const inPreferred = preferred === undefined ? undefined : same.find((m) => (ranked[m] as C).entry.placement?.versions?.includes(preferred) === true);
      pick = { representative: inPreferred !== undefined && (ranked[inPreferred] as C).score >= (ranked[best] as C).score - tolerance ? inPreferred : best, same, language };
      chosen.set(group, pick);
    }
    const { representative, same, language } = pick;
    if (representative !== i) continue;
    const c = ranked[i] as C;
    const others = new Map<string, number[]>();
    for (const m of group.members) {
      const l = languageOfMember(m);
      if (l === language) continue;
      const copies = others.get(l);
      if (copies === undefined) others.set(l, [m]);
      else copies.push(m);
    }
    const versions = versionsOf[placeOf[i] as number] as string;
    const languageTwins = [...others.values()].map((copies) => ranked[copies.find((m) => versionsOf[placeOf[m] as number] === versions) ?? (copies[0] as number)] as C);
    out.push(withTwins(c, same.filter((m) => m !== i).map((m) => ranked[m] as C), languageTwins.sort((a, b) => b.score - a.score)));
  }
  return out;
}

/** A hit: `c` with its twins. The lists first: `{ ...c, twins, languageTwins }` added them to a
 *  copy of `c`'s shape one by one, ~1 KB an object, against ~0.2 KB this way. */
function withTwins<C extends Candidate>(c: C, twins: C[], languageTwins: C[]): C & { twins: C[]; languageTwins: C[] } {
  return { twins, languageTwins, ...c };
}

/** The language a group is shown in (its languages joined, "" for none): the best copy's, or
 *  `preferred` when a copy in it scores within `tolerance` of the best. `group` is best first. */
function languageOf(group: readonly Candidate[], preferred: string | undefined, tolerance: number): string {
  const best = group[0] as Candidate;
  const inPreferred = preferred === undefined ? undefined : group.find((m) => m.entry.placement?.languages?.includes(preferred) === true);
  const shown = inPreferred !== undefined && inPreferred.score >= best.score - tolerance ? inPreferred : best;
  return String(shown.entry.placement?.languages ?? "");
}

/** `v6`, `V6.x`, `6.x` and `6` name one version: case, a leading `v` and a trailing `.x` aside. */
export function versionKey(v: string): string {
  return v.trim().toLowerCase().replace(/^v(?=\d)/, "").replace(/\.(x|\*)$/, "");
}
