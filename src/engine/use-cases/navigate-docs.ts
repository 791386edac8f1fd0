import { findLanguage } from "../../config/languages.js";
import { type SiteNavigation, siteNavigation } from "../../vfs/site-nav.js";
import { type ArgumentIssue, type Outcome, failure, success } from "./outcome.js";
import type { RepositoryContext } from "./repository-context.js";

/** Which part of the navigation to show. */
export interface NavInput {
  readonly version?: string;
  readonly language?: string;
}

/**
 * The resolved navigation (titles, inherited settings, versions, breadcrumbs) as the context's
 * reader sees it, the author's view without one. A `version` or `language` the site (as that
 * reader sees it) does not have is an issue naming the ones it has; a missing or unreadable
 * docs.json is the navigation's own answer (`ok: false` with its reason), not an issue.
 */
export async function navigateDocs(context: RepositoryContext, input: NavInput): Promise<Outcome<SiteNavigation>> {
  const nav = await siteNavigation(context.root, {
    ...(context.load !== undefined ? { load: context.load } : {}),
    ...(input.version !== undefined ? { version: input.version } : {}),
    ...(input.language !== undefined ? { language: input.language } : {}),
    ...(context.request !== undefined ? { context: context.request } : {}),
  });
  if (!nav.ok) return success(nav);
  // `versions` and `languages` list every one in docs.json (the reader's), whatever the filter.
  const { tree } = nav;
  const issues: ArgumentIssue[] = [];
  if (input.version !== undefined && !tree.versions.some((v) => v.version === input.version)) {
    issues.push({ argument: "version", message: unknown("version", input.version, tree.versions.map((v) => v.version)) });
  }
  if (input.language !== undefined && findLanguage(input.language, tree.languages.map((l) => l.language)) === undefined) {
    issues.push({ argument: "language", message: unknown("language", input.language, tree.languages.map((l) => l.language)) });
  }
  return issues.length > 0 ? failure(issues) : success(nav);
}

function unknown(kind: string, value: string, known: readonly string[]): string {
  if (known.length === 0) return `${value}: the site has no ${kind}s`;
  return `${value}: no such ${kind} (the site has ${known.join(", ")})`;
}
