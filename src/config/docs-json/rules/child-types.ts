import { ELEMENT_TYPES, menuItemChildren } from "../elements.js";
import { childPath } from "../json-path.js";
import type { Rule } from "./rule.js";

const list = (keys: readonly string[]): string => {
  const q = keys.map((k) => `"${k}"`);
  return q.length === 2 ? `both ${q[0]} and ${q[1]}` : `${q.slice(0, -1).join(", ")} and ${q.at(-1)}`;
};

/**
 * The nesting rule: at each level an element holds one type of child element; a menu item holds
 * only groups, pages and external links; a group holds pages (nested groups go in `pages`);
 * `menu` belongs to tabs (and products: see `menuItemChildren`). Real sites deployed on the
 * platform break each of these (stagehand's dropdowns hold both `pages` and `groups`), so each is
 * a warning and what is written is read all the same: every child array, in the order written.
 * A `menu` on the navigation itself is no element's, and is ignored.
 */
export const childTypesRule: Rule = {
  codes: ["child-types", "menu-children", "group-children", "menu-placement"],
  check({ model, report }) {
    const warn = (path: string, code: string, message: string, at?: "key"): void =>
      report({ path, ...(at !== undefined ? { at } : {}), code, severity: "warning", message });
    if (model.navigation?.menu !== undefined) {
      warn("navigation.menu", "menu-placement", `"menu" is only allowed on a tab or a product; it is ignored here`, "key");
    }
    for (const el of model.elements) {
      if (el.unknownContainer !== undefined) continue; // a shape the specification does not describe
      const type = ELEMENT_TYPES[el.kind];
      const children = el.kind === "item" ? menuItemChildren(el.parent?.kind) : type.children;
      const allowed = el.childKeys.filter((k) => children.includes(k));
      for (const key of el.childKeys) {
        if (children.includes(key)) continue;
        const path = childPath(el.path, key);
        if (key === "menu") warn(path, "menu-placement", `"menu" is only allowed on a tab or a product, not on ${type.label}; it is read all the same`, "key");
        else if (el.kind === "item") warn(path, "menu-children", `a menu item holds only groups, pages and external links; "${key}" is read all the same`, "key");
        else warn(path, "group-children", `a group holds only "pages" (nested groups go in "pages"); "${key}" is read all the same`, "key");
      }
      if (allowed.length > 1) {
        warn(el.path, "child-types", `holds ${list(allowed)}; the specification allows one type of child element per level (all are read, in the order written)`);
      }
    }
  },
};
