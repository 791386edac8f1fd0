import { z } from "zod";
import { LANGUAGES, codesOf } from "../languages.js";
import { PLAYGROUND_DISPLAYS } from "./playground-displays.js";

/**
 * The docs.json model: one zod schema from which the TypeScript types, the structural validation
 * and the JSON Schema (`svc-mcp schema`) all come. Every object is loose: keys the specification
 * does not describe (theme, colors, fonts, redirects, ...) are kept and never rejected.
 * Rules that need more than one value at a time (one root element, one child type per level,
 * reserved paths, duplicates, files on disk) live in `rules/`.
 */

export const DIRECTORY_VALUES = ["none", "accordion", "card"] as const;
export type Directory = (typeof DIRECTORY_VALUES)[number];

export { PLAYGROUND_DISPLAYS };

const icon = z
  .union([z.string(), z.looseObject({ name: z.string().optional(), library: z.string().optional(), style: z.string().optional() })])
  .describe("Icon name (e.g. `rocket`), a path or URL to an image, or `{name, library, style}`");

const directory = z
  .enum(DIRECTORY_VALUES)
  .describe("Directory listing on group root pages: `none` (default), `accordion` or `card`. Inherited by descendants, which may override; only affects groups that have a `root` page");

/** `{source, directory}`: a spec plus the folder its generated pages go in. */
export const specSourceObject = z.looseObject({
  source: z.string().min(1).describe("Path (repository-relative) or URL of the spec file"),
  directory: z.string().optional().describe("Folder the generated operation pages go in (no leading slash)"),
});

/** `openapi` / `asyncapi`: a path or URL, a `{source, directory}` object, or an array of them. */
export const specRef = z
  .union([z.string().min(1), specSourceObject, z.array(z.union([z.string().min(1), specSourceObject]))])
  .describe("OpenAPI/AsyncAPI spec for this element and its children (unless they set their own): a path, a URL, `{source, directory}`, or an array of these");
export type SpecRef = z.infer<typeof specRef>;

const href = z.string().describe("Link: an external URL, or a path inside the site");

/** `hidden` and `searchable`, on every navigation element (not on the navigation itself). */
const hidden = z.boolean().describe("`true` leaves this element and everything under it out of the navigation readers see, and its pages out of search (unless `searchable` or `seo.indexing: \"all\"`); the pages stay readable by URL");
const searchable = z.boolean().describe("With `hidden: true`: keep the pages under this element in search");

/** A page entry that is a string: a page path (`guides/setup`) or an operation (`GET /users`,
 *  `spec.yaml GET /users`). The other kind of entry is a nested group. */
const pagePath = z
  .string()
  .min(1)
  .describe("Page path without extension (`guides/setup`), or an API operation (`GET /users`, `openapi.yaml GET /users`)");

export const group = z
  .looseObject({
    group: z.string().describe("Group title shown in the sidebar"),
    get pages() {
      return z.array(z.union([pagePath, group])).optional().describe("Pages and nested groups, in order (required unless the group sets `openapi`)");
    },
    icon: icon.optional(),
    tag: z.string().optional().describe("Badge label shown beside the group title"),
    root: z.string().min(1).optional().describe("Page that opens when the group title is selected"),
    expanded: z.boolean().optional().describe("Nested groups only: `true` expands the group by default; top-level groups always expand"),
    directory: directory.optional(),
    hidden: hidden.optional(),
    searchable: searchable.optional(),
    openapi: specRef.optional(),
    asyncapi: specRef.optional(),
  })
  .meta({ id: "group", title: "Group", description: "A sidebar group of pages and nested groups" });
export type NavGroup = z.infer<typeof group>;

/** Fields every division element (product, version, language, tab, dropdown, anchor) may hold. */
const division = z.looseObject({
  icon: icon.optional(),
  hidden: hidden.optional(),
  searchable: searchable.optional(),
  directory: directory.optional(),
  openapi: specRef.optional(),
  asyncapi: specRef.optional(),
  get products() {
    return z.array(product).optional();
  },
  get languages() {
    return z.array(language).optional();
  },
  get versions() {
    return z.array(version).optional();
  },
  get tabs() {
    return z.array(tab).optional();
  },
  get dropdowns() {
    return z.array(dropdown).optional();
  },
  get anchors() {
    return z.array(anchor).optional();
  },
  get groups() {
    return z.array(group).optional();
  },
  get pages() {
    return z.array(z.union([pagePath, group])).optional();
  },
});

/** A menu item. Under a tab it holds only groups, pages and external links (the rule
 *  `child-types` says so); under a product, real sites nest other elements (dropdowns), so the
 *  schema knows every child array and checks their shape wherever they are. */
export const menuItem = division
  .extend({
    item: z.string().describe("Menu item title"),
    description: z.string().optional(),
    href: href.optional(),
  })
  .meta({ id: "menuItem", title: "Menu item", description: "An item of a tab's (or product's) menu; under a tab it holds only groups, pages and external links" });

export const tab = division
  .extend({
    tab: z.string().describe("Tab title"),
    href: href.optional(),
    get menu() {
      return z.array(menuItem).optional().describe("Dropdown menu items of the tab");
    },
  })
  .meta({ id: "tab", title: "Tab" });

export const anchor = division
  .extend({ anchor: z.string().describe("Anchor title"), href: href.optional() })
  .meta({ id: "anchor", title: "Anchor" });

export const dropdown = division
  .extend({ dropdown: z.string().describe("Dropdown title"), description: z.string().optional(), href: href.optional() })
  .meta({ id: "dropdown", title: "Dropdown" });

export const product = division
  .extend({
    product: z.string().describe("Product name"),
    description: z.string().optional(),
    href: href.optional(),
    get menu() {
      return z.array(menuItem).optional().describe("Menu items of the product (not in the specification; real sites use it)");
    },
  })
  .meta({ id: "product", title: "Product" });

export const globalAnchor = z
  .looseObject({
    anchor: z.string().describe("Anchor title"),
    href: href.describe("External URL or a path inside the site"),
    icon: icon.optional(),
  })
  .meta({ id: "globalAnchor", title: "Global anchor", description: "A link shown on every page" });

/** `global` on the navigation, and (as real multi-language sites write it) on a language or a
 *  version: links shown on every page of that language or version. */
const global = z.looseObject({ anchors: z.array(globalAnchor).optional() }).describe("Links that appear on every page");

export const version = division
  .extend({
    version: z.string().describe("Version name shown in the version selector (e.g. `v2.0`)"),
    default: z.boolean().optional().describe("The default version (otherwise the first one is)"),
    tag: z.string().optional().describe("Badge label in the version selector (Latest, Beta, Deprecated, ...)"),
    global: global.optional(),
  })
  .meta({ id: "version", title: "Version" });

const link = z.looseObject({ label: z.string().optional(), href: href.optional() });

export const language = division
  .extend({
    // Any string is read (a code the language table does not know is `check`'s error, rule
    // `language-code`, and the language is still served under the code as written).
    language: z
      .string()
      .meta({ examples: LANGUAGES.flatMap(codesOf) })
      .describe("Language code: the specification's (en, fr, cn, jp, pt-BR, zh-Hant, ...) or one the platform also takes (zh, zh-Hans, ja, pt, fr-CA, ...)"),
    default: z.boolean().optional().describe("The default language (otherwise the first one is)"),
    global: global.optional(),
    banner: z
      .looseObject({ content: z.string().optional(), dismissible: z.boolean().optional() })
      .optional()
      .describe("Banner shown on this language's pages"),
    footer: z
      .looseObject({
        socials: z.record(z.string(), z.string()).optional().describe("Social network name to URL"),
        links: z.array(z.looseObject({ header: z.string().optional(), items: z.array(link).optional() })).optional(),
      })
      .optional(),
    navbar: z
      .looseObject({
        links: z.array(link).optional(),
        primary: z.looseObject({ type: z.string().optional(), label: z.string().optional(), href: href.optional() }).optional(),
      })
      .optional(),
  })
  .meta({ id: "language", title: "Language" });

export const navigation = division
  .omit({ hidden: true, searchable: true })
  .extend({
    global: global.optional(),
  })
  .describe("The site navigation: exactly one root element (products, languages, versions, tabs, dropdowns, anchors, groups or pages); other element types nest below it");

export const api = z
  .looseObject({
    openapi: specRef.optional(),
    asyncapi: specRef.optional(),
    playground: z
      .looseObject({
        display: z.enum(PLAYGROUND_DISPLAYS).optional().describe("`interactive` (all readers), `auth` (signed-in readers only) or `none`"),
        url: z.enum(["full"]).optional().describe("`full` shows the full base URL in endpoint headers"),
        proxy: z.boolean().optional().describe("Send playground requests through the docs server's relay (`/_svc/api/request`)"),
      })
      .optional(),
    examples: z
      .looseObject({
        languages: z.array(z.string()).optional().describe("Languages of generated code examples (curl, python, javascript, ...)"),
        defaults: z.enum(["required", "all"]).optional().describe("`required` shows only required parameters in examples"),
        prefill: z.boolean().optional().describe("Prefill request bodies with examples"),
      })
      .optional(),
    // Not read here (pages are generated from specs); checked because the platform's schema types
    // it and refuses the docs.json otherwise, and a mint.json's `api.baseUrl` is upgraded into it.
    mdx: z
      .looseObject({
        server: z.union([z.string(), z.array(z.string())]).optional().describe("Base URL (or URLs) of API pages written by hand in MDX (mint.json: `api.baseUrl`)"),
        auth: z
          .looseObject({ method: z.string().optional().describe("Authentication of hand-written API pages: bearer, basic, key, ..."), name: z.string().optional() })
          .optional(),
      })
      .optional()
      .describe("Settings of API pages written by hand in MDX"),
  })
  .describe("API reference and playground settings");

export const docsJson = z
  .looseObject({
    $schema: z.string().optional(),
    name: z.string().optional().describe("Site name"),
    description: z.string().optional(),
    navigation,
    api: api.optional(),
    seo: z
      .looseObject({
        indexing: z.enum(["navigable", "all"]).optional().describe("`all` also indexes pages that are not in the navigation"),
      })
      .optional(),
    styling: z
      .looseObject({ eyebrows: z.enum(["section", "breadcrumbs"]).optional().describe("`breadcrumbs` shows each page's full navigation path") })
      .optional(),
    interaction: z
      .looseObject({
        drilldown: z.boolean().optional().describe("`true`: selecting a group opens its first page; `false`: only expands or collapses; unset: theme default"),
      })
      .optional(),
    redirects: z
      .array(z.looseObject({ source: z.string().optional(), destination: z.string().optional() }))
      .optional(),
  })
  .meta({ title: "docs.json", description: "Documentation site configuration" });

export type DocsJson = z.infer<typeof docsJson>;
export type Navigation = z.infer<typeof navigation>;
