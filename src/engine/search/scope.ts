import { describeLanguageCode, findLanguage } from "../../config/languages.js";
import { versionKey } from "./version-twins.js";

/**
 * The search tool's `version` and `language` arguments, resolved against what the reader may see
 * of the site (their outline: a version whose pages they may not read does not exist for them).
 * An agent writes these from the user's words ("v6", "zh"), so near forms of a known name are
 * taken for it; anything else is the caller's mistake, answered with the values listed to the
 * reader (`hidden: true` ones are accepted, never listed). Silently filtering by an unknown
 * version would return only version-less pages, a wrong answer that looks right. A site that
 * declares no versions (languages), or none this reader sees, has all its content "available
 * across all versions", as the specification words the filter: any value matches everything, so
 * an agent that always sends `language: "en"` is not refused by every single-language site.
 */
export type ScopeResolution =
  /** `value` undefined: the reader sees none, so the filter keeps everything. */
  | { readonly ok: true; readonly value: string | undefined }
  | { readonly ok: false; readonly message: string };

/** Names an argument may take, and the ones its error message lists. */
export interface ScopeNames {
  readonly known: readonly string[];
  readonly listed: readonly string[];
}

/** What a `version` argument may name a version by, beyond its label. */
export interface VersionNames extends ScopeNames {
  /** Each version's path segment (`2025-06-18` for `Version 2025-06-18 (latest)`). */
  readonly segments: ReadonlyMap<string, string>;
  /** The version `latest` names (the one tagged Latest/Recommended, else the default). */
  readonly latest: string | undefined;
}

/**
 * The known version `arg` names, or a message for the `version` argument listing the accepted
 * forms. In order: the label as written; its case variant; `latest`; the path segment the
 * version's pages live under (`v3`, `2025-06-18`), in any case; a near form (`V6`, `6` for
 * `v6.x`); the label's core (`2025-06-18` for `Version 2025-06-18 (latest)`); a release the
 * label's number is in (`v3` or `3` for `v3.0.0 (rc 1)`, `v2.14` for `v2.14.5`: what a user says
 * of a site that labels versions by full release numbers). A form two versions share names neither.
 */
export function resolveVersion(arg: string, versions: VersionNames): ScopeResolution {
  const { known, segments } = versions;
  if (known.length === 0) return { ok: true, value: undefined };
  const lower = arg.trim().toLowerCase();
  const found =
    known.find((v) => v === arg) ??
    unique(known.filter((v) => v.toLowerCase() === lower)) ??
    (lower === "latest" ? versions.latest : undefined) ??
    unique(known.filter((v) => segments.get(v)?.toLowerCase() === lower)) ??
    unique(known.filter((v) => versionKey(v) === versionKey(arg))) ??
    unique(known.filter((v) => labelCore(v) === labelCore(arg))) ??
    unique(known.filter((v) => isReleaseOf(labelCore(arg), labelCore(v))));
  if (found !== undefined) return { ok: true, value: found };
  const forms = versions.listed.map((v) => {
    const segment = segments.get(v);
    return segment !== undefined && segment.toLowerCase() !== v.toLowerCase() ? `${v} (also ${segment})` : v;
  });
  const latest = versions.latest !== undefined && known.every((v) => v.toLowerCase() !== "latest") ? ["latest"] : [];
  return { ok: false, message: `not a version of this site${useOneOf([...forms, ...latest])} (got ${JSON.stringify(arg)})` };
}

/** A label without a leading "version" and parenthesised notes: `Version 2025-06-18 (latest)` -> `2025-06-18`. */
/** Whether `release` (`3`, `2.14`) is the first numbers of `version` (`3.0.0`, `2.14.5`). */
function isReleaseOf(release: string, version: string): boolean {
  return /^\d+(\.\d+)*$/.test(release) && version.startsWith(`${release}.`);
}

function labelCore(label: string): string {
  return versionKey(label.replace(/\([^)]*\)/g, " ").replace(/^\s*version\b/i, ""));
}

/** The known language `arg` names: the code, a case variant, another code of the same language
 *  (`cn` finds a site's `zh`, `ja-JP` its `jp`), or its regional or broader form (`en-US` finds
 *  `en`, `pt` finds `pt-BR`); see `findLanguage`. Otherwise a message listing each language the
 *  reader may use with its other codes. */
export function resolveLanguage(arg: string, languages: ScopeNames): ScopeResolution {
  const { known } = languages;
  if (known.length === 0) return { ok: true, value: undefined };
  const found = findLanguage(arg, known);
  if (found !== undefined) return { ok: true, value: found };
  return { ok: false, message: `not a language of this site${useOneOf(languages.listed.map(describeLanguageCode))} (got ${JSON.stringify(arg)})` };
}

/** `; use one of a, b`, or nothing when every known value is hidden. */
function useOneOf(listed: readonly string[]): string {
  return listed.length > 0 ? `; use one of ${listed.join(", ")}` : "";
}

function unique(matches: readonly string[]): string | undefined {
  return matches.length === 1 ? matches[0] : undefined;
}
