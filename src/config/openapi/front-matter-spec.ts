import { posix } from "node:path";
import { normalizeSpecPath } from "./spec-source.js";

const SPEC_EXTENSION = /\.(json|ya?ml)$/i;

/** What `frontMatterSpecFile` may ask about the repository. */
export interface SpecFileLookup {
  /** Whether a repository-relative file exists (and is not left out by the ignore rules). */
  exists(rel: string): boolean;
  /** Every spec-like file of the repository (`.json`, `.yaml`, `.yml`), repository-relative;
   *  asked only when a name is found nowhere else. */
  specFiles(): readonly string[];
}

/**
 * The repository file a front matter `openapi` reference names, as the hosted platform finds it:
 * `/api-reference/openapi-ja.json` from the repository root; a name without a leading `/` from
 * the page's folder first, then from the root; failing those, the one spec file in the
 * repository whose path ends with the name (`/analytics.openapi.json` for
 * `api/analytics.openapi.json`), or, for a name written without its extension, whose path less its
 * extension does (`v1-openapi` for `api-reference/v1-openapi.json`: the platform knows a spec by
 * its file name, and real sites write it so). Undefined for a URL (never fetched from front matter), a path
 * leaving the repository, or a name that finds no file or several.
 */
export function frontMatterSpecFile(written: string, pageFile: string, lookup: SpecFileLookup): string | undefined {
  const name = normalizeSpecPath(written);
  if (/^[a-z][a-z0-9+.-]*:/i.test(name) || name === "") return undefined;
  const candidates = written.trim().startsWith("/") ? [name] : [posix.join(posix.dirname(pageFile), written.trim()), name];
  for (const c of candidates) {
    const rel = posix.normalize(c);
    if (rel === ".." || rel.startsWith("../") || rel.startsWith("/")) continue;
    if (lookup.exists(rel)) return rel;
  }
  const clean = posix.normalize(name);
  if (clean === ".." || clean.startsWith("../")) return undefined;
  const ends = (f: string): boolean => f === clean || f.endsWith(`/${clean}`);
  const bySuffix = lookup.specFiles().filter(ends);
  if (bySuffix.length > 0 || SPEC_EXTENSION.test(clean)) return bySuffix.length === 1 ? bySuffix[0] : undefined;
  const byStem = lookup.specFiles().filter((f) => ends(f.replace(SPEC_EXTENSION, "")));
  return byStem.length === 1 ? byStem[0] : undefined;
}
