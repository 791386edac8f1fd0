import { INVISIBLE_CLASS } from "./invisible-chars.js";

/**
 * Near-miss spellings of the keys an access rule is written with (`Groups`, `"groups "`,
 * `x-SVC`, `Metadata`, a zero-width character inside, fullwidth `ｇｒｏｕｐｓ`, `grоups` with a
 * Cyrillic о, the singular `group`): the hosted platform reads only the exact key, so the part
 * would be public there, yet its author meant a rule. Pages (`groupsLookalike`) and API specs
 * (`readExtension`) read such a key as the rule (fail closed) and `check` says to rename it; both
 * fold a key here, so what counts as a near miss is one thing.
 */

/** What a fold drops: characters that show as nothing or as blank space, and combining marks
 *  (after decomposition, `gröups` is `groups` with a mark on its `o`). */
const DROPPED = new RegExp(`[${INVISIBLE_CLASS}\\p{M}]`, "gu");

/**
 * Letters of other scripts drawn as a Latin letter (Unicode's confusables, the Cyrillic, Greek,
 * Armenian and Latin-extension ones among them that look like a letter of `a`-`z`), each read as
 * that letter; upper case ones as upper case, since `Ν` looks like `N` and its lower case `ν`
 * like `v`. Dashes drawn as a hyphen likewise (`x‐svc`).
 */
const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  "а": "a", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j", "ӏ": "l", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "у": "y", "х": "x", "ԝ": "w",
  "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "Ј": "J", "К": "K", "М": "M", "О": "O", "Р": "P", "Ԛ": "Q", "Ѕ": "S", "Т": "T", "У": "Y", "Х": "X", "Ԝ": "W", "Ӏ": "I",
  // Greek
  "α": "a", "ι": "i", "ν": "v", "ο": "o", "ρ": "p", "υ": "u", "χ": "x",
  "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
  // Armenian and Latin extensions
  "օ": "o", "ս": "u", "ո": "n", "ց": "g", "ɡ": "g", "ı": "i", "ɑ": "a",
  // Dashes and minus signs
  "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-", "\u2043": "-", "\u02D7": "-",
};

const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join("")}]`, "gu");

/**
 * Folded keys that are near misses of another rule key than their letters say: the singular
 * `group` is read as `groups` (no real site in the corpora writes a `group` key in front matter or
 * in an operation's `metadata`; docs.json's `group` names a navigation group and is not read here).
 */
const NEAR_MISSES: Readonly<Record<string, string>> = { group: "groups" };

/**
 * A key as the rule key it may stand for: compatibility forms decomposed (NFKD: fullwidth,
 * mathematical and circled letters, `ſ`, ligatures), look-alike letters of other scripts read as
 * the Latin ones (`CONFUSABLES`), case, combining marks and characters that show as nothing or as
 * blank space left out.
 */
export function foldKey(key: string): string {
  // ASCII keys (nearly all) need only case and white space: no decomposition, no look-alikes.
  if (!/[^\x00-\x7F]/.test(key)) return key.replace(/[\s\x1C-\x1F]/g, "").toLowerCase();
  const decomposed = key.normalize("NFKD").replace(CONFUSABLE, (c) => CONFUSABLES[c] ?? c);
  // Lower case after the look-alikes (`М` is `M` before it is `м`), and decomposed again (`İ` lowers to `i` and a mark).
  return decomposed.toLowerCase().normalize("NFKD").replace(DROPPED, "");
}

/**
 * Rule keys a misspelling of which (`grups`, `groupes`, `gruops`, `goups`, `groupss`; `metdata`)
 * is read as the key: words, which authors mistype and no real key lies near. Not `x-svc` or
 * `x-mint`: short, among the many `x-` extensions real specs write (`x-sdk` is two edits from
 * `x-svc`), which would be read as rules.
 */
const TYPO_KEYS: ReadonlySet<string> = new Set(["groups", "metadata"]);

/** Edits (a letter added, dropped, changed, or two swapped) at most that make a misspelling. */
const MAX_TYPO_EDITS = 2;

/**
 * Keys that are never a misspelling of a rule key, whatever their distance: the page keys
 * `readPageMeta` reads and those of the platform's front matter (its documentation's list).
 * None is within two edits of `groups` or `metadata` now; the list keeps it so as keys are added.
 */
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  "title", "description", "icon", "icontype", "mode", "sidebartitle", "tag", "api", "openapi", "openapi-schema", "asyncapi", "url",
  "hidden", "noindex", "keywords", "public", "playground", "version", "deprecated", "section", "order", "layout", "og:title",
  "og:description", "og:image", "twitter:title", "twitter:description", "twitter:image", "robots", "canonical", "lang",
]);

/** The rule key among `names` that `key` is a near miss of, if any (`undefined` for an exact one). */
export function lookalikeOf(key: string, names: readonly string[]): string | undefined {
  if (names.includes(key)) return undefined;
  const folded = foldKey(key);
  const name = NEAR_MISSES[folded] ?? folded;
  if (names.includes(name)) return name;
  if (KNOWN_KEYS.has(folded)) return undefined;
  return names.find((n) => TYPO_KEYS.has(n) && editDistanceAtMost(folded, n, MAX_TYPO_EDITS));
}

/** Whether `a` is at most `max` edits from `b` (optimal string alignment: a swap of neighbours is one edit). */
function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] as number) + 1);
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return (prev[b.length] as number) <= max;
}

/** The own keys of `node` that are near misses of one of `names` (`lookalikeOf`), in order. */
export function lookalikeKeys(node: object, names: readonly string[]): string[] {
  return Object.keys(node).filter((key) => lookalikeOf(key, names) !== undefined);
}

/** Whether a text may hold such a key (a cheap look before parsing): any spelling, or an escape that may write one. */
export function mayMentionKey(text: string, names: readonly string[]): boolean {
  if (names.some((n) => text.includes(n))) return true;
  // `\u200B` or `\x41` in a JSON or YAML string may spell one out only once parsed.
  if (/\\[uUx]/.test(text)) return true;
  const folded = text.replace(/[\s\x1C-\x1F]/g, "").toLowerCase();
  if (names.some((n) => folded.includes(n))) return true;
  // Look-alike letters and invisible characters: a key is on one line, and only the lines holding
  // a character past ASCII need the whole fold (decomposing a 1.2 MB spec at once took ~170 ms).
  for (const line of text.split("\n")) {
    if (!/[^\x00-\x7F]/.test(line)) continue;
    const near = foldKey(line);
    if (names.some((n) => near.includes(n))) return true;
  }
  return false;
}
