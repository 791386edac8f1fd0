import { sameLanguage } from "../languages.js";
import { toPagePath } from "../site-config.js";
import { firstPageOf, type NavGroupNode, type NavNode, type NavTree } from "./nav-tree.js";

/** What one reader may see, as `filterNavTree` asks it. */
export interface NavAudience {
  /** Whether the reader may read the page at this page path. */
  readonly readable: (pagePath: string) => boolean;
  /** Whether the reader is listed an operation's page at this page path (a file may take a
   *  generated page's path, and the entry stays the operation's); unset: `readable`. */
  readonly listedOperation?: (pagePath: string) => boolean;
  /** Whether a page exists at this page path (a link to a missing page restricts nothing). */
  readonly exists: (pagePath: string) => boolean;
  /** Versions and languages the reader may see (hidden ones included: hidden is not access). */
  readonly versions: readonly string[];
  readonly languages: readonly string[];
}

/**
 * The navigation as one reader sees it (`svc-mcp nav --groups`): pages and operations they may
 * not read are gone, and so is every element left without one (a tab, anchor, dropdown,
 * product, version, language or group whose pages are all restricted). An element that never
 * had a page (a link) restricts nothing and stays. `hidden` marks stay: hiding is not access,
 * and the author previewing a reader wants to see what their menus leave out.
 */
export function filterNavTree(tree: NavTree, audience: NavAudience): NavTree {
  const versions = tree.versions.filter((v) => audience.versions.includes(v.version));
  const languages = tree.languages.filter((l) => audience.languages.includes(l.language));
  const defaultVersion = tree.defaultVersion !== null && versions.some((v) => v.version === tree.defaultVersion) ? tree.defaultVersion : (versions[0]?.version ?? null);
  const defaultLanguage = tree.defaultLanguage !== null && languages.some((l) => l.language === tree.defaultLanguage) ? tree.defaultLanguage : (languages[0]?.language ?? null);
  const drilldown = tree.drilldown;

  // Own JSON paths of the elements and entries dropped, to number the rest as docs.json without them.
  const dropped: string[] = [];
  const filterItems = (items: readonly NavNode[]): NavNode[] => items.flatMap((item) => {
    const kept = filterNode(item);
    if (kept === undefined && ownsPath(item)) dropped.push(item.path);
    return kept === undefined ? [] : [kept];
  });

  const filterGroup = (group: NavGroupNode): NavGroupNode | undefined => {
    const items = filterItems(group.items);
    const root = group.root !== null && audience.readable(group.root) ? group.root : null;
    if (items.length === 0 && root === null) return hasPages(group) ? undefined : group;
    // A group whose root the reader may not read behaves as one without a root.
    const onSelect = root !== null ? group.onSelect : group.onSelect !== "open-root" ? group.onSelect : drilldown === true ? "open-first-page" : drilldown === false ? "toggle" : "theme-default";
    const firstPage = onSelect === "open-first-page" ? firstPageOf(items) : null;
    return { ...group, root, ...(root === null ? { directory: null } : {}), onSelect, firstPage, items };
  };

  function filterNode(node: NavNode): NavNode | undefined {
    switch (node.kind) {
      case "page":
        return audience.readable(node.page) ? node : undefined;
      case "operation":
        return node.page !== null && (audience.listedOperation ?? audience.readable)(node.page) ? node : undefined;
      case "group":
        return filterGroup(node);
      default: {
        if (node.kind === "version" && !audience.versions.includes(node.title)) return undefined;
        // The section's title is the code as written (`zh`); the audience's, the code the site first
        // wrote for the language (`cn`).
        if (node.kind === "language" && !audience.languages.some((l) => sameLanguage(l, node.title))) return undefined;
        const items = filterItems(node.items);
        if (items.length === 0 && hasPages(node)) return undefined;
        return { ...node, ...(node.kind === "version" ? { default: node.title === defaultVersion } : {}), items };
      }
    }
  }

  const globalAnchors = tree.globalAnchors.filter((a) => {
    if ((a.version !== undefined && !audience.versions.includes(a.version)) || (a.language !== undefined && !audience.languages.includes(a.language))) return false;
    if (a.external) return true;
    const page = toPagePath(a.href.split(/[?#]/)[0] ?? "");
    return !audience.exists(page) || audience.readable(page);
  });
  const items = filterItems(tree.items);
  const renumber = renumbering(dropped);
  return {
    ...tree,
    versions: versions.map((v) => ({ ...v, default: v.version === defaultVersion })),
    defaultVersion,
    languages: languages.map((l) => ({ ...l, default: l.language === defaultLanguage })),
    defaultLanguage,
    globalAnchors,
    items: items.map((item) => withPaths(item, renumber)),
    pages: tree.pages.filter((p) => audience.readable(p.page)).map((p) => ({ ...p, path: renumber(p.path) })),
  };
}

/** Whether a node's `path` is its own place in docs.json (a page generated from a whole spec, and
 *  its tag group, carry the path of the element they are listed under). */
function ownsPath(node: NavNode): boolean {
  return !((node.kind === "operation" && node.entry === null) || (node.kind === "group" && node.generated === true));
}

/**
 * JSON paths as in docs.json without the dropped elements and entries (`navigation.tabs[4]` is
 * `navigation.tabs[3]` when the reader may read nothing in `tabs[2]`): the paths of what is left
 * would otherwise say where restricted navigation sits and how much of it there is (adversary
 * round 14 F2), where the site with it deleted numbers them this way.
 */
function renumbering(dropped: readonly string[]): (path: string) => string {
  if (dropped.length === 0) return (path) => path;
  // By array (the path up to the index): the indexes dropped from it.
  const gone = new Map<string, number[]>();
  for (const path of dropped) {
    const m = /^(.*)\[(\d+)\]$/.exec(path);
    if (m === null) continue;
    const list = gone.get(m[1] as string) ?? [];
    list.push(Number(m[2]));
    gone.set(m[1] as string, list);
  }
  return (path) => {
    let out = "";
    let at = 0;
    for (const m of path.matchAll(/\[(\d+)\]/g)) {
      const index = Number(m[1]);
      const before = gone.get(path.slice(0, m.index)) ?? [];
      out += `${path.slice(at, m.index)}[${index - before.filter((i) => i < index).length}]`;
      at = m.index + m[0].length;
    }
    return out + path.slice(at);
  };
}

/** The node and those under it, with their paths renumbered. */
function withPaths(node: NavNode, renumber: (path: string) => string): NavNode {
  if (node.kind === "page" || node.kind === "operation") return { ...node, path: renumber(node.path) };
  return { ...node, path: renumber(node.path), items: node.items.map((item) => withPaths(item, renumber)) } as NavNode;
}

/** Whether any page or operation sits under a node (its group root included). */
function hasPages(node: NavNode): boolean {
  if (node.kind === "page" || node.kind === "operation") return true;
  if (node.kind === "group" && node.root !== null) return true;
  return node.items.some(hasPages);
}
