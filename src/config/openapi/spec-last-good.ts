import type { IgnoreRules } from "../ignore-rule-set.js";
import { brokenNotWithdrawn } from "../broken-input.js";
import { IGNORED_MESSAGE } from "../inside-root.js";
import { parseDocument } from "./parse-document.js";
import { readRefFile, type RefReaders, sameRefDecisions } from "./ref-target.js";
import type { SpecLoadResult } from "./spec-load-result.js";

/**
 * Why a local spec loaded now is broken where its last good load was not, when the last good
 * result should keep serving (its pages, search, navigation) until the file is fixed; undefined
 * when the new result is to be served. Broken: the spec's text cannot be read, parsed or read as
 * an API description, or is gone while docs.json or a page still names it (only then is it
 * loaded), or a file its `$ref`s read before cannot be read or parsed now (the resolver would
 * leave those `$ref`s as null: the fields would silently leave the pages). Never kept: a spec now
 * excluded by the ignore rules, a link out, or a file no spec may be (`refusedAsSpec`) (a
 * withdrawal, `brokenNotWithdrawn`), and a spec whose readers decide otherwise than when the last good result was built (its `$ref`s'
 * who-may-read decisions would no longer hold: a restriction must never be lost to a kept state).
 */
export function brokenSinceLastGood(previous: SpecLoadResult | undefined, loaded: SpecLoadResult, root: string, ignore: IgnoreRules, readers: RefReaders | undefined): string | undefined {
  if (previous?.ok !== true || !sameRefDecisions(previous.refDecisions, readers)) return undefined;
  if (!loaded.ok) {
    if (loaded.notFetched === true || loaded.code !== undefined || loaded.message === IGNORED_MESSAGE || loaded.withdrawn === true) return undefined;
    return loaded.message;
  }
  const now = new Map((loaded.refFiles ?? []).map((f) => [f.rel, f] as const));
  for (const before of previous.refFiles ?? []) {
    const current = now.get(before.rel);
    if (before.text === undefined || current === undefined) continue;
    if (current.text === undefined) {
      const read = readRefFile(root, before.rel, ignore);
      if (!read.ok && brokenNotWithdrawn(read)) return `$ref'd file ${before.rel}: ${read.message}`;
      continue;
    }
    const parsed = parseDocument(current.text);
    if (!parsed.ok && parsed.message.startsWith("cannot parse")) return `$ref'd file ${before.rel}: ${parsed.message}`;
  }
  return undefined;
}
