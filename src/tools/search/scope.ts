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

/** The known version `arg` names, or a message for the `version` argument. */
export function resolveVersion(arg: string, versions: ScopeNames): ScopeResolution {
  const { known } = versions;
  if (known.length === 0) return { ok: true, value: undefined };
  const found =
    known.find((v) => v === arg) ??
    unique(known.filter((v) => v.toLowerCase() === arg.trim().toLowerCase())) ??
    unique(known.filter((v) => versionKey(v) === versionKey(arg)));
  if (found !== undefined) return { ok: true, value: found };
  return { ok: false, message: `not a version of this site${useOneOf(versions.listed)} (got ${JSON.stringify(arg)})` };
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
