/**
 * Why a repository path is no file the site serves, whatever the reader (issue 25, findings 43
 * and 46): a dot-file or anything in a dot-folder (`.env`, `.svcignore`, `.git/config`), and
 * docs.json, which names every page, restricted ones too. Undefined when the path may be served.
 * One rule for what a spec's `$ref` may read, where a link inside the root may lead, and which
 * media the preview serves.
 */
export function unservedPath(rel: string): string | undefined {
  const parts = rel.split("/");
  if (parts.some((p) => p.startsWith("."))) return "a dot-file or in a dot-folder, which the site does not serve";
  // `DOCS_JSON`, written out: the docs.json loader is not this layer's to import.
  if (rel === "docs.json") return "the site's configuration, which the site does not serve";
  return undefined;
}
