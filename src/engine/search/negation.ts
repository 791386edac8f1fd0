/**
 * The words a question says it does not want (issue 24, tune half): "link my bot without scanning
 * a QR code" asks for the pairing-code page, "get every URL of a website without scraping it" for
 * the map feature, "send money to an IP asset without minting a license" for tipping. The page
 * titled with the words after "without" (Scrape, License Token) came first, above the page about
 * the other way. Such a word names no title (`negatedTitleWeight`, ranking.ts); it still counts
 * in the text, at full weight: the page asked for usually names the way it replaces, and "which
 * models can I use without paying" asks for the page on free models, which says "paying" (to
 * count it lower there cost that question its place on cline, for 0.01 of MRR elsewhere).
 *
 * A negation opens at "without", "instead of" or "rather than" (English only: the other
 * languages' questions measured are few, and their forms would be guessed) and runs to the end of
 * the clause: a punctuation mark, a word that opens another clause ("and", "but", "or", "so",
 * "then", "to", "while", "because", "when"), or `MAX_SCOPE` words.
 */
export const MAX_SCOPE = 5;

const OPEN_RE = /\b(?:without|instead\s+of|rather\s+than)\b/gi;
const CLAUSE_WORDS = new Set(["and", "but", "so", "then", "while", "because", "when", "or", "to"]);

/**
 * The text of `query` inside negations and the rest of it, for the analyzer to make terms of:
 * a term only the first holds is negated.
 */
export function negationScopes(query: string): { readonly negated: string; readonly rest: string } {
  if (!/without|instead|rather/i.test(query)) return { negated: "", rest: query };
  let negated = "";
  let rest = "";
  let done = 0;
  for (const open of query.matchAll(OPEN_RE)) {
    const at = open.index;
    if (at < done) continue;
    const from = at + open[0].length;
    // The clause: up to a punctuation mark, then its first MAX_SCOPE words up to a clause word.
    const stop = /[,.;:!?()]/.exec(query.slice(from));
    const clause = query.slice(from, stop === null ? query.length : from + stop.index);
    const words = clause.split(/(\s+)/);
    let end = 0;
    let count = 0;
    for (const w of words) {
      if (w.trim() !== "") {
        if (count > 0 && CLAUSE_WORDS.has(w.toLowerCase())) break;
        if (++count > MAX_SCOPE) break;
      }
      end += w.length;
    }
    rest += query.slice(done, from) + " ";
    negated += query.slice(from, from + end) + " ";
    done = from + end;
  }
  rest += query.slice(done);
  return { negated, rest };
}
