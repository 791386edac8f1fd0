/**
 * Near-miss spellings of the keys an access rule is written with (`Groups`, `"groups "`,
 * `x-SVC`, `Metadata`, a zero-width character inside): the hosted platform reads only the exact
 * key, so the part would be public there, yet its author meant a rule. Pages (`groupsLookalike`)
 * and API specs (`readExtension`) read such a key as the rule (fail closed) and `check` says to
 * rename it; both fold a key here, so what counts as a near miss is one thing.
 */

/** A key with case, white space and format characters (`\p{Cf}`: zero-width and the like) left out. */
export function foldKey(key: string): string {
  return key.replace(/[\p{Cf}\s]/gu, "").toLowerCase();
}

/** The own keys of `node` that fold to one of `names` but are not written as one of them, in order. */
export function lookalikeKeys(node: object, names: readonly string[]): string[] {
  return Object.keys(node).filter((key) => !names.includes(key) && names.includes(foldKey(key)));
}

/** Whether a text may hold such a key (a cheap look before parsing): any spelling, or an escape that may write one. */
export function mayMentionKey(text: string, names: readonly string[]): boolean {
  if (names.some((n) => text.includes(n))) return true;
  // `\u200B` or `\x41` in a JSON or YAML string may spell one out only once parsed.
  if (/\\[uUx]/.test(text)) return true;
  const folded = foldKey(text);
  return names.some((n) => folded.includes(n));
}
