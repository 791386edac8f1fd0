import { appendAll } from "../../arrays.js";
import { childPath } from "../docs-json/json-path.js";
import { describe } from "../docs-json/zod-issues.js";

/** The configuration file of repositories older than docs.json. */
export const MINT_JSON = "mint.json";

/** docs.json as read from a mint.json, with where each part of it was written. */
export interface UpgradedMintJson {
  /** The docs.json the platform reads the mint.json as. */
  readonly value: Record<string, unknown>;
  /** By path in `value`: the path in mint.json it was made from (divisions, groups, pages and
   *  the top-level keys), so that a finding points at what its author wrote. */
  readonly origins: ReadonlyMap<string, string>;
  /** What mint.json writes in a shape it does not have (a page that is a number, `anchors` as an
   *  object): left out of `value` and said here, by path in mint.json, so that nothing is dropped
   *  unsaid. docs.json's checks cannot see what never reaches `value`. */
  readonly problems: readonly MintProblem[];
}

/** A part of mint.json not in mint.json's shape: an error (the part is left out). */
export interface MintProblem {
  /** Path in mint.json (`navigation[0].pages[1]`); `""` for the whole file. */
  readonly path: string;
  readonly message: string;
  readonly code: "type";
}

/**
 * Read a mint.json (the format docs.json replaced, which the hosted platform still serves) as the
 * docs.json it stands for: the navigation, the site's name, its API settings, SEO and redirects,
 * what the server reads; looks (colors, fonts, footer, navbar) only as far as a docs.json needs
 * them to be one.
 *
 * mint.json's navigation is a list of groups; its `tabs` and `anchors` are URL prefixes that take
 * the pages under them, the pages no division takes going to a first division (`primaryTab`,
 * `topAnchor`, else "Documentation"); its `versions` are names that groups and divisions carry
 * (`version`), or languages when each has a `locale`. This is the platform's reading of them
 * (`mint upgrade` writes the same docs.json), with one difference: a nested group split between
 * two divisions gives each division only its own pages (the upgrade repeats the whole group in
 * the second).
 */
export function upgradeMintJson(mint: unknown): UpgradedMintJson {
  const config = isRecord(mint) ? mint : {};
  const made = new Made();
  const groups = readGroups(config.navigation, "navigation", made);
  const navigation = new Navigation(config, made).of(groups);
  const value: Record<string, unknown> = { $schema: "https://mintlify.com/docs.json", theme: "mint" };
  const copy = (key: string, to: string = key): void => {
    if (config[key] === undefined) return;
    value[to] = config[key];
    made.origin(to, key);
  };
  copy("name");
  copy("logo");
  copy("favicon");
  value.colors = isRecord(config.colors) ? pick(config.colors, ["primary", "light", "dark"]) : { primary: "#16A34A" };
  // A navigation that is not a list of groups is no navigation: as a docs.json without one, the
  // site is read with none (every page served and searchable), and the file is an error.
  if (config.navigation === undefined || Array.isArray(config.navigation)) value.navigation = navigation;
  made.origin("navigation", "navigation");
  const api = apiOf(config, made);
  if (api !== undefined) value.api = api;
  if (config.openapi !== undefined) made.origin("api.openapi", "openapi");
  // docs.json keys mint.json writes under other names, so that a finding names what was written.
  for (const [path, at] of RENAMED_SETTINGS) made.origin(path, at);
  const seo = seoOf(config);
  if (seo !== undefined) value.seo = seo;
  if (isRecord(config.search) && config.search.prompt !== undefined) value.search = { prompt: config.search.prompt };
  copy("redirects");
  return { value, origins: made.origins(value), problems: made.problems };
}

/** Settings docs.json names otherwise: by path in docs.json, the path in mint.json. */
const RENAMED_SETTINGS: readonly (readonly [string, string])[] = [
  ["api.playground.display", "api.playground.mode"],
  ["api.playground.proxy", "api.playground.disableProxy"],
  ["api.examples.languages", "api.request.example.languages"],
  ["api.mdx.server", "api.baseUrl"],
  ["api.mdx.auth", "api.auth"],
  ["seo.metatags", "metadata"],
  ["seo.indexing", "seo.indexHiddenPages"],
];

type Json = Record<string, unknown>;

/** A group as mint.json writes it, with where. */
interface Group {
  readonly group: unknown;
  readonly icon: unknown;
  readonly version: unknown;
  readonly entries: readonly Entry[];
  readonly at: string;
}

type Entry = { readonly page: string; readonly at: string } | Group;

/** A tab, an anchor or a version as mint.json writes it. */
interface Division {
  readonly name: unknown;
  readonly url: string;
  readonly version: unknown;
  readonly source: Json;
  readonly at: string;
}

type Kind = "tabs" | "anchors";

function readGroups(value: unknown, at: string, made: Made): Group[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    made.problem(at, `must be an array of groups; got ${describe(value)}`);
    return [];
  }
  const out: Group[] = [];
  value.forEach((g, i) => {
    if (isRecord(g)) out.push(readGroup(g, childPath(at, i), made));
    else made.problem(childPath(at, i), `must be a group (an object with "group" and "pages"); got ${describe(g)}`);
  });
  return out;
}

function readGroup(g: Json, at: string, made: Made): Group {
  const entries: Entry[] = [];
  const pagesAt = childPath(at, "pages");
  if (g.pages !== undefined && !Array.isArray(g.pages)) made.problem(pagesAt, `must be an array; got ${describe(g.pages)}`);
  const pages = Array.isArray(g.pages) ? g.pages : [];
  pages.forEach((p, i) => {
    if (typeof p === "string") entries.push({ page: p, at: childPath(pagesAt, i) });
    else if (isRecord(p)) entries.push(readGroup(p, childPath(pagesAt, i), made));
    else made.problem(childPath(pagesAt, i), `must be a page path (a string) or a group; got ${describe(p)}`);
  });
  return { group: g.group, icon: iconOf(g), version: g.version, entries, at };
}

function readDivisions(value: unknown, at: string, made: Made): Division[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    made.problem(at, `must be an array; got ${describe(value)}`);
    return [];
  }
  const out: Division[] = [];
  value.forEach((d, i) => {
    const dAt = childPath(at, i);
    if (!isRecord(d)) {
      made.problem(dAt, `must be an object with "name" and "url"; got ${describe(d)}`);
      return;
    }
    // A division without a URL takes no pages; one whose URL is not a string is left out.
    if (d.url !== undefined && typeof d.url !== "string") {
      made.problem(childPath(dAt, "url"), `must be a string; got ${describe(d.url)}`);
      return;
    }
    out.push({ name: d.name, url: d.url ?? "", version: d.version, source: d, at: dAt });
  });
  return out;
}

/** The docs.json navigation of a mint.json's groups, divisions and versions. */
class Navigation {
  private readonly tabs: Division[];
  private readonly anchors: Division[];
  private readonly versions: unknown[];
  /** Divisions that only link elsewhere, shown on every page (`navigation.global`). */
  private readonly global: Json = {};

  constructor(
    private readonly config: Json,
    private readonly made: Made,
  ) {
    this.tabs = readDivisions(config.tabs, "tabs", made);
    this.anchors = readDivisions(config.anchors, "anchors", made);
    if (config.versions !== undefined && !Array.isArray(config.versions)) made.problem("versions", `must be an array; got ${describe(config.versions)}`);
    this.versions = Array.isArray(config.versions) ? config.versions : [];
    const remoteOnly = (list: Division[]): boolean => list.length > 0 && list.every((d) => d.version === undefined && isRemote(d.url));
    if (remoteOnly(this.tabs)) {
      this.global.tabs = this.tabs.map((d) => this.made.from(d.at, { tab: d.name, href: d.url, ...hidden(d.source) }, DIVISION_KEYS));
      this.tabs = [];
    }
    if (remoteOnly(this.anchors)) {
      this.global.anchors = this.anchors.map((d) => this.made.from(d.at, { anchor: d.name, href: d.url, ...anchorLooks(d.source) }, DIVISION_KEYS));
      this.anchors = [];
    }
    if (this.versions.length > 0 && this.versions.every((v) => isRecord(v) && typeof v.url === "string" && isRemote(v.url))) {
      this.global.versions = this.versions.map((v, i) => this.made.from(childPath("versions", i), { version: (v as Json).name, href: (v as Json).url }, VERSION_KEYS));
      this.versions = [];
    }
  }

  of(groups: readonly Group[]): Json {
    const nav = this.versions.length > 0 ? this.byVersion(groups) : (this.divided(groups, undefined) ?? { groups: [] });
    if (this.global.tabs !== undefined || this.global.anchors !== undefined) nav.global = pick(this.global, ["tabs", "anchors"]);
    return nav;
  }

  /** One navigation per version (or language, when every version has a `locale`). */
  private byVersion(groups: readonly Group[]): Json {
    const locales = this.versions.every((v) => isRecord(v) && v.locale !== undefined);
    const name = (v: unknown): unknown => (isRecord(v) ? v.name : v);
    // Divisions a version names take their pages into that version only.
    const gated = new Map<string, unknown[]>();
    for (const d of [...this.anchors, ...this.tabs]) {
      if (d.version === undefined || isRemote(d.url)) continue;
      if (this.versions.some((v) => name(v) === d.version)) gated.set(d.url, [...(gated.get(d.url) ?? []), d.version]);
    }
    const out = this.versions.map((v, i) => {
      const at = childPath("versions", i);
      const head: Json = locales && isRecord(v) ? { language: v.locale } : { version: name(v) };
      if (isRecord(v) && v.default !== undefined) head.default = v.default;
      const keys = isRecord(v) ? VERSION_KEYS : {};
      if (isRecord(v) && typeof v.url === "string") return this.made.from(at, { ...head, href: v.url }, keys);
      const own = inVersion(groups, name(v), gated);
      return this.made.from(at, { ...head, ...(this.divided(own.length > 0 ? own : groups, name(v)) ?? { groups: [] }) }, keys);
    });
    return locales ? { languages: out } : { versions: out };
  }

  /** Groups, or the divisions that take them, the broader kind of division outside. */
  private divided(groups: readonly Group[], version: unknown): Json | undefined {
    const outer: Kind = broader(this.tabs, this.anchors);
    const inner: Kind = outer === "tabs" ? "anchors" : "tabs";
    const list = (kind: Kind): Division[] => (kind === "tabs" ? this.tabs : this.anchors);
    if (list(outer).length > 0) {
      const { out, rest } = this.divisions(outer, list(outer), groups, false, version, list(inner));
      if (rest.length > 0 || list(inner).length > 0) {
        const first = list(inner).length > 0 ? { [inner]: this.divisions(inner, list(inner), rest.length > 0 ? rest : groups, true, version).out } : { groups: split(rest, undefined, version).taken.map((g) => this.made.group(g)) };
        out.unshift({ ...this.primary(outer), ...first });
      }
      return { [outer]: out };
    }
    if (list(inner).length > 0) return { [inner]: this.divisions(inner, list(inner), groups, true, version).out };
    const own = groups.filter((g) => inVersionOf(g, version));
    return own.length > 0 ? { groups: own.map((g) => this.made.group(g)) } : undefined;
  }

  /**
   * Each division with the pages under its URL (not those under a deeper division of the same
   * kind), or the divisions of the other kind under it; the pages none takes in a first one
   * (`withRest`) and returned.
   */
  private divisions(kind: Kind, list: readonly Division[], groups: readonly Group[], withRest: boolean, version: unknown, others: readonly Division[] = []): { out: Json[]; rest: Group[] } {
    let rest = groups.filter((g) => inVersionOf(g, version));
    const out: Json[] = [];
    for (const d of list) {
      if (version !== undefined && d.version !== undefined && d.version !== version) continue;
      const openapi = d.source.openapi === undefined ? undefined : isRemote(d.url) ? d.source.openapi : { source: d.source.openapi, directory: d.url };
      const head: Json = { [kind === "tabs" ? "tab" : "anchor"]: d.name, ...hidden(d.source), ...(openapi !== undefined ? { openapi } : {}), ...(kind === "anchors" ? anchorLooks(d.source) : {}) };
      const deeper = list.filter((x) => x.url !== "" && x.url !== d.url && leading(x.url).startsWith(leading(d.url)));
      const within = others.filter((x) => leading(x.url).startsWith(leading(d.url)));
      const nested = within.length > 0 ? this.divisions(kind === "tabs" ? "anchors" : "tabs", within, groups, false, version).out : [];
      const { taken, left } = split(rest, d, version, deeper);
      rest = left;
      if (nested.length > 0) out.push(this.made.from(d.at, { ...head, [kind === "tabs" ? "anchors" : "tabs"]: nested }, DIVISION_KEYS));
      else if (taken.length > 0) out.push(this.made.from(d.at, { ...head, groups: taken.map((g) => this.made.group(g)) }, DIVISION_KEYS));
      else if (openapi !== undefined && !isRemote(d.url)) out.push(this.made.from(d.at, head, DIVISION_KEYS));
      else if (hasScheme(d.url)) out.push(this.made.from(d.at, { ...head, href: d.url }, DIVISION_KEYS));
      // A division under which no page is written, with no spec, is not shown.
    }
    if (withRest && rest.length > 0) out.unshift({ ...this.primary(kind), groups: split(rest, undefined, version).taken.map((g) => this.made.group(g)) });
    return { out, rest };
  }

  /** The division of the pages no other takes. */
  private primary(kind: Kind): Json {
    if (kind === "anchors") {
      const top = isRecord(this.config.topAnchor) ? this.config.topAnchor : undefined;
      return top?.name !== undefined ? { anchor: top.name, ...(top.icon !== undefined ? { icon: iconOf(top) } : {}) } : { anchor: "Documentation", icon: "book-open" };
    }
    const tab = isRecord(this.config.primaryTab) ? this.config.primaryTab : undefined;
    return tab !== undefined ? { tab: tab.name, ...(tab.isDefaultHidden !== undefined ? { hidden: tab.isDefaultHidden } : {}) } : { tab: "Documentation" };
  }
}

/** Which kind of division holds the other: the one whose every division some of the other's URLs fall under, else the one with more such. */
function broader(tabs: readonly Division[], anchors: readonly Division[]): Kind {
  if (tabs.length === 0) return "anchors";
  if (anchors.length === 0) return "tabs";
  const tabsIn = tabs.filter((t) => anchors.some((a) => leading(t.url).startsWith(leading(a.url)))).length;
  const anchorsIn = anchors.filter((a) => tabs.some((t) => leading(a.url).startsWith(leading(t.url)))).length;
  if (tabsIn === tabs.length) return "tabs";
  if (anchorsIn === anchors.length) return "anchors";
  return tabsIn > anchorsIn ? "tabs" : "anchors";
}

/** The pages of `groups` under `division`'s URL and not under a `deeper` one (all pages without a division), and the rest. */
function split(groups: readonly Group[], division: Division | undefined, version: unknown, deeper: readonly Division[] = []): { taken: Group[]; left: Group[] } {
  const taken: Group[] = [];
  const left: Group[] = [];
  if (division !== undefined && isRemote(division.url)) return { taken, left: [...groups] };
  const takes = (page: string): boolean => (division === undefined || under(page, division.url)) && !deeper.some((d) => under(page, d.url));
  for (const g of groups) {
    if (!inVersionOf(g, version)) continue;
    const mine: Entry[] = [];
    const others: Entry[] = [];
    for (const e of g.entries) {
      if ("page" in e) (takes(e.page) ? mine : others).push(e);
      else {
        const inner = split([e], division, version, deeper);
        appendAll(mine, inner.taken);
        appendAll(others, inner.left);
      }
    }
    if (mine.length > 0) taken.push({ ...g, entries: mine });
    if (others.length > 0) left.push({ ...g, entries: others });
  }
  return { taken, left };
}

/** The groups of one version: its own and those of none, without the pages of divisions gated to other versions. */
function inVersion(groups: readonly Group[], version: unknown, gated: ReadonlyMap<string, readonly unknown[]>): Group[] {
  const keeps = (page: string): boolean => {
    const gates = [...gated].filter(([url]) => page.startsWith(url));
    return gates.length === 0 || gates.some(([, versions]) => versions.includes(version));
  };
  const out: Group[] = [];
  for (const g of groups) {
    if (g.version !== undefined && g.version !== version) continue;
    const entries: Entry[] = [];
    for (const e of g.entries) {
      if ("page" in e) {
        if (keeps(e.page)) entries.push(e);
      } else appendAll(entries, inVersion([e], version, gated));
    }
    if (entries.length > 0) out.push({ ...g, entries });
  }
  return out;
}

function inVersionOf(g: Group, version: unknown): boolean {
  return version === undefined || g.version === undefined || g.version === version;
}

/** The keys of a tab or an anchor docs.json names otherwise: by docs.json key, mint.json's. */
const DIVISION_KEYS: Readonly<Record<string, string>> = { tab: "name", anchor: "name", href: "url", hidden: "isDefaultHidden" };
/** Likewise for a version (or a language, from a version's `locale`). */
const VERSION_KEYS: Readonly<Record<string, string>> = { version: "name", language: "locale", href: "url" };

/** What was made from which part of mint.json: objects as they are made, paths once placed. */
class Made {
  private readonly of = new WeakMap<object, string>();
  private readonly pages = new WeakMap<object, readonly string[]>();
  /** Keys of a made object written under another name in mint.json. */
  private readonly keys = new WeakMap<object, Readonly<Record<string, string>>>();
  private readonly top = new Map<string, string>();
  /** Each problem once, by mint.json path: a group read for each of three versions is one problem. */
  private readonly found = new Map<string, MintProblem>();

  from<T extends object>(at: string, made: T, keys?: Readonly<Record<string, string>>): T {
    this.of.set(made, at);
    if (keys !== undefined) this.keys.set(made, keys);
    return made;
  }

  /** A group as docs.json writes it; without a title when mint.json gives none, so that docs.json's
   *  check says `"group" is required` (a key set to nothing reads as a wrong type). */
  group(g: Group): Json {
    const pages = g.entries.map((e) => ("page" in e ? e.page : this.group(e)));
    this.pages.set(pages, g.entries.map((e) => e.at));
    return this.from(g.at, { ...(g.group !== undefined ? { group: g.group } : {}), ...(g.icon !== undefined ? { icon: g.icon } : {}), pages });
  }

  problem(path: string, message: string): void {
    if (!this.found.has(path)) this.found.set(path, { path, message, code: "type" });
  }

  get problems(): MintProblem[] {
    return [...this.found.values()];
  }

  origin(path: string, at: string): void {
    this.top.set(path, at);
  }

  /** Every origin, by path in `value`. */
  origins(value: unknown): Map<string, string> {
    const out = new Map(this.top);
    const walk = (v: unknown, path: string): void => {
      if (v === null || typeof v !== "object") return;
      const at = this.of.get(v);
      if (at !== undefined) out.set(path, at);
      const keys = at !== undefined ? this.keys.get(v) : undefined;
      for (const [key, written] of Object.entries(keys ?? {})) if (at !== undefined) out.set(childPath(path, key), childPath(at, written));
      const pages = this.pages.get(v);
      if (Array.isArray(v)) {
        v.forEach((x, i) => {
          const page = pages?.[i];
          if (page !== undefined && typeof x === "string") out.set(childPath(path, i), page);
          walk(x, childPath(path, i));
        });
      } else for (const [k, x] of Object.entries(v)) walk(x, childPath(path, k));
    };
    walk(value, "");
    return out;
  }
}

/** mint.json's `api.playground.mode` values, and docs.json's `display` for each. */
const PLAYGROUND_MODES: Readonly<Record<string, string>> = { show: "interactive", simple: "simple", hide: "none" };

function apiOf(config: Json, made: Made): Json | undefined {
  const api = isRecord(config.api) ? config.api : {};
  const playground = isRecord(api.playground) ? api.playground : {};
  const out: Json = {};
  if (config.openapi !== undefined) out.openapi = config.openapi;
  // Judged in mint.json's own values: docs.json's ("interactive", "none") are not mint.json's.
  const known = typeof playground.mode === "string" && Object.hasOwn(PLAYGROUND_MODES, playground.mode);
  if (playground.mode !== undefined && !known) made.problem("api.playground.mode", `must be one of ${Object.keys(PLAYGROUND_MODES).map((m) => JSON.stringify(m)).join(", ")}; got ${describe(playground.mode)}`);
  const mode = known ? PLAYGROUND_MODES[playground.mode as string] : undefined;
  const shown: Json = { ...(mode !== undefined ? { display: mode } : {}), ...(typeof playground.disableProxy === "boolean" ? { proxy: !playground.disableProxy } : {}) };
  if (Object.keys(shown).length > 0) out.playground = shown;
  const request = isRecord(api.request) && isRecord(api.request.example) ? api.request.example : {};
  if (request.languages !== undefined) out.examples = { languages: request.languages };
  const auth = isRecord(api.auth) ? api.auth : {};
  if (api.baseUrl !== undefined || auth.method !== undefined || auth.name !== undefined) {
    out.mdx = { ...(api.baseUrl !== undefined ? { server: api.baseUrl } : {}), ...(auth.method !== undefined || auth.name !== undefined ? { auth: pick(auth, ["method", "name"]) } : {}) };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function seoOf(config: Json): Json | undefined {
  const seo = isRecord(config.seo) ? config.seo : {};
  if (config.metadata === undefined && seo.indexHiddenPages === undefined) return undefined;
  return { ...(config.metadata !== undefined ? { metatags: config.metadata } : {}), indexing: seo.indexHiddenPages === true ? "all" : "navigable" };
}

function iconOf(d: Json): unknown {
  return d.icon !== undefined && d.iconType !== undefined ? { name: d.icon, style: d.iconType } : d.icon;
}

function anchorLooks(d: Json): Json {
  const color = typeof d.color === "string" ? d.color : isRecord(d.color) ? d.color.from : undefined;
  return { ...(d.icon !== undefined ? { icon: iconOf(d) } : {}), ...(color !== undefined ? { color: { light: color, dark: color } } : {}) };
}

function hidden(d: Json): Json {
  return d.isDefaultHidden !== undefined ? { hidden: d.isDefaultHidden } : {};
}

function pick(from: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

function isRecord(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isRemote(url: string | undefined): boolean {
  return url !== undefined && /^https?:\/\//.test(url);
}

/** A URL with a scheme (`https:`, `mailto:`): a link elsewhere, shown as one. */
function hasScheme(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url);
}

function leading(path: string): string {
  return path.startsWith("/") ? path : `/${path}`;
}

/** Whether `page` is under the folder `url` (`api/users` is under `api`, `apis` is not). */
function under(page: string, url: string): boolean {
  const folder = (p: string): string => leading(p.endsWith("/") ? p : `${p}/`);
  return folder(page).startsWith(folder(url));
}
