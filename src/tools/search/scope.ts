import { languageHint } from "../../config/docs-json/zod-issues.js";
import { versionKey } from "./version-twins.js";

/**
 * The search tool's `version` and `language` arguments, resolved against what the site declares.
 * An agent writes these from the user's words ("v6", "zh"), so near forms of a declared name are
 * taken for it; anything else is the caller's mistake, answered with the values that exist
 * (silently filtering by an unknown version would return only version-less pages, a wrong answer
 * that looks right). A site that declares no versions (languages) has all its content "available
 * across all versions", as the specification words the filter: any value matches everything, so
 * an agent that always sends `language: "en"` is not refused by every single-language site.
 */
export type ScopeResolution =
  /** `value` undefined: the site declares none, so the filter keeps everything. */
  | { readonly ok: true; readonly value: string | undefined }
  | { readonly ok: false; readonly message: string };

/** The declared version `arg` names, or a message for the `version` argument. */
export function resolveVersion(arg: string, versions: readonly string[]): ScopeResolution {
  if (versions.length === 0) return { ok: true, value: undefined };
  const found =
    versions.find((v) => v === arg) ??
    unique(versions.filter((v) => v.toLowerCase() === arg.trim().toLowerCase())) ??
    unique(versions.filter((v) => versionKey(v) === versionKey(arg)));
  if (found !== undefined) return { ok: true, value: found };
  return { ok: false, message: `not a version of this site; use one of ${versions.join(", ")} (got ${JSON.stringify(arg)})` };
}

/** The declared language `arg` names (`EN` -> `en`, `zh` -> `cn`, `en-US` -> `en`), or a message. */
export function resolveLanguage(arg: string, languages: readonly string[]): ScopeResolution {
  if (languages.length === 0) return { ok: true, value: undefined };
  const code = arg.trim();
  const found =
    languages.find((l) => l === code) ??
    unique(languages.filter((l) => l.toLowerCase() === code.toLowerCase())) ??
    languages.find((l) => l === languageHint(code));
  if (found !== undefined) return { ok: true, value: found };
  return { ok: false, message: `not a language of this site; use one of ${languages.join(", ")} (got ${JSON.stringify(arg)})` };
}

function unique(matches: readonly string[]): string | undefined {
  return matches.length === 1 ? matches[0] : undefined;
}
