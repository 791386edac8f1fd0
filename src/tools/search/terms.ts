/**
 * Text analysis shared by indexing and querying: the same tokenizer and term normaliser on
 * both sides, or queries silently miss.
 */

/** Split on anything that is not a letter, digit or an inner `_`/`.`/`-` of an identifier. */
const TOKEN_RE = /[\p{L}\p{N}]+(?:[_.-][\p{L}\p{N}]+)*/gu;

/** Tokens of a text; identifiers like `api_key` or `v2.1` are also split into their parts. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN_RE)) {
    const token = m[0];
    out.push(token);
    if (/[_.-]/.test(token)) for (const part of token.split(/[_.-]/)) if (part !== "") out.push(part);
    // camelCase and PascalCase identifiers: `createCart` is also `create` and `cart`.
    const camel = token.split(/(?<=\p{Ll})(?=\p{Lu})/u);
    if (camel.length > 1) out.push(...camel);
  }
  return out;
}

/** Words too common in docs to carry meaning. Kept short: "how", "not", "no" are meaningful. */
const STOP_WORDS = new Set([
  "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "i", "if", "in", "into",
  "is", "it", "its", "me", "my", "of", "on", "or", "our", "so", "that", "the", "their", "then", "there", "these",
  "this", "to", "was", "we", "what", "when", "where", "which", "who", "will", "with", "you", "your",
]);

/** Lowercase, drop stop words, and reduce inflections (`installing` -> `install`). */
export function analyzeTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (STOP_WORDS.has(t)) return null;
  return stem(t);
}

/**
 * A light English stemmer: plurals and -ing/-ed/-ly. Conservative on purpose: over-stemming
 * merges unrelated API names, which hurts docs search more than a missed inflection.
 */
export function stem(t: string): string {
  if (t.length <= 3 || /\d/.test(t)) return t;
  if (t.endsWith("ies") && t.length > 4) return `${t.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(t)) return t;
  if (/(xes|ches|shes|sses|zes)$/.test(t)) return t.slice(0, -2);
  if (t.endsWith("s") && !t.endsWith("ss")) t = t.slice(0, -1);
  if (t.endsWith("ing") && t.length > 5) return undouble(t.slice(0, -3));
  if (t.endsWith("ed") && t.length > 4) return undouble(t.slice(0, -2));
  if (t.endsWith("ly") && t.length > 5) return t.slice(0, -2);
  return t;
}

function undouble(t: string): string {
  return /([bdgmnprt])\1$/.test(t) ? t.slice(0, -1) : t;
}
