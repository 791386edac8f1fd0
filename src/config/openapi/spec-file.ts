import type { IgnoreRules } from "../ignore-rule-set.js";
import { type InsideFile, type Refusal, statInsideRoot } from "../inside-root.js";
import { readRefFile, refusedByPath } from "./ref-target.js";

/**
 * Which repository files may be read as an API spec (adversary round 59 F1). A spec's file is
 * mounted in the docs filesystem, pruned per reader, and its text is copied into generated
 * pages: a name in front matter (`openapi`, `asyncapi`, `openapi-schema`) or docs.json must not
 * make a file the site never serves at its own path, or serves with its own readers, into one.
 * So a spec's file passes the rule a `$ref`'s target and a link's target pass (inside the root,
 * not ignored: `readInsideRoot`; no dot-file, not docs.json: `refusedByPath`), for the path named
 * and where a link leads alike, and two more that only a spec needs: it is no page or snippet
 * (those are served as their readers may read them, never as a spec every reader of a public
 * page gets), and no file docs.json's navigation is read from (it names restricted pages; a
 * `$ref` may not read those either, `refReadersOf`). A refused file reads exactly as a missing
 * one, whatever the reason, so that a finding at a public page never tells its readers that a
 * restricted page or a dot-file exists.
 */

/** The files the site reads as its configuration (docs.json or mint.json, the files their
 *  navigation `$ref`s, and where links among those lead): never read as a spec. */
export type ConfigFiles = ReadonlySet<string>;

/** Configuration files when the caller knows none (tests, benchmarks): docs.json and mint.json. */
export const NO_CONFIG_FILES: ConfigFiles = new Set(["docs.json", "mint.json"]);

/** Page and snippet files, as `listInsideRoot`'s callers take them (any case: fail closed). */
const PAGE_FILE = /\.mdx?$/i;

/** What a refused spec file reads as: the words of a missing one (`readInsideRoot`'s `ENOENT`). */
export const SPEC_FILE_MISSING: Refusal = { ok: false, reason: "missing", message: "file not found" };

/** Why a repository file cannot be read as a spec, by its path and its real path (a link's target),
 *  whatever the reader; undefined when it may. Worded for the author; readers get `SPEC_FILE_MISSING`. */
export function refusedAsSpec(rel: string, real: string, configFiles: ConfigFiles): string | undefined {
  for (const path of real !== rel ? [rel, real] : [rel]) {
    const byPath = refusedByPath(path);
    if (byPath !== undefined) return `${path} is ${byPath}`;
    if (configFiles.has(path)) return `${path} is read as the site's configuration`;
    if (PAGE_FILE.test(path)) return `${path} is a page or snippet, not an API spec`;
  }
  return undefined;
}

/**
 * A spec file's text, read as a `$ref`'s target is (`readRefFile`: inside the root, the ignore
 * rules, at most the spec size limit), or why not; a file `refusedAsSpec` names is missing.
 */
export function readSpecFile(root: string, rel: string, ignore: IgnoreRules, configFiles: ConfigFiles): InsideFile | Refusal {
  const read = readRefFile(root, rel, ignore);
  if (!read.ok) return read;
  return refusedAsSpec(rel, read.real, configFiles) === undefined ? read : SPEC_FILE_MISSING;
}

/** Whether a spec file is at a repository path (`readSpecFile` would read it), without reading it.
 *  A link leading outside counts as found: the loader then reports the link (never reads it). */
export function specFileFound(root: string, rel: string, ignore: IgnoreRules, configFiles: ConfigFiles): boolean {
  const st = statInsideRoot(root, rel, { ignore });
  if (!st.ok) return st.reason === "outside";
  return st.kind === "file" && refusedAsSpec(rel, st.real, configFiles) === undefined;
}
