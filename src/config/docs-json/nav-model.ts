import { CHILD_KEYS, type ChildKey, ELEMENT_TYPES, type ElementKind, KIND_IN, ROOT_ELEMENT_ORDER, type RootKey } from "./elements.js";
import { childPath } from "./json-path.js";
import { type SpecSource, specSources } from "./spec-source.js";
import { LanguageCodes } from "./language-codes.js";

/**
 * The navigation as a tree of elements and entries, each with what it inherits (version,
 * language, product, `openapi`, `directory`, breadcrumbs). Built tolerantly from the JSON value so
 * that validation can run every rule even when parts are malformed; the navigation builder reads
 * the same tree from the document as it can be read (`Validation.document`).
 */

/** The nearest `openapi` / `asyncapi` of an element: its own, or its closest ancestor's. */
export interface InheritedSpecs {
  readonly sources: readonly SpecSource[];
  /** JSON path of the `openapi` key that set them. */
  readonly path: string;
  /** JSON path of the element holding that key (`navigation` for the root). */
  readonly element: string;
}

export interface NavContext {
  readonly product?: string;
  readonly version?: string;
  /** The language as the site first writes it: a site that lists one language under two codes
   *  (`cn` and `zh`, `en` and `EN`) has one language, under the first (see `LanguageCodes`). */
  readonly language?: string;
  readonly openapi?: InheritedSpecs;
  readonly asyncapi?: InheritedSpecs;
  /** Effective `directory` value (as written; the schema checks it) and where it was set. */
  readonly directory?: { readonly value: unknown; readonly path: string };
  /** Titles of the elements from the outermost down to this one (versions and languages are
   *  selectors, not sections, and are left out). */
  readonly breadcrumbs: readonly string[];
  /** Under an element with `hidden: true` (this one or an ancestor): readers' navigation does not
   *  show it. */
  readonly hidden?: true;
  /** Under a hidden element that does not set `searchable: true`: search leaves its pages out
   *  (unless `seo.indexing: "all"`). */
  readonly unsearchable?: true;
}

export interface ElementNode {
  readonly type: "element";
  readonly kind: ElementKind;
  readonly path: string;
  readonly value: Readonly<Record<string, unknown>>;
  /** The title key's value when it is a string. */
  readonly title: string | undefined;
  readonly parent: ElementNode | undefined;
  /** 1 for a group whose parent is not a group (always expanded), 2+ for nested groups, 0 otherwise. */
  readonly groupDepth: number;
  /** What this element passes to its children (includes its own settings). */
  readonly context: NavContext;
  /** Child arrays present on the element, in the order docs.json writes them (an element with
   *  several kinds, as stagehand's dropdowns hold `pages` and `groups`, shows them in that order). */
  readonly childKeys: readonly ChildKey[];
  /** The key of an array the model does not know (`productGroups`) this element was found in, when
   *  it was: its pages are navigation, but the nesting rules do not judge a shape they cannot know. */
  readonly unknownContainer?: string;
  readonly children: readonly NavItem[];
  /** The group's `root` page, when it has one. */
  readonly rootEntry: EntryNode | undefined;
}

export interface EntryNode {
  readonly type: "entry";
  /** As written (`guides/setup`, `GET /users`). */
  readonly entry: string;
  readonly path: string;
  /** `pages` for a page list entry, `root` for a group's root page. */
  readonly via: "pages" | "root";
  readonly parent: ElementNode | undefined;
  readonly context: NavContext;
}

export type NavItem = ElementNode | EntryNode;

export interface NavModel {
  /** The `navigation` object, when it is one. */
  readonly navigation: Readonly<Record<string, unknown>> | undefined;
  /** Root element keys present, in precedence order; the first is used. */
  readonly rootKeys: readonly RootKey[];
  readonly rootKey: RootKey | undefined;
  /** What the root passes down (navigation-level `openapi`, `directory`). */
  readonly rootContext: NavContext;
  /** Children of the chosen root element key. */
  readonly items: readonly NavItem[];
  /** Every element and entry under the chosen root, in document order. */
  readonly elements: readonly ElementNode[];
  readonly entries: readonly EntryNode[];
}

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Read the navigation tree of a parsed docs.json (tolerant: malformed parts are skipped).
 * `unreadableRoot` says which root keys the schema refused as a whole (`"versions": 5`): they
 * come after the others, so that the root read is the one the server uses.
 */
export function readNavigation(doc: unknown, unreadableRoot: (key: RootKey) => boolean = () => false): NavModel {
  const navigation = isObject(doc) && isObject(doc.navigation) ? doc.navigation : undefined;
  const elements: ElementNode[] = [];
  const entries: EntryNode[] = [];
  const present = navigation === undefined ? [] : ROOT_ELEMENT_ORDER.filter((k) => navigation[k] !== undefined);
  const rootKeys = [...present.filter((k) => !unreadableRoot(k)), ...present.filter((k) => unreadableRoot(k))];
  const rootKey = rootKeys[0];
  const read: Reading = { elements, entries, languages: new LanguageCodes() };
  const rootContext = navigation === undefined ? { breadcrumbs: [] } : ownContext(navigation, "navigation", { breadcrumbs: [] }, undefined, read);
  const items: NavItem[] = [];
  if (navigation !== undefined && rootKey !== undefined) {
    readChildren(navigation[rootKey], rootKey, childPath("navigation", rootKey), undefined, rootContext, items, read);
  }
  return { navigation, rootKeys, rootKey, rootContext, items, elements, entries };
}

/** What one reading of a navigation collects as it goes. */
interface Reading {
  readonly elements: ElementNode[];
  readonly entries: EntryNode[];
  readonly languages: LanguageCodes;
}

/** The context an element passes down: the parent's, overridden by the element's own settings. */
function ownContext(value: Obj, path: string, parent: NavContext, kind: ElementKind | undefined, read: Reading): NavContext {
  const title = kind !== undefined ? value[ELEMENT_TYPES[kind].titleKey] : undefined;
  const ctx: { -readonly [K in keyof NavContext]: NavContext[K] } = { ...parent };
  if (typeof title === "string") {
    if (kind === "version") ctx.version = title;
    else if (kind === "language") ctx.language = read.languages.placed(title);
    else {
      if (kind === "product") ctx.product = title;
      ctx.breadcrumbs = [...parent.breadcrumbs, title];
    }
  }
  if (value.openapi !== undefined) {
    ctx.openapi = { sources: specSources(value.openapi, childPath(path, "openapi")), path: childPath(path, "openapi"), element: path };
  }
  if (value.asyncapi !== undefined) {
    ctx.asyncapi = { sources: specSources(value.asyncapi, childPath(path, "asyncapi")), path: childPath(path, "asyncapi"), element: path };
  }
  if (value.directory !== undefined) ctx.directory = { value: value.directory, path: childPath(path, "directory") };
  // `hidden` hides the element's whole subtree; `searchable` (the predecessor's opt-in on tabs
  // and groups, honoured on any element) keeps that subtree's pages in search. A hidden element
  // inside a searchable one decides for its own subtree.
  if (kind !== undefined && value.hidden === true) {
    ctx.hidden = true;
    if (value.searchable !== true) ctx.unsearchable = true;
  }
  return ctx;
}

function readChildren(
  array: unknown,
  key: ChildKey,
  path: string,
  parent: ElementNode | undefined,
  context: NavContext,
  out: NavItem[],
  read: Reading,
): void {
  if (!Array.isArray(array)) return;
  array.forEach((item, i) => {
    const itemPath = childPath(path, i);
    if (typeof item === "string") {
      // Only `pages` holds page strings; a string elsewhere is a schema error.
      if (key !== "pages") return;
      const entry: EntryNode = { type: "entry", entry: item, path: itemPath, via: "pages", parent, context };
      out.push(entry);
      read.entries.push(entry);
      return;
    }
    if (!isObject(item)) return;
    const node = readElement(item, KIND_IN[key], itemPath, parent, context, read);
    out.push(node);
  });
}

/** Kinds tried, in order, on an object in an array the model does not know. */
const TITLED_KINDS: readonly ElementKind[] = ["product", "language", "version", "tab", "dropdown", "anchor", "group", "item"];

/** The element kind of an object by its title key (`{"group": ...}` is a group), if any. */
function kindByTitle(value: Obj): ElementKind | undefined {
  return TITLED_KINDS.find((k) => typeof value[ELEMENT_TYPES[k].titleKey] === "string");
}

function readElement(
  value: Obj,
  kind: ElementKind,
  path: string,
  parent: ElementNode | undefined,
  parentContext: NavContext,
  read: Reading,
  unknownContainer?: string,
): ElementNode {
  const type = ELEMENT_TYPES[kind];
  const title = typeof value[type.titleKey] === "string" ? (value[type.titleKey] as string) : undefined;
  const context = ownContext(value, path, parentContext, kind, read);
  const childKeys = Object.keys(value).filter((k): k is ChildKey => (CHILD_KEYS as readonly string[]).includes(k) && value[k] !== undefined);
  const children: NavItem[] = [];
  const groupDepth = kind !== "group" ? 0 : parent !== undefined && parent.kind === "group" ? parent.groupDepth + 1 : 1;
  const node: ElementNode = {
    type: "element",
    kind,
    path,
    value,
    title,
    parent,
    groupDepth,
    context,
    childKeys,
    children,
    rootEntry: undefined,
    ...(unknownContainer !== undefined ? { unknownContainer } : {}),
  };
  read.elements.push(node);
  if (typeof value.root === "string") {
    const rootEntry: EntryNode = { type: "entry", entry: value.root, path: childPath(path, "root"), via: "root", parent: node, context };
    (node as { rootEntry: EntryNode | undefined }).rootEntry = rootEntry;
    read.entries.push(rootEntry);
  }
  for (const key of childKeys) readChildren(value[key], key, childPath(path, key), node, context, children, read);
  // Arrays under keys the model does not know (`productGroups: [{group, products: [...]}]`, a
  // platform feature the specification does not describe): their titled objects are read as
  // elements, so the pages inside are navigation (placed, searchable) rather than lost.
  for (const key of Object.keys(value)) {
    const array = value[key];
    if ((CHILD_KEYS as readonly string[]).includes(key) || !Array.isArray(array)) continue;
    array.forEach((item, i) => {
      if (!isObject(item)) return;
      const itemKind = kindByTitle(item);
      if (itemKind === undefined) return;
      children.push(readElement(item, itemKind, childPath(childPath(path, key), i), node, context, read, key));
    });
  }
  return node;
}
