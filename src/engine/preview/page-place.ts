import type { NavGroupNode, NavNode, NavSection, NavTree } from "../../config/docs-json/nav-tree.js";
import { pageUrl } from "../../vfs/site.js";

/** A link of the preview's navigation. */
export interface NavLink {
  readonly title: string;
  readonly href: string;
  /** The page shown now, or the division it is in. */
  readonly current: boolean;
  /** An operation's method (`GET`), shown as a badge. */
  readonly method?: string;
  /** A link off the site (a tab or anchor with a URL). */
  readonly external?: boolean;
}

/** One level of divisions the page is in (its language, version, tab...): the reader's choices there. */
export interface Switcher {
  readonly kind: NavSection["kind"];
  readonly options: readonly NavLink[];
}

export type SidebarItem =
  | ({ readonly kind: "page" } & NavLink)
  | { readonly kind: "group"; readonly title: string; readonly open: boolean; readonly current: boolean; readonly root?: NavLink; readonly items: readonly SidebarItem[] };

/** Where a page sits in the navigation a reader sees, and what the page's frame shows around it. */
export interface PagePlace {
  /** Outermost first: languages, versions, products, tabs, anchors, dropdowns the page is under. */
  readonly switchers: readonly Switcher[];
  /** The groups and pages of the innermost division. */
  readonly sidebar: readonly SidebarItem[];
  /** `styling.eyebrows: breadcrumbs`: every element above the page; else its group alone. */
  readonly eyebrow: readonly string[];
  readonly previous?: NavLink;
  readonly next?: NavLink;
  readonly globalAnchors: readonly NavLink[];
  /** Whether navigation lists the page where readers see it (a hidden page is not). */
  readonly listed: boolean;
}

export interface PlaceOptions {
  /** The method of an API page (`GET`), for the sidebar's badge. */
  readonly methodOf?: (pagePath: string) => string | undefined;
}

/** A node with its ancestors' item lists, from the outermost. */
interface Trail {
  /** The sections and groups above the node, outermost first, each with the list it is in. */
  readonly above: readonly { readonly node: NavSection | NavGroupNode; readonly siblings: readonly NavNode[] }[];
}

/**
 * The page's place in the reader's navigation (`tree` as `navigationOfSite` gives it for that
 * reader): its divisions and the choices at each (each choice leads to the same page there when
 * it has one, else to its first page), the sidebar of its innermost division (groups open as
 * docs.json says, and the group holding the page), previous and next page in that sidebar, and
 * its eyebrow per `styling.eyebrows`. A page navigation does not list shows the default
 * divisions' sidebar; so does no page at all (`undefined`: the 404 page).
 */
export function pagePlace(tree: NavTree, pagePath: string | undefined, options: PlaceOptions = {}): PagePlace {
  // No page (the 404 page): the default divisions, nothing current.
  const current = pagePath === undefined ? NO_PAGE : normalize(pagePath);
  const found = pagePath === undefined ? undefined : findTrail(tree.items, current, []);
  const trail = found ?? defaultTrail(tree);
  const sections = trail.above.filter((a): a is { node: NavSection; siblings: readonly NavNode[] } => a.node.kind !== "group");
  const innermost = sections.at(-1)?.node;
  const switchers: Switcher[] = [];
  for (let i = 0; i < sections.length; i++) {
    const { node, siblings } = sections[i] as { node: NavSection; siblings: readonly NavNode[] };
    const options = siblings
      .filter((s): s is NavSection => s.kind === node.kind && s.hidden !== true)
      .map((s) => sectionLink(s, s === node, node, current));
    if (options.length > 0) switchers.push({ kind: node.kind, options });
  }
  const items = innermost?.items ?? tree.items;
  const sidebar = sidebarItems(items, current, options);
  const order = flatten(sidebar);
  const at = order.findIndex((l) => l.current);
  const listing = tree.pages.find((p) => normalize(p.page) === current);
  const crumbs = listing?.breadcrumbs ?? [];
  const eyebrow = tree.eyebrows === "breadcrumbs" ? crumbs : crumbs.slice(-1);
  const globalAnchors = tree.globalAnchors.map((a) => ({ title: a.anchor, href: a.href, current: false, ...(a.external ? { external: true } : {}) }));
  return {
    switchers,
    sidebar,
    eyebrow,
    ...(at > 0 ? { previous: order[at - 1] as NavLink } : {}),
    ...(at >= 0 && at < order.length - 1 ? { next: order[at + 1] as NavLink } : {}),
    globalAnchors,
    listed: found !== undefined && at >= 0,
  };
}

/** The path of no page (the 404 page's place): `\0` is in no page path. */
const NO_PAGE = "\0";

/** `/x/index` and `/x` are one page; `/index` is `/`. */
function normalize(path: string): string {
  if (path === "/index" || path === "") return "/";
  return path.endsWith("/index") ? path.slice(0, -"/index".length) : path;
}

function hrefOf(pagePath: string): string {
  return pageUrl("", pagePath) || "/";
}

/** The first listing of the page, depth first, with the sections and groups above it. */
function findTrail(items: readonly NavNode[], page: string, above: Trail["above"]): Trail | undefined {
  for (const item of items) {
    if (item.kind === "page" || item.kind === "operation") {
      if (item.page !== null && normalize(item.page) === page) return { above };
      continue;
    }
    if (item.kind === "group" && item.root !== null && normalize(item.root) === page) return { above: [...above, { node: item, siblings: items }] };
    const inner = findTrail(item.items, page, [...above, { node: item, siblings: items }]);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The divisions a reader lands in: at each level the default version or language, else the first shown. */
function defaultTrail(tree: NavTree): Trail {
  const above: { node: NavSection; siblings: readonly NavNode[] }[] = [];
  let items = tree.items;
  for (;;) {
    const shown = items.filter((i) => (i.kind === "operation" ? i.page !== null : i.hidden !== true));
    const sections = shown.filter((i): i is NavSection => i.kind !== "page" && i.kind !== "operation" && i.kind !== "group");
    // Only where every item shown is a division is one to be chosen (pages beside them stay in view).
    if (sections.length === 0 || sections.length !== shown.length) break;
    const chosen =
      sections.find((s) => (s.kind === "version" && s.title === tree.defaultVersion) || (s.kind === "language" && s.title === tree.defaultLanguage)) ?? (sections[0] as NavSection);
    above.push({ node: chosen, siblings: items });
    items = chosen.items;
  }
  return { above };
}

/** A division as a choice: the same page there when it has one, else its first page (or its link). */
function sectionLink(section: NavSection, current: boolean, from: NavSection, page: string): NavLink {
  // On the 404 page the current division leads to its first page: its link was `href="\0"`
  // (adversary round 32).
  if (current && page !== NO_PAGE) return { title: section.title, href: hrefOf(page), current: true };
  const pages = pagesUnder(section.items);
  const same = equivalentPage(pagesUnder(from.items), pages, page);
  const target = same ?? pages[0];
  if (target !== undefined) return { title: section.title, href: hrefOf(target), current };
  const href = section.href ?? "#";
  return { title: section.title, href, current, ...(/^[a-z][\w+.-]*:/i.test(href) ? { external: true } : {}) };
}

/**
 * The page of `to` that is `page` in another division: the same path once each division's own
 * first folder is set aside (`/zh/intro` for `/intro`, `/v3/act` for `/v4/act`); failing that,
 * the same path under another first folder, or with one added or taken away.
 */
function equivalentPage(from: readonly string[], to: readonly string[], page: string): string | undefined {
  const key = (path: string, prefix: string): string => (prefix === "" ? path : path === prefix ? "/" : path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path);
  // A path without its first folder (`/v4/act` -> `/act`); none for a path of one part.
  const tail = (path: string): string | undefined => (/^\/[^/]+\/./.test(path) ? path.replace(/^\/[^/]+/, "") : undefined);
  const wanted = key(page, commonFolder(from));
  const toPrefix = commonFolder(to);
  const targets = to.map(normalize);
  return (
    targets.find((p) => key(p, toPrefix) === wanted) ??
    targets.find((p) => tail(p) !== undefined && tail(p) === tail(page)) ??
    targets.find((p) => tail(p) === page || p === tail(page))
  );
}

/** The first folder every page of a division shares (`/zh`), or "". */
function commonFolder(pages: readonly string[]): string {
  // `/fr` is the folder of `/fr/index` (written `/fr`) as much as of `/fr/setup`.
  const first = pages.map((p) => /^\/[^/]+(?=\/|$)/.exec(normalize(p))?.[0]);
  const f = first[0];
  return f !== undefined && first.every((x) => x === f) ? f : "";
}

/** Every page under some items, in order, hidden ones left out, each once. */
function pagesUnder(items: readonly NavNode[]): string[] {
  const out: string[] = [];
  const visit = (list: readonly NavNode[]): void => {
    for (const item of list) {
      if (item.kind === "page") {
        if (item.hidden !== true) out.push(normalize(item.page));
      } else if (item.kind === "operation") {
        if (item.page !== null) out.push(normalize(item.page));
      } else if (item.hidden !== true) {
        if (item.kind === "group" && item.root !== null) out.push(normalize(item.root));
        visit(item.items);
      }
    }
  };
  visit(items);
  return [...new Set(out)];
}

function sidebarItems(items: readonly NavNode[], page: string, options: PlaceOptions): SidebarItem[] {
  const out: SidebarItem[] = [];
  for (const item of items) {
    if (item.kind === "page") {
      if (item.hidden === true) continue;
      out.push({ kind: "page", title: item.title, href: hrefOf(item.page), current: normalize(item.page) === page });
    } else if (item.kind === "operation") {
      if (item.page === null) continue;
      const method = options.methodOf?.(item.page) ?? (/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK)\b/i.exec(item.entry ?? "")?.[1]?.toUpperCase() ?? undefined);
      out.push({ kind: "page", title: item.title, href: hrefOf(item.page), current: normalize(item.page) === page, ...(method !== undefined ? { method } : {}) });
    } else if (item.hidden === true) {
      continue;
    } else if (item.kind === "group") {
      const inner = sidebarItems(item.items, page, options);
      const root = item.root !== null ? { title: item.title, href: hrefOf(item.root), current: normalize(item.root) === page } : undefined;
      const current = root?.current === true || containsCurrent(inner);
      out.push({ kind: "group", title: item.title, open: item.expanded || current, current, ...(root !== undefined ? { root } : {}), items: inner });
    } else {
      // A division inside the sidebar's own (rare): a link to its first page.
      const first = pagesUnder(item.items)[0];
      if (first !== undefined) out.push({ kind: "page", title: item.title, href: hrefOf(first), current: false });
    }
  }
  return out;
}

function containsCurrent(items: readonly SidebarItem[]): boolean {
  return items.some((i) => i.current || (i.kind === "group" && containsCurrent(i.items)));
}

/** The sidebar's pages in reading order (group roots first), each once. */
function flatten(items: readonly SidebarItem[]): NavLink[] {
  const out: NavLink[] = [];
  const seen = new Set<string>();
  const add = (l: NavLink): void => {
    if (seen.has(l.href)) return;
    seen.add(l.href);
    out.push(l);
  };
  const visit = (list: readonly SidebarItem[]): void => {
    for (const i of list) {
      if (i.kind === "page") add({ title: i.title, href: i.href, current: i.current, ...(i.method !== undefined ? { method: i.method } : {}) });
      else {
        if (i.root !== undefined) add(i.root);
        visit(i.items);
      }
    }
  };
  visit(items);
  return out;
}
