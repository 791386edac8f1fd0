import { describeLanguageCode, findLanguage } from "../../config/languages.js";
import { loadSite } from "../../vfs/load-site.js";
import { readerOutline, siteOutline } from "../../vfs/outline.js";
import { type SiteNavigation, navigationOfSite } from "../../vfs/site-nav.js";
import { resolveVersion } from "../search/scope.js";
import { versionKey } from "../search/version-twins.js";
import { type ArgumentIssue, type Outcome, failure, success } from "./outcome.js";
import type { RepositoryContext } from "./repository-context.js";

/** Which part of the navigation to show. */
export interface NavInput {
  readonly version?: string;
  readonly language?: string;
}

/**
 * The resolved navigation (titles, inherited settings, versions, breadcrumbs) as the context's
 * reader sees it, the author's view without one. A `version` or `language` is taken as a person
 * types it (`nameIn`); one the site (as that reader sees it) does not have, or that names more
 * than one, is an issue naming the ones it has. A missing or unreadable docs.json is the
 * navigation's own answer (`ok: false` with its reason), not an issue.
 */
export async function navigateDocs(context: RepositoryContext, input: NavInput): Promise<Outcome<SiteNavigation>> {
  const { site } = await loadSite(context.root, undefined, undefined, context.load);
  const request = context.request;
  const nav = (resolved: NavInput): SiteNavigation => navigationOfSite(site, { ...resolved, ...(request !== undefined ? { context: request } : {}) });
  if (!site.config.present || site.config.document === undefined || (input.version === undefined && input.language === undefined)) return success(nav({}));
  // The versions and languages this reader may see (hidden ones too: hidden is not access).
  const outline = request !== undefined ? readerOutline(site, request) : siteOutline(site.config, () => true, () => false);
  const issues: ArgumentIssue[] = [];
  const resolved: { version?: string; language?: string } = {};
  if (input.version !== undefined) {
    const { knownVersions: known } = outline;
    const exact = resolveVersion(input.version, { known, listed: known, segments: outline.versionSegments, latest: outline.latestVersion });
    const found = nameIn("version", input.version, known, exact.ok ? exact.value : undefined, versionForm);
    if (typeof found === "string") resolved.version = found;
    else issues.push(found);
  }
  if (input.language !== undefined) {
    const known = outline.knownLanguages;
    // Listed with every code that names it (`cn (also zh, zh-Hans, zh-CN)`), as the search tool
    // lists them: a site that writes one language under two codes is told both are taken.
    const found = nameIn("language", input.language, known, findLanguage(input.language, known), (l) => l.trim().toLowerCase(), describeLanguageCode);
    if (typeof found === "string") resolved.language = found;
    else issues.push(found);
  }
  return issues.length > 0 ? failure(issues) : success(nav(resolved));
}

/** A version as people shorten it: no case, no leading `v`, no trailing `.0` or `.x` (`V2.0`, `2` and `v2` are one). */
function versionForm(version: string): string {
  return versionKey(version).replace(/(\.0+)+$/, "");
}

/**
 * The one of `known` that `arg` names: `found` (the exact name, a case variant, or a form the
 * search tool takes too), else the one name that `arg` begins, as written or in `form` (`V2.0`
 * for `v2`, `v2` for `v2.1.0`, `f` for `fr`). Else the issue: none, or several, listing the names there are
 * as `shown` writes each.
 */
function nameIn(kind: "version" | "language", arg: string, known: readonly string[], found: string | undefined, form: (name: string) => string, shown: (name: string) => string = (name) => name): string | ArgumentIssue {
  if (known.length === 0) return { argument: kind, message: `${arg}: the site has no ${kind}s` };
  if (found !== undefined) return found;
  const wanted = form(arg);
  const typed = arg.trim().toLowerCase();
  // `2` on a site of v2.0 and v2.1 names neither: a prefix two names share is said, not guessed.
  const begun = wanted === "" ? [] : known.filter((name) => form(name).startsWith(wanted) || name.toLowerCase().startsWith(typed));
  if (begun.length === 1) return begun[0]!;
  const has = `the site has ${known.map(shown).join(", ")}`;
  if (begun.length > 1) return { argument: kind, message: `${arg}: more than one ${kind} begins so (${begun.join(", ")}); give more of it (${has})` };
  return { argument: kind, message: `${arg}: no such ${kind} (${has})` };
}
