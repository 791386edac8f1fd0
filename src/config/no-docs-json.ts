/**
 * What a folder of pages without docs.json (nor mint.json) is told, by `serve`, `search` and `fs`
 * on stderr and by `check` as its warning, in the same words: it was served in silence, and a
 * new user did not learn why the site had no name and no navigation, nor how to give it one.
 * `where` is the folder as the user named it (`--dir` as given, or "this folder").
 */
export function noDocsJsonMessage(where: string): string {
  return `no docs.json (or mint.json) in ${where}: every page is served, in file order, with no navigation; write a docs.json there with the site's "name" and its "navigation" to order them (\`svc-mcp schema\` prints its JSON Schema)`;
}

/**
 * What a folder with neither docs.json nor a page is told, by every command: a `--dir` (or an
 * editor's config) naming the wrong folder. `check` said the words above ("every page is
 * served") and "0 errors" for it. `where` is the folder as the user named it.
 */
export function emptyFolderMessage(where: string): string {
  return `${where} holds no docs.json and no pages: --dir names the docs folder, the one that holds docs.json`;
}
