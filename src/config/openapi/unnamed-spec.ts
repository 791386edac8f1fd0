import { normalizeOperationPath, type OperationEntry } from "./entry.js";

/** A spec-like file of the repository and its text. */
export interface RepoSpecText {
  readonly rel: string;
  readonly text: string;
}

/**
 * The repository spec a front matter reference that names no file (`openapi: post
 * /agents/{agent_id}/runs`) documents. The hosted platform "uploads every OpenAPI specification
 * in your docs repository, even if it isn't referenced in docs.json" and matches such a page
 * against all of them, so a site may name no spec anywhere. Found here from the text alone
 * (parsing every JSON and YAML file of a repository to look for one operation would cost more
 * than loading the site): an OpenAPI document (an `openapi` key) that holds the path as a key,
 * or for a webhook the webhook's name under `webhooks`. Every such file, by file name: with
 * several, the platform's rule for a page naming no spec ("the first match wins based on
 * alphabetical filename order") takes the first, and the load says so (a versioned site's v2 page
 * shows v1's operation: the author names the file to choose).
 */
export function unnamedSpecsFor(entry: OperationEntry, files: readonly RepoSpecText[]): string[] {
  const path = entry.method.toUpperCase() === "WEBHOOK" ? entry.path : normalizeOperationPath(entry.path);
  return files
    .filter((f) => OPENAPI_KEY_RE.test(f.text.slice(0, SNIFF_CHARS)) && holdsKey(f.text, path))
    .map((f) => f.rel)
    .sort();
}

/**
 * The repository specs a front matter `openapi-schema` that names no file may document, by file
 * name (the platform takes the first): the OpenAPI documents (an `openapi` key) with the name as
 * a key under a `schemas` key, found from the text as `unnamedSpecsFor` finds operations. None:
 * empty (the plan then looks in the specs docs.json names, and says what it found).
 */
export function unnamedSchemaSpecsFor(name: string, files: readonly RepoSpecText[]): string[] {
  const found = files.filter((f) => OPENAPI_KEY_RE.test(f.text.slice(0, SNIFF_CHARS)) && SCHEMAS_KEY_RE.test(f.text) && holdsKey(f.text, name));
  return found.map((f) => f.rel).sort();
}

const SCHEMAS_KEY_RE = /["']?schemas["']?\s*:/;

/** How far into a file its top-level `openapi` key is looked for (it comes first in practice;
 *  a large spec's paths are not read for it). */
const SNIFF_CHARS = 4096;
const OPENAPI_KEY_RE = /(?:^|[\s{,])["']?openapi["']?\s*:/;

/** Whether the text has `key` as a JSON key (`"key":`) or a YAML key (`key:`, quoted or not),
 *  with or without a trailing slash. */
function holdsKey(text: string, key: string): boolean {
  for (const k of [key, `${key}/`]) {
    if (text.includes(`"${k}":`) || text.includes(`"${k}" :`) || text.includes(`'${k}':`) || new RegExp(`^[ \\t]*${escape(k)}:`, "m").test(text)) return true;
  }
  return false;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
