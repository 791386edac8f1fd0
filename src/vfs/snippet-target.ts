import { snippetFileOf, snippetPaths } from "../config/snippet-tags.js";
import type { SiteFile } from "./site-file.js";

/**
 * What a `<Snippet file>` tag (`config/snippet-tags.ts`) shows one reader: the one rule the
 * reader's copy of a page (`import-variants.ts`: what `cat`, `rg`, sizes and the preview read),
 * search's text of it (`engine/search/includes.ts`) and its HTML render all follow.
 *
 * - `file`: the first file at the tag's paths (`snippetPaths`, in order) the reader may read.
 *   A file there they may not read is passed over, as it is absent from their view: what the
 *   tag shows them is what it shows on the site without the files they may not read, so the
 *   existence of such a file changes nothing they get while a readable one follows it
 *   (adversary round 55 F2).
 * - `refused`: files at some of the paths, none the reader may read. The tag is left out of
 *   their copy, with the space it took, as an import of a file they may not read is
 *   (`removeImports`): the file's name does not reach them (adversary round 55 F3).
 * - `missing`: no file at any path (or no `file` attribute): the tag stays as written and shows
 *   nothing, as an import of a file the site does not have stays.
 */
export type SnippetTarget = { readonly kind: "file"; readonly file: SiteFile } | { readonly kind: "refused" } | { readonly kind: "missing" };

/**
 * The target of a tag with `attributes` for a reader (`readable`: whether they may read a file
 * of the site). `fileAt` looks a file up by path; `found` is told each path tried and the file
 * there, if any (what the answer depends on). `readable` is asked only of files found, in order,
 * up to the first it allows: a reader's answers decide which files are asked about next.
 */
export function snippetTarget(
  attributes: string,
  fileAt: (path: string) => SiteFile | undefined,
  readable: (file: SiteFile) => boolean,
  found: (path: string, file: SiteFile | undefined) => void = () => {},
): SnippetTarget {
  const name = snippetFileOf(attributes);
  if (name === undefined) return MISSING;
  let refused = false;
  for (const path of snippetPaths(name)) {
    const file = fileAt(path);
    found(path, file);
    if (file === undefined) continue;
    if (readable(file)) return { kind: "file", file };
    refused = true;
  }
  return refused ? REFUSED : MISSING;
}

const MISSING: SnippetTarget = { kind: "missing" };
const REFUSED: SnippetTarget = { kind: "refused" };
