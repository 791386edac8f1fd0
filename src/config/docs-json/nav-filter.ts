import { toPagePath } from "../site-config.js";
import { firstPageOf, type NavGroupNode, type NavNode, type NavTree } from "./nav-tree.js";

/** What one reader may see, as `filterNavTree` asks it. */
export interface NavAudience {
  /** Whether the reader may read the page at this page path. */
  readonly readable: (pagePath: string) => boolean;
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

  const filterItems = (items: readonly NavNode[]): NavNode[] => items.flatMap((item) => {
    const kept = filterNode(item);
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
        return node.page !== null && audience.readable(node.page) ? node : undefined;
      case "group":
        return filterGroup(node);
      default: {
        if (node.kind === "version" && !audience.versions.includes(node.title)) return undefined;
        if (node.kind === "language" && !audience.languages.includes(node.title)) return undefined;
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
  return {
    ...tree,
    versions: versions.map((v) => ({ ...v, default: v.version === defaultVersion })),
    defaultVersion,
    languages: languages.map((l) => ({ ...l, default: l.language === defaultLanguage })),
    defaultLanguage,
    globalAnchors,
    items: filterItems(tree.items),
    pages: tree.pages.filter((p) => audience.readable(p.page)),
  };
}

/** Whether any page or operation sits under a node (its group root included). */
function hasPages(node: NavNode): boolean {
  if (node.kind === "page" || node.kind === "operation") return true;
  if (node.kind === "group" && node.root !== null) return true;
  return node.items.some(hasPages);
}
