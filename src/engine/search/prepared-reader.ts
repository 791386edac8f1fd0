import { createHash } from "node:crypto";
import type { SiteConfig } from "../../config/site-config.js";
import type { VersionPath } from "../../config/version-path.js";
import type { TwinInfo, TwinRules } from "./version-twins.js";
import { TwinKeys } from "./twin-keys.js";

/**
 * A reader's prepared search state kept in the persistent cache (issue 22): the twin table of the
 * reader's branches (`SearchIndex.twinIndex`) and its twin rules. Building them was 0.26-0.40 s of
 * the main thread before a warm start of a 25,000-page site (35 versions x 4 languages) could
 * answer its first search; a warm start whose pages are all unchanged takes them from here.
 *
 * One reader class's, keyed by its branches' key (`SearchIndex.branchKey`: the reader class's
 * flags over every access rule, and whether languages fold): a reader of another class never
 * gets it, and one of this class gets exactly what it would have made. Taken with the index's
 * state and used only while its units are those of the state (`SearchIndex.restore`).
 */

/** A reader class's view of the site's branches (`SearchIndex.branchesFor`). */
export interface ReaderBranches {
  readonly twins: TwinRules;
  /** Each version the reader has pages in, with the words a query may name it by. */
  readonly versionWords: readonly { readonly version: string; readonly words: ReadonlySet<string> }[];
  /** Twin information per indexed variant under these rules. */
  readonly twinInfos: Map<object, TwinInfo | undefined>;
  /** The key of the reader class these are of (`ReaderClass.key`); absent for a reader of
   *  everything. Pages outside navigation are placed by it (`ReaderPlacements`). */
  reader?: string;
  /** Its units' twin information by unit id, made at the first fold (`twinIndex`). */
  table?: TwinTable;
  /** Restored from the cache (`branchesOf`): `twins.keys` is empty until `replayKeys` numbers
   *  the table's keys again, in the order they were first given (the first unit beyond the
   *  table needs it; most starts never do). */
  replay?: boolean;
  /** The table of the index before its last sync, whose navigation and rules were the same
   *  (`SearchIndex.syncSteps`): its unchanged units' information is taken from it. */
  before?: TwinTable;
}

/**
 * A reader's units' twin information by unit id (`SearchIndex.twinIndex`): arrays read per
 * candidate by numbers, where maps by variant and by key string cost most of a search on a site
 * of 35 versions x 4 languages (thousands of candidates a search, 25,000 units).
 */
export interface TwinTable {
  /** Units the table was made for (ids from 0); a unit made later is looked up by variant. */
  readonly size: number;
  /** Each unit's twin information (undefined: it has none). */
  readonly infos: (TwinInfo | undefined)[];
  /** A class per unit: units sharing a class key (`TwinInfo.ids.cls`) share one, the others have their own. */
  readonly classes: Int32Array;
  /** Unit ids by key number (`TwinInfo.ids`: its keys and its title key), ascending. */
  readonly unitsOfKey: (number[] | undefined)[];
  /** Stamps of the keys and units `twinCandidates` has taken in the current call. */
  readonly keySeen: Uint32Array;
  readonly unitSeen: Uint32Array;
  stamp: number;
  /** A restored table's units' information and key lists as stored (`branchesOf`): `infos` and
   *  `unitsOfKey` are filled from them as searches ask (`twinInfoAt`, `unitsWithKey`), since
   *  making all 25,000 units' objects at once cost more than most starts' searches read. */
  readonly packed?: PackedTwins;
  /** Whether its rules' keys were numbered by making this table alone, unit by unit in id order
   *  (no unit's information was asked before it): only then can a restored copy number them
   *  again the same way (`ReaderBranches.replay`), and only such a table is stored. */
  readonly fresh: boolean;
  /** What each unit's information was made of (a table made by `twinIndex`, not restored): the
   *  next sync's table takes a unit's information when all three are the same objects. */
  readonly made?: TwinTableUnits;
}

/** By unit id: its variant, page and place in the navigation. */
export interface TwinTableUnits {
  readonly variants: (object | undefined)[];
  readonly pages: (object | undefined)[];
  readonly placements: (object | undefined)[];
}

/** A restored table's information as stored (`PreparedReaderState`), with the units' sketches. */
interface PackedTwins {
  readonly at: Int32Array;
  readonly ids: Int32Array;
  readonly keyStarts: Int32Array;
  readonly keyUnits: Int32Array;
  readonly sketchOf: (id: number) => Uint32Array | undefined;
}

/** A unit's twin information in a table (below its `size`): made from the stored form the first time when restored. */
export function twinInfoAt(table: TwinTable, id: number): TwinInfo | undefined {
  const known = table.infos[id];
  const packed = table.packed;
  if (known !== undefined || packed === undefined) return known;
  const from = packed.at[id] as number;
  if (from < 0) return undefined;
  const { ids } = packed;
  const count = ids[from + 3] as number;
  const keys: number[] = [];
  for (let k = from + 4; k < from + 4 + count; k++) keys.push(ids[k] as number);
  const info: TwinInfo = { sketch: packed.sketchOf(id) as Uint32Array, ids: { keys, title: ids[from + 1] as number, cls: ids[from + 2] as number }, language: ids[from] as number };
  table.infos[id] = info;
  return info;
}

/** The units filed under a key number in a table (`TwinTable.unitsOfKey`), ascending. */
export function unitsWithKey(table: TwinTable, key: number): readonly number[] {
  const known = table.unitsOfKey[key];
  const packed = table.packed;
  if (known !== undefined || packed === undefined || key < 0 || key + 1 >= packed.keyStarts.length) return known ?? [];
  const units: number[] = [];
  for (let i = packed.keyStarts[key] as number; i < (packed.keyStarts[key + 1] as number); i++) units.push(packed.keyUnits[i] as number);
  table.unitsOfKey[key] = units;
  return units;
}

/** A reader's branches and twin table as data (`preparedReaderState`, `branchesOf`). */
export interface PreparedReaderState {
  /** The branches' key (`SearchIndex.branchKey`). */
  readonly key: string;
  /** What the twin rules were made from (`navigationKey`). */
  readonly navigation: string;
  readonly languages: boolean;
  readonly versions: readonly (readonly [string, VersionPath])[];
  readonly products: readonly (readonly [string, VersionPath])[];
  readonly versionWords: readonly (readonly [string, readonly string[]])[];
  /** How many key numbers the rules had given when the table was made (`TwinTable.keySeen`). */
  readonly keyCount: number;
  /** `TwinTable.size`. */
  readonly size: number;
  /** Per unit, where its twin information starts in `ids`, or -1 for none. */
  readonly at: Int32Array;
  /** Per unit with information: its language key, title key, class key, how many keys, the keys. */
  readonly ids: Int32Array;
  /** `TwinTable.classes`. */
  readonly classes: Int32Array;
  /** `TwinTable.unitsOfKey` in one array: key `k`'s units are `keyUnits` from `keyStarts[k]` to `keyStarts[k + 1]`. */
  readonly keyStarts: Int32Array;
  readonly keyUnits: Int32Array;
}

/** A prepared reader as data, or undefined for a table that cannot be restored (`TwinTable.fresh`). */
export function preparedReaderState(key: string, navigation: string, branches: ReaderBranches): PreparedReaderState | undefined {
  const table = branches.table;
  if (table === undefined || !table.fresh) return undefined;
  const at = new Int32Array(table.size).fill(-1);
  const infos = Array.from({ length: table.size }, (_, id) => twinInfoAt(table, id));
  let length = 0;
  for (const info of infos) if (info !== undefined) length += 4 + info.ids.keys.length;
  const ids = new Int32Array(length);
  let next = 0;
  infos.forEach((info, id) => {
    if (info === undefined) return;
    at[id] = next;
    ids[next++] = info.language;
    ids[next++] = info.ids.title;
    ids[next++] = info.ids.cls;
    ids[next++] = info.ids.keys.length;
    for (const k of info.ids.keys) ids[next++] = k;
  });
  const keyCount = table.keySeen.length;
  const keyStarts = new Int32Array(keyCount + 1);
  const lists = Array.from({ length: keyCount }, (_, key) => unitsWithKey(table, key));
  lists.forEach((units, key) => (keyStarts[key + 1] = (keyStarts[key] as number) + units.length));
  const keyUnits = new Int32Array(keyStarts[keyCount] as number);
  lists.forEach((units, key) => keyUnits.set(units, keyStarts[key] as number));
  const { twins } = branches;
  return {
    key,
    navigation,
    languages: twins.languages,
    versions: [...twins.versions],
    products: [...twins.products],
    versionWords: branches.versionWords.map((v) => [v.version, [...v.words]] as const),
    keyCount,
    size: table.size,
    at,
    ids,
    classes: table.classes.slice(),
    keyStarts,
    keyUnits,
  };
}

/**
 * The branches of a `preparedReaderState`, for an index holding the same units: `sketchOf(id)` is
 * the unit's sketch (`IndexedVariant.sketch`), which its twin information shares. Throws on a
 * state that does not hold together (a cache that passed its checksums and still does not fit).
 */
export function branchesOf(state: PreparedReaderState, sketchOf: (id: number) => Uint32Array | undefined): ReaderBranches {
  const { size, at, ids, keyCount, classes, keyStarts, keyUnits } = state;
  // What searches index by is checked here, once: a cache that passed its checksums and still
  // does not fit is not used.
  if (at.length !== size || classes.length !== size || keyStarts.length !== keyCount + 1 || keyStarts[keyCount] !== keyUnits.length) throw new Error("a prepared reader's table does not fit its units");
  for (let k = 0; k < keyCount; k++) if ((keyStarts[k] as number) > (keyStarts[k + 1] as number)) throw new Error("a prepared reader's key lists are out of order");
  for (let i = 0; i < keyUnits.length; i++) if (!((keyUnits[i] as number) >= 0 && (keyUnits[i] as number) < size)) throw new Error("a prepared reader's unit is out of range");
  for (let id = 0; id < size; id++) {
    const from = at[id] as number;
    if (from >= 0 && (from + 4 > ids.length || from + 4 + (ids[from + 3] as number) > ids.length || sketchOf(id) === undefined)) throw new Error("a prepared reader's unit is not in the index");
  }
  const twins: TwinRules = { versions: new Map(state.versions), products: new Map(state.products), languages: state.languages, keys: new TwinKeys() };
  return {
    twins,
    versionWords: state.versionWords.map(([version, words]) => ({ version, words: new Set(words) })),
    twinInfos: new Map(),
    table: {
      size,
      infos: new Array<TwinInfo | undefined>(size),
      classes: classes.slice(),
      unitsOfKey: [],
      keySeen: new Uint32Array(keyCount),
      unitSeen: new Uint32Array(size),
      stamp: 0,
      packed: { at, ids, keyStarts, keyUnits, sketchOf },
      fresh: true,
    },
    replay: true,
  };
}

/**
 * What every reader's twin rules and versions are made from (`SearchIndex.branchesFor`): the
 * versions and languages, each navigation page's placement and access rules. A restored reader
 * whose key differs was made for other navigation (its units may be unchanged: docs.json can move
 * a version without touching a page), and is made again. SHA-256 of them in a few large pieces
 * (~3 ms for the 25,000 navigation pages of a site of 35 versions x 4 languages).
 */
export function navigationKey(config: Pick<SiteConfig, "navPages" | "versions" | "languages" | "defaultLanguage">, navRules: ReadonlyMap<string, readonly number[]>): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([config.versions, config.languages, config.defaultLanguage ?? null]));
  let piece = "";
  // Pages share placement objects (the cache stores each distinct one once): each written once.
  const written = new Map<object, string>();
  for (const [path, placement] of config.navPages) {
    let text = written.get(placement);
    if (text === undefined) written.set(placement, (text = JSON.stringify(placement)));
    piece += `\n${path}\u0000${text}\u0000${String(navRules.get(path) ?? "-")}`;
    if (piece.length < 1 << 16) continue;
    hash.update(piece);
    piece = "";
  }
  hash.update(piece);
  return hash.digest("hex");
}
