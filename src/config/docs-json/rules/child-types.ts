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
 * `menu` belongs to tabs (and products: see `menuItemChildren`).
 */
export const childTypesRule: Rule = {
  codes: ["child-types", "menu-children", "group-children", "menu-placement"],
  check({ model, report }) {
    if (model.navigation?.menu !== undefined) {
      report({ path: "navigation.menu", at: "key", code: "menu-placement", message: `"menu" is only allowed on a tab or a product` });
    }
    for (const el of model.elements) {
      if (el.unknownContainer !== undefined) continue; // a shape the specification does not describe
      const type = ELEMENT_TYPES[el.kind];
      const children = el.kind === "item" ? menuItemChildren(el.parent?.kind) : type.children;
      const allowed = el.childKeys.filter((k) => children.includes(k));
      for (const key of el.childKeys) {
        if (children.includes(key)) continue;
        const path = childPath(el.path, key);
        if (key === "menu") report({ path, at: "key", code: "menu-placement", message: `"menu" is only allowed on a tab or a product, not on ${type.label}` });
        else if (el.kind === "item") report({ path, at: "key", code: "menu-children", message: `a menu item holds only groups, pages and external links; "${key}" is not allowed` });
        else report({ path, at: "key", code: "group-children", message: `a group holds only "pages" (nested groups go in "pages"); "${key}" is not allowed` });
      }
      if (allowed.length > 1) {
        report({ path: el.path, code: "child-types", message: `holds ${list(allowed)}; an element holds one type of child element only` });
      }
    }
  },
};

