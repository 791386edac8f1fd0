import { titleFromPath } from "../page-meta.js";
import { toPagePath } from "../site-config.js";
import type { RootKey } from "./elements.js";
import { defaultResolveEntry, entryScope, type ResolveEntry } from "./entries.js";
import type { ElementNode, EntryNode, NavItem, NavModel } from "./nav-model.js";
import type { ReadableDocsJson } from "./readable.js";
import type { Directory } from "./schema.js";

/**
 * The resolved navigation, as `svc-mcp nav --json` prints it: what a reader of the site sees,
 * with every inherited setting worked out.
 */
export interface NavTree {
  readonly name: string;
  /** The root element used, and the ones ignored (a warning in `check`). */
  readonly root: RootKey | null;
  readonly ignoredRoots: readonly RootKey[];
  readonly versions: readonly NavVersion[];
  /** The first version, unless one sets `default: true`. */
  readonly defaultVersion: string | null;
  readonly languages: readonly NavLanguage[];
  readonly defaultLanguage: string | null;
  /** `navigation.global.anchors`: shown on every page. */
  readonly globalAnchors: readonly NavGlobalAnchor[];
  /** `styling.eyebrows` (`breadcrumbs` shows each page's `breadcrumbs`); null when unset. */
  readonly eyebrows: "breadcrumbs" | "section" | null;
  /** `interaction.drilldown`; null when unset (the theme decides). */
  readonly drilldown: boolean | null;
  /** The filters applied (`--version`, `--language`), null when none. */
  readonly filter: { readonly version: string | null; readonly language: string | null } | null;
  readonly items: readonly NavNode[];
  /** Every page in the navigation once, with where it sits. */
  readonly pages: readonly NavPage[];
}

export interface NavVersion {
  readonly version: string;
  readonly default: boolean;
  readonly tag: string | null;
  /** Set (true) when the version has `hidden: true`: not in the version selector. */
  readonly hidden?: true;
}

export interface NavLanguage {
  readonly language: string;
  readonly default: boolean;
  readonly banner: unknown;
  readonly footer: unknown;
  readonly navbar: unknown;
  /** Set (true) when the language has `hidden: true`: not in the language selector. */
  readonly hidden?: true;
}

export interface NavGlobalAnchor {
  readonly anchor: string;
  readonly href: string;
  readonly icon: unknown;
  /** True for a link off the site (a URL), false for a path inside it. */
  readonly external: boolean;
  /** Set when the anchor is written on a language (`navigation.languages[i].global`): it shows
   *  on that language's pages only. Absent for `navigation.global`. */
  readonly language?: string;
  /** Likewise for an anchor written on a version. */
  readonly version?: string;
}

export type NavNode = NavSection | NavGroupNode | NavPageNode | NavOperationNode;

export interface NavSection {
  readonly kind: "product" | "language" | "version" | "tab" | "dropdown" | "anchor" | "item";
  readonly title: string;
  /** JSON path in docs.json. */
  readonly path: string;
  readonly icon: unknown;
  readonly href: string | null;
  readonly description: string | null;
  /** Versions: badge label and whether it is the default. */
  readonly tag?: string | null;
  readonly default?: boolean;
  /** Own `openapi` sources (children inherit them). */
  readonly openapi: readonly string[] | null;
  /** Set (true) when the element has `hidden: true`: readers do not see it or anything under
   *  it, and search leaves the pages under it out unless `searchable` (or `seo.indexing: all`). */
  readonly hidden?: true;
  /** Set (true) with `hidden` when the element sets `searchable: true`. */
  readonly searchable?: true;
  readonly items: readonly NavNode[];
}

export interface NavGroupNode {
  readonly kind: "group";
  readonly title: string;
  readonly path: string;
  readonly icon: unknown;
  readonly tag: string | null;
  /** Page path opened when the group title is selected. */
  readonly root: string | null;
  /** Effective: top-level groups always expand; nested ones when `expanded: true`. */
  readonly expanded: boolean;
  /** Effective `directory` (inherited, overridable); null for a group without a `root` (no effect). */
  readonly directory: Directory | null;
  /** What selecting the group does: `open-root` (it has a root), `open-first-page` (drilldown
   *  true), `toggle` (drilldown false) or `theme-default` (drilldown unset). */
  readonly onSelect: "open-root" | "open-first-page" | "toggle" | "theme-default";
  /** The page `open-first-page` goes to. */
  readonly firstPage: string | null;
  readonly openapi: readonly string[] | null;
  /** True for a tag group of pages generated from a whole spec (not written in docs.json). */
  readonly generated?: boolean;
  /** As on a section. */
  readonly hidden?: true;
  readonly searchable?: true;
  readonly items: readonly NavNode[];
}

export interface NavPageNode {
  readonly kind: "page";
  /** Page path (`/guides/setup`), the link of the page on the site. */
  readonly page: string;
  readonly title: string;
  /** Repository-relative file, null when none was found (`svc-mcp check` reports it). */
  readonly file: string | null;
  /** Set (true) when the page's front matter says `hidden: true`. */
  readonly hidden?: true;
  readonly path: string;
}

export interface NavOperationNode {
  readonly kind: "operation";
  /** As written (`GET /users`, `openapi.yaml GET /users`); null for a page generated from a
   *  whole spec (an element with `openapi` and no entries for it). */
  readonly entry: string | null;
  /** The operation's summary when the API reference knows it, else the entry. */
  readonly title: string;
  /** Its generated page (`/api-reference/users/list-users`), null when none is generated. */
  readonly page: string | null;
  /** The spec it is looked up in (the nearest `openapi`), null when none. */
  readonly spec: string | null;
  /** JSON path of the entry, or of the element a whole-spec page is listed under. */
  readonly path: string;
}

/** A page the API reference generated from a whole spec, listed under an element. */
export interface GeneratedNavPage {
  readonly page: string;
  readonly title: string;
  /** The spec file it is made from; the element's first when unsaid. */
  readonly spec?: string;
  /** The tag group it is listed in (the operation's first tag). */
  readonly group?: string;
}

export interface NavPage {
  readonly page: string;
  readonly title: string;
  readonly file: string | null;
  /** Versions the page is listed under; null when it sits under no version (in every version). */
  readonly versions: readonly string[] | null;
  /** Languages the page is listed under; null when under none (in every language). */
  readonly languages: readonly string[] | null;
  /** Titles of the elements above its first listing, outermost first (for `eyebrows: breadcrumbs`). */
  readonly breadcrumbs: readonly string[];
  /** JSON path of its first listing. */
  readonly path: string;
  /** Set (true) when readers' navigation shows the page nowhere: its front matter says
   *  `hidden: true`, or every listing is under a hidden element. */
  readonly hidden?: true;
  /** Set (true) with `hidden` when search keeps the page all the same: a listing is under a
   *  hidden element with `searchable: true` (front matter `hidden` is never searchable). */
  readonly searchable?: true;
}

export interface NavTreeOptions {
  /** Front matter title of a page, when it has one. */
  readonly titleOf?: (pagePath: string) => string | undefined;
  /** The file of a page path. */
  readonly fileOf?: (pagePath: string) => string | undefined;
  readonly resolveEntry?: ResolveEntry;
  readonly fallbackName?: string;
  /** Pages the API reference generated from a whole spec under an element (by its JSON path). */
  readonly generatedUnder?: (elementPath: string) => readonly GeneratedNavPage[];
  /** Whether a page's front matter says `hidden: true`. */
  readonly hiddenPage?: (pagePath: string) => boolean;
  /** Keep only this version's part of the tree (and what sits under no version). */
  readonly version?: string;
  readonly language?: string;
}

/** Build the resolved navigation of docs.json as it can be read (see `ReadableDocsJson`): where
 *  each page sits, then the tree (filtered), the selectors, the global anchors, the pages. */
export function buildNavTree(doc: ReadableDocsJson, model: NavModel, options: NavTreeOptions = {}): NavTree {
  const settings = readSettings(doc, options.fallbackName ?? "");
  const keep = (el: ElementNode): boolean =>
    !((el.kind === "version" && options.version !== undefined && el.title !== options.version) ||
      (el.kind === "language" && options.language !== undefined && el.context.language !== options.language));
  const pages = pageListings(model, options);
  const converter = new TreeConverter(options, settings.drilldown, pages, keep);
  const items = converter.convert(model.items);
  const { versions, defaultVersion, languages, defaultLanguage } = selectorsOf(model);
  markDefaults(items, defaultVersion);
  return {
    name: settings.name,
    root: model.rootKey ?? null,
    ignoredRoots: model.rootKeys.slice(1),
    versions,
    defaultVersion,
    languages,
    defaultLanguage,
    globalAnchors: globalAnchorsOf(settings.anchors, model, keep),
    eyebrows: settings.eyebrows,
    drilldown: settings.drilldown,
    filter: options.version !== undefined || options.language !== undefined ? { version: options.version ?? null, language: options.language ?? null } : null,
    items,
    pages: shownPages(pages, converter.shown, options),
  };
}

/** The site-wide settings `nav` shows, each read on its own (a wrong one is left out by then). */
function readSettings(doc: ReadableDocsJson, fallbackName: string): { name: string; drilldown: boolean | null; eyebrows: NavTree["eyebrows"]; anchors: AnchorValue[] } {
  const obj = (v: unknown): Readonly<Record<string, unknown>> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const drilldown = obj(doc.interaction).drilldown;
  const eyebrows = obj(doc.styling).eyebrows;
  const anchors = obj(obj(doc.navigation).global).anchors;
  return {
    name: typeof doc.name === "string" && doc.name.trim() !== "" ? doc.name.trim() : fallbackName,
    drilldown: typeof drilldown === "boolean" ? drilldown : null,
    eyebrows: eyebrows === "breadcrumbs" || eyebrows === "section" ? eyebrows : null,
    anchors: Array.isArray(anchors) ? anchors.filter(isAnchor) : [],
  };
}

type AnchorValue = { anchor: string; href: string; icon?: unknown };

function isAnchor(v: unknown): v is AnchorValue {
  return typeof v === "object" && v !== null && typeof (v as AnchorValue).anchor === "string" && typeof (v as AnchorValue).href === "string";
}

/** Where each page sits, taken from the whole navigation whatever the filter. */
function pageListings(model: NavModel, options: NavTreeOptions): Map<string, PageListing> {
  const resolveEntry = options.resolveEntry ?? defaultResolveEntry;
  const pages = new Map<string, PageListing>();
  for (const e of model.entries) {
    if (e.entry.trim() === "" || resolveEntry(e.entry, entryScope(e.context, e.path)).kind === "operation") continue;
    const page = toPagePath(e.entry);
    addPage(pages, { page, title: options.titleOf?.(page) ?? titleFromPath(page), file: options.fileOf?.(page) ?? null, breadcrumbs: e.context.breadcrumbs, path: e.path }, e);
  }
  return pages;
}

/** Model items to tree nodes, the filter applied; records the pages the filtered tree shows. */
class TreeConverter {
  /** Pages in the (filtered) tree, with their first listing there: in `--version v2`, a page's
   *  breadcrumbs are those of its place in v2. */
  readonly shown = new Map<string, { breadcrumbs: readonly string[]; path: string }>();
  private readonly resolveEntry: ResolveEntry;

  constructor(
    private readonly options: NavTreeOptions,
    private readonly drilldown: boolean | null,
    private readonly pages: ReadonlyMap<string, PageListing>,
    private readonly keep: (el: ElementNode) => boolean,
  ) {
    this.resolveEntry = options.resolveEntry ?? defaultResolveEntry;
  }

  convert(items: readonly NavItem[]): NavNode[] {
    const out: NavNode[] = [];
    for (const item of items) {
      if (item.type === "entry") out.push(this.pageNode(item));
      else if (this.keep(item)) out.push(this.elementNode(item));
    }
    return out;
  }

  private pageNode(e: EntryNode): NavPageNode | NavOperationNode {
    const resolution = this.resolveEntry(e.entry, entryScope(e.context, e.path));
    if (resolution.kind === "operation") {
      return {
        kind: "operation",
        entry: e.entry,
        title: resolution.title ?? e.entry,
        page: resolution.page ?? null,
        spec: resolution.spec ?? e.context.openapi?.sources[0]?.source ?? null,
        path: e.path,
      };
    }
    const page = toPagePath(e.entry);
    if (!this.shown.has(page)) this.shown.set(page, { breadcrumbs: e.context.breadcrumbs, path: e.path });
    const info = this.pages.get(page)?.page;
    const hidden = this.options.hiddenPage?.(page) === true;
    return { kind: "page", page, title: info?.title ?? titleFromPath(page), file: info?.file ?? null, path: e.path, ...(hidden ? { hidden } : {}) };
  }

  private onSelect(root: string | null): NavGroupNode["onSelect"] {
    if (root !== null) return "open-root";
    return this.drilldown === true ? "open-first-page" : this.drilldown === false ? "toggle" : "theme-default";
  }

  /** Whole-spec pages under an element: in tag groups, in the order the API reference lists them. */
  private generatedNodes(el: ElementNode): NavNode[] {
    const spec = el.context.openapi?.sources[0]?.source ?? null;
    const op = (g: GeneratedNavPage): NavOperationNode => ({ kind: "operation", entry: null, title: g.title, page: g.page, spec: g.spec ?? spec, path: el.path });
    const out: NavNode[] = [];
    const groups = new Map<string, NavOperationNode[]>();
    for (const g of this.options.generatedUnder?.(el.path) ?? []) {
      if (g.group === undefined) {
        out.push(op(g));
        continue;
      }
      let list = groups.get(g.group);
      if (list === undefined) {
        list = [];
        groups.set(g.group, list);
        const onSelect = this.onSelect(null);
        out.push({
          kind: "group",
          title: g.group,
          path: el.path,
          icon: null,
          tag: null,
          root: null,
          expanded: false,
          directory: null,
          onSelect,
          firstPage: onSelect === "open-first-page" ? g.page : null,
          openapi: null,
          generated: true,
          items: list,
        });
      }
      list.push(op(g));
    }
    return out;
  }

  private elementNode(el: ElementNode): NavNode {
    const v = el.value;
    const openapi = el.context.openapi !== undefined && el.context.openapi.element === el.path ? el.context.openapi.sources.map((s) => s.source) : null;
    const items = (): NavNode[] => [...this.convert(el.children), ...this.generatedNodes(el)];
    if (el.kind === "group") {
      const rootNode = el.rootEntry !== undefined ? this.pageNode(el.rootEntry) : undefined;
      const root = rootNode === undefined ? null : rootNode.page;
      const children = items();
      const onSelect = this.onSelect(root);
      return {
        kind: "group",
        title: el.title ?? "",
        path: el.path,
        icon: v.icon ?? null,
        tag: typeof v.tag === "string" ? v.tag : null,
        root,
        expanded: el.groupDepth <= 1 || v.expanded === true,
        directory: root !== null ? ((el.context.directory?.value as Directory | undefined) ?? "none") : null,
        onSelect,
        firstPage: onSelect === "open-first-page" ? firstPageOf(children) : null,
        openapi,
        ...hiddenOf(el),
        items: children,
      };
    }
    return {
      kind: el.kind,
      title: el.title ?? "",
      path: el.path,
      icon: v.icon ?? null,
      href: typeof v.href === "string" ? v.href : null,
      description: typeof v.description === "string" ? v.description : null,
      ...(el.kind === "version" ? { tag: typeof v.tag === "string" ? v.tag : null, default: false } : {}),
      openapi,
      ...hiddenOf(el),
      items: items(),
    };
  }
}

/** Every version and language in docs.json (whatever the filter), with the defaults. */
function selectorsOf(model: NavModel): { versions: NavVersion[]; defaultVersion: string | null; languages: NavLanguage[]; defaultLanguage: string | null } {
  const versions: NavVersion[] = [];
  const languages: NavLanguage[] = [];
  for (const el of model.elements) {
    if (el.title === undefined) continue;
    const hidden = el.value.hidden === true ? { hidden: true as const } : {};
    if (el.kind === "version" && !versions.some((x) => x.version === el.title)) {
      versions.push({ version: el.title, default: el.value.default === true, tag: typeof el.value.tag === "string" ? el.value.tag : null, ...hidden });
    }
    // A language listed under two codes (`cn`, `zh`) is one, under its first (`NavContext.language`).
    const language = el.context.language;
    if (el.kind === "language" && language !== undefined && !languages.some((x) => x.language === language)) {
      languages.push({ language, default: el.value.default === true, banner: el.value.banner ?? null, footer: el.value.footer ?? null, navbar: el.value.navbar ?? null, ...hidden });
    }
  }
  const defaultVersion = (versions.find((x) => x.default) ?? versions[0])?.version ?? null;
  const defaultLanguage = (languages.find((x) => x.default) ?? languages[0])?.language ?? null;
  return {
    versions: versions.map((x) => ({ ...x, default: x.version === defaultVersion })),
    defaultVersion,
    languages: languages.map((x) => ({ ...x, default: x.language === defaultLanguage })),
    defaultLanguage,
  };
}

/** `navigation.global.anchors`, then the anchors real multi-language sites write in a
 *  language's (or version's) own `global`: those show on its pages only, and follow the filter. */
function globalAnchorsOf(siteAnchors: readonly AnchorValue[], model: NavModel, keep: (el: ElementNode) => boolean): NavGlobalAnchor[] {
  const anchor = (a: AnchorValue, where: { language?: string; version?: string }): NavGlobalAnchor => ({
    anchor: a.anchor,
    href: a.href,
    icon: a.icon ?? null,
    external: /^[a-z][a-z0-9+.-]*:|^\/\//i.test(a.href),
    ...where,
  });
  const out = siteAnchors.map((a) => anchor(a, {}));
  for (const el of model.elements) {
    if ((el.kind !== "language" && el.kind !== "version") || el.title === undefined || !keep(el)) continue;
    const own = (el.value.global as { anchors?: unknown } | undefined)?.anchors;
    if (!Array.isArray(own)) continue;
    const where = { ...(el.context.language !== undefined ? { language: el.context.language } : {}), ...(el.context.version !== undefined ? { version: el.context.version } : {}) };
    if (el.parent !== undefined && [...ancestors(el)].some((p) => !keep(p))) continue;
    for (const a of own) if (isAnchor(a)) out.push(anchor(a, where));
  }
  return out;
}

/** `pages[]`: every page the (filtered) tree shows, once, with where docs.json lists it. */
function shownPages(pages: ReadonlyMap<string, PageListing>, shown: ReadonlyMap<string, { breadcrumbs: readonly string[]; path: string }>, options: NavTreeOptions): NavPage[] {
  return [...pages.values()]
    .filter(({ page }) => shown.has(page.page))
    .map(({ page, versions: vs, languages: ls, hidden, unsearchable }) => ({
      page: page.page,
      title: page.title,
      file: page.file,
      versions: vs === null ? null : [...vs],
      languages: ls === null ? null : [...ls],
      breadcrumbs: shown.get(page.page)?.breadcrumbs ?? page.breadcrumbs,
      path: shown.get(page.page)?.path ?? page.path,
      ...hiddenPageFlags(hidden, unsearchable, options.hiddenPage?.(page.page) === true),
    }));
}

/** The elements above one, nearest first. */
function* ancestors(el: ElementNode): Generator<ElementNode> {
  for (let p = el.parent; p !== undefined; p = p.parent) yield p;
}

/** `hidden` / `searchable` of an element node, when it sets `hidden: true`. */
function hiddenOf(el: ElementNode): { hidden?: true; searchable?: true } {
  if (el.value.hidden !== true) return {};
  return el.value.searchable === true ? { hidden: true, searchable: true } : { hidden: true };
}

/** `hidden` / `searchable` of a page in `pages[]`. */
function hiddenPageFlags(listedHidden: boolean, unsearchable: boolean, ownHidden: boolean): { hidden?: true; searchable?: true } {
  if (ownHidden) return { hidden: true };
  if (!listedHidden) return {};
  return unsearchable ? { hidden: true } : { hidden: true, searchable: true };
}

/** Where a page is listed, gathered over the whole navigation. */
interface PageListing {
  page: NavPage;
  versions: Set<string> | null;
  languages: Set<string> | null;
  /** Every listing so far is under a hidden element. */
  hidden: boolean;
  /** Every listing so far is under a hidden element without `searchable: true`. */
  unsearchable: boolean;
}

/** Record a page listing; a page in several scopes belongs to their union ("every" wins), and
 *  is hidden only when hidden in every listing. */
function addPage(pages: Map<string, PageListing>, info: Omit<NavPage, "versions" | "languages">, e: EntryNode): void {
  const prev = pages.get(info.page);
  const v = e.context.version;
  const l = e.context.language;
  if (prev === undefined) {
    pages.set(info.page, {
      page: { ...info, versions: null, languages: null },
      versions: v === undefined ? null : new Set([v]),
      languages: l === undefined ? null : new Set([l]),
      hidden: e.context.hidden === true,
      unsearchable: e.context.unsearchable === true,
    });
    return;
  }
  prev.hidden &&= e.context.hidden === true;
  prev.unsearchable &&= e.context.unsearchable === true;
  if (prev.versions !== null) {
    if (v === undefined) prev.versions = null;
    else prev.versions.add(v);
  }
  if (prev.languages !== null) {
    if (l === undefined) prev.languages = null;
    else prev.languages.add(l);
  }
}

/** The page a group opens when it has no root: its first page, operation or group root. */
export function firstPageOf(items: readonly NavNode[]): string | null {
  for (const item of items) {
    if (item.kind === "page" || item.kind === "operation") {
      if (item.page !== null) return item.page;
      continue;
    }
    const inner = item.kind === "group" && item.root !== null ? item.root : firstPageOf(item.items);
    if (inner !== null) return inner;
  }
  return null;
}

function markDefaults(items: NavNode[], defaultVersion: string | null): void {
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as NavNode;
    if (item.kind === "version") items[i] = { ...item, default: item.title === defaultVersion };
    if (item.kind !== "page" && item.kind !== "operation") markDefaults(item.items as NavNode[], defaultVersion);
  }
}
