import { block } from "./component.js";

/**
 * `<Snippet file>` left in the text: its file was inlined before rendering where the site has it
 * and the reader may read it (`search/includes.ts`, as search inlines it); a tag still here shows
 * nothing, as the platform shows nothing for a snippet it cannot find (`check` says which).
 */
export const snippet = block(() => []);
