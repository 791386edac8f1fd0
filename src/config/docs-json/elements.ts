/**
 * The navigation element types, in one table: which array holds each, which key is its title,
 * and which child arrays it may hold. The walker, the rules and the builder all read this table.
 */

/** Arrays that hold navigation children, in the order the platform picks a root element when a
 *  site (wrongly) sets several. */
export const ROOT_ELEMENT_ORDER = ["products", "languages", "versions", "tabs", "dropdowns", "anchors", "groups", "pages"] as const;
export type RootKey = (typeof ROOT_ELEMENT_ORDER)[number];

/** Every key that holds child elements (`menu` only inside a tab). */
export const CHILD_KEYS = [...ROOT_ELEMENT_ORDER, "menu"] as const;
export type ChildKey = (typeof CHILD_KEYS)[number];

export type ElementKind = "product" | "language" | "version" | "tab" | "dropdown" | "anchor" | "item" | "group";

export interface ElementType {
  readonly kind: ElementKind;
  /** The array that holds elements of this kind (`tabs` for a tab). */
  readonly container: ChildKey;
  /** The key naming the element (`tab`), required. */
  readonly titleKey: string;
  /** How messages name it: "a tab", "a menu item". */
  readonly label: string;
  /** Child arrays this element may hold (one of them at a time). */
  readonly children: readonly ChildKey[];
}

const DIVISION_CHILDREN: readonly ChildKey[] = ["products", "languages", "versions", "tabs", "dropdowns", "anchors", "groups", "pages"];

export const ELEMENT_TYPES: Readonly<Record<ElementKind, ElementType>> = {
  // A product may hold a `menu` too: the specification places menus on tabs only, but real sites
  // (a product whose menu items hold dropdowns of tabs) use it and the platform renders it.
  product: { kind: "product", container: "products", titleKey: "product", label: "a product", children: [...DIVISION_CHILDREN, "menu"] },
  language: { kind: "language", container: "languages", titleKey: "language", label: "a language", children: DIVISION_CHILDREN },
  version: { kind: "version", container: "versions", titleKey: "version", label: "a version", children: DIVISION_CHILDREN },
  tab: { kind: "tab", container: "tabs", titleKey: "tab", label: "a tab", children: [...DIVISION_CHILDREN, "menu"] },
  dropdown: { kind: "dropdown", container: "dropdowns", titleKey: "dropdown", label: "a dropdown", children: DIVISION_CHILDREN },
  anchor: { kind: "anchor", container: "anchors", titleKey: "anchor", label: "an anchor", children: DIVISION_CHILDREN },
  item: { kind: "item", container: "menu", titleKey: "item", label: "a menu item", children: ["groups", "pages"] },
  group: { kind: "group", container: "groups", titleKey: "group", label: "a group", children: ["pages"] },
};

/** What a menu item may hold: under a tab, the specification's groups and pages; under a product
 *  (not in the specification) whatever a product may, as real sites nest dropdowns there. */
export function menuItemChildren(parentKind: ElementKind | undefined): readonly ChildKey[] {
  return parentKind === "product" ? DIVISION_CHILDREN : ELEMENT_TYPES.item.children;
}

/** The kind of object element an array holds (`pages` holds groups besides page strings). */
export const KIND_IN: Readonly<Record<ChildKey, ElementKind>> = {
  products: "product",
  languages: "language",
  versions: "version",
  tabs: "tab",
  dropdowns: "dropdown",
  anchors: "anchor",
  groups: "group",
  pages: "group",
  menu: "item",
};
