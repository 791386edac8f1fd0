import type { Diagnostic } from "../../config/diagnostic.js";
import { checkSite } from "../../vfs/check-site.js";
import type { RepositoryContext } from "./repository-context.js";

/** What `check` found: every finding (sorted, each with its code) and what was checked. */
export interface CheckReport {
  readonly diagnostics: readonly Diagnostic[];
  readonly errors: number;
  readonly warnings: number;
  /** docs.json and its `$ref` files, repository-relative. */
  readonly files: readonly string[];
  /** Whether the repository has a docs.json at all. */
  readonly docsJson: boolean;
  /** Pages from files, and pages generated from API specs. */
  readonly pages: number;
  readonly generatedPages: number;
}

/**
 * Check a repository as its author sees it: docs.json (and its `$ref`s) against the pages on
 * disk, the pages' front matter, the API specs. Never an argument issue: a problem of the
 * repository is a finding, and the verdict is `errors === 0`.
 */
export async function checkDocs(context: RepositoryContext): Promise<CheckReport> {
  const result = await checkSite(context.root, context.load !== undefined ? { load: context.load } : {});
  const all = [...result.loaded.site.pages.values()];
  const pages = all.filter((p) => !p.generated).length;
  return {
    diagnostics: result.diagnostics,
    errors: result.errors,
    warnings: result.warnings,
    files: result.docs.files,
    docsJson: result.docs.config?.present !== false,
    pages,
    generatedPages: all.length - pages,
  };
}
