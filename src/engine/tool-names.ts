import anyAscii from "any-ascii";

/** The names a site's MCP tools get, derived from the docs.json `name`. */
export interface ToolNames {
  /** snake_case site name: `Spree Commerce documentation` -> `spree_commerce`. */
  readonly slug: string;
  readonly search: string;
  readonly filesystem: string;
}

/** MCP tool names are `[A-Za-z0-9_-]{1,64}`; the longest prefix is `query_docs_filesystem_` (22). */
const MAX_SLUG = 64 - "query_docs_filesystem_".length;

/**
 * Tools are named after the site (`search_<site>`, `query_docs_filesystem_<site>`) so several
 * docs servers can share one editor without name clashes. Words like "docs" and
 * "documentation" are dropped from the end: they are implied by the tool names.
 */
export function toolNames(siteName: string): ToolNames {
  // Spelled in ASCII first (`any-ascii`): a name of Cyrillic, Chinese or Arabic letters was
  // `docs`, so two such sites in one editor had the same tools (adversary round 38, F3).
  let words = anyAscii(siteName)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
  while (words.length > 1 && /^(docs?|documentation|documents|developer|developers|reference)$/.test(words.at(-1) ?? "")) {
    words = words.slice(0, -1);
  }
  let slug = words.join("_").slice(0, MAX_SLUG).replace(/_+$/, "");
  if (slug === "") slug = "docs";
  return { slug, search: `search_${slug}`, filesystem: `query_docs_filesystem_${slug}` };
}

/**
 * The site's title for people and clients: `Nimbus Storage docs`, but `Dify Docs` and `Spree
 * Commerce documentation` as they are (not "Dify Docs docs").
 */
export function siteTitle(siteName: string): string {
  const name = siteName.trim();
  return namesItsDocs(name) ? name : `${name} docs`;
}

/**
 * The product a site documents, for prose that adds its own documentation word: `Spree Commerce`
 * of a site named `Spree Commerce documentation` ("Search the Spree Commerce documentation", not
 * "... documentation documentation"); a name that is only the word (`Docs`) stays whole.
 */
export function productName(siteName: string): string {
  const name = siteName.trim();
  const product = name.replace(/[\s:\-–—|]*\b(docs?|documentation)$/i, "");
  return product === "" ? name : product;
}

/** Whether a site's name already ends with its documentation word (`Dify Docs`, `Spree Commerce documentation`). */
export function namesItsDocs(name: string): boolean {
  return /\b(docs?|documentation)$/i.test(name.trim());
}
