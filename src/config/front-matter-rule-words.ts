import { foldKey, lookalikeOf, mayMentionKey } from "./rule-key-fold.js";

/** The front matter keys that restrict a page, as `readPageMeta` reads them (with their look-alikes). */
const RULE_KEYS: readonly string[] = ["groups"];

/**
 * Whether front matter that parsed to no mapping (a list, a string, a number) may hold a rule
 * written wrongly: `- groups: [staff]`, `'groups: [staff]'`, `- grups: [staff]`, a look-alike or an
 * escape that may spell one. Such front matter is refused (the page served to no reader, adversary
 * round 65 F1); any other is read as none, as the platform reads it, so that a page whose keys are
 * written with a full-width colon (`标题：《快速入门》`, one string to YAML) stays served.
 */
export function mayHoldRule(yaml: string): boolean {
  // Any spelling of `groups` folded, an invisible character inside it, or an escape (`\u0067roups`).
  if (mayMentionKey(yaml, [...RULE_KEYS, "group"])) return true;
  // A misspelling (`grups`, `gruops`) or a look-alike of one: each word on its own.
  return yaml
    .split(/[^\p{L}\p{M}\p{Cf}]+/u)
    .some((word) => word !== "" && (RULE_KEYS.includes(foldKey(word)) || lookalikeOf(word, RULE_KEYS) !== undefined));
}
