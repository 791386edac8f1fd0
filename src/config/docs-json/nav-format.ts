import { visibleText } from "../visible-text.js";
import type { NavNode, NavTree } from "./nav-tree.js";

/** `svc-mcp nav` as text: a header with the site-wide settings, then the tree, two spaces a level;
 *  control characters escaped (`visibleText`), one line a node. */
export function formatNavTree(tree: NavTree): string {
  const lines: string[] = [tree.name === "" ? "(unnamed site)" : tree.name];
  if (tree.root !== null) {
    lines.push(`root: ${tree.root}${tree.ignoredRoots.length > 0 ? ` (ignored: ${tree.ignoredRoots.join(", ")})` : ""}`);
  }
  if (tree.versions.length > 0) {
    lines.push(`versions: ${tree.versions.map((v) => `${v.version}${v.default ? " (default)" : ""}${v.tag !== null ? ` [${v.tag}]` : ""}${v.hidden === true ? " (hidden)" : ""}`).join(", ")}`);
  }
  if (tree.languages.length > 0) {
    lines.push(`languages: ${tree.languages.map((l) => `${l.language}${l.default ? " (default)" : ""}${l.hidden === true ? " (hidden)" : ""}`).join(", ")}`);
  }
  if (tree.globalAnchors.length > 0) {
    const scope = (a: NavTree["globalAnchors"][number]): string => {
      const on = [a.language, a.version].filter((x) => x !== undefined);
      return on.length > 0 ? ` (${on.join(", ")})` : "";
    };
    lines.push(`global anchors: ${tree.globalAnchors.map((a) => `${a.anchor} -> ${a.href}${scope(a)}`).join(", ")}`);
  }
  lines.push(`eyebrows: ${tree.eyebrows ?? "theme default"}`);
  lines.push(`drilldown: ${tree.drilldown === null ? "theme default" : String(tree.drilldown)}`);
  if (tree.filter !== null) {
    const parts = [tree.filter.version !== null ? `version ${tree.filter.version}` : "", tree.filter.language !== null ? `language ${tree.filter.language}` : ""];
    lines.push(`showing: ${parts.filter((p) => p !== "").join(", ")}`);
  }
  lines.push("");
  for (const node of tree.items) formatNode(node, 0, lines);
  // Titles, entries and file names come from the repository (an operation's summary, a file
  // name): one with a line break or an escape sequence is written escaped, as `check` writes it.
  return `${lines.map(visibleText).join("\n")}\n`;
}

function formatNode(node: NavNode, depth: number, lines: string[]): void {
  const pad = "  ".repeat(depth);
  switch (node.kind) {
    case "page":
      lines.push(`${pad}${node.title}  ${node.page}${node.file === null ? "  (no file)" : ""}${node.hidden === true ? "  (hidden)" : ""}`);
      return;
    case "operation":
      // The entry is shown when the title (the operation's summary) does not already say it.
      const what = node.entry !== null && node.entry !== node.title ? node.entry : "operation";
      lines.push(`${pad}${node.title}  ${node.page ?? "(no page)"}  [${what}${node.spec !== null ? ` in ${node.spec}` : ""}]`);
      return;
    case "group": {
      const notes: string[] = [];
      if (node.generated === true) notes.push("generated from the spec");
      if (node.hidden === true) notes.push(hiddenNote(node));
      if (node.tag !== null) notes.push(`tag ${node.tag}`);
      if (node.root !== null) notes.push(`root ${node.root}`, `directory ${node.directory ?? "none"}`);
      if (!node.expanded) notes.push("collapsed");
      if (node.onSelect === "open-first-page" && node.firstPage !== null) notes.push(`opens ${node.firstPage}`);
      if (node.onSelect === "toggle") notes.push("toggles");
      if (node.openapi !== null) notes.push(`openapi ${node.openapi.join(", ")}`);
      lines.push(`${pad}group ${node.title}${notes.length > 0 ? `  (${notes.join("; ")})` : ""}`);
      for (const child of node.items) formatNode(child, depth + 1, lines);
      return;
    }
    default: {
      const notes: string[] = [];
      if (node.default === true) notes.push("default");
      if (node.hidden === true) notes.push(hiddenNote(node));
      if (node.tag !== undefined && node.tag !== null) notes.push(`tag ${node.tag}`);
      if (node.href !== null) notes.push(`link ${node.href}`);
      if (node.openapi !== null) notes.push(`openapi ${node.openapi.join(", ")}`);
      lines.push(`${pad}${node.kind === "item" ? "menu item" : node.kind} ${node.title}${notes.length > 0 ? `  (${notes.join("; ")})` : ""}`);
      for (const child of node.items) formatNode(child, depth + 1, lines);
    }
  }
}

/** How a hidden element is marked: hidden elements are shown (an author reads `nav` to see the
 *  whole configuration), marked, with whether search keeps their pages. */
function hiddenNote(node: { readonly searchable?: true }): string {
  return node.searchable === true ? "hidden, searchable" : "hidden";
}
