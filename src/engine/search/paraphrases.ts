import type { ParaphraseRow } from "./paraphrase-row.js";

/**
 * Words that questions and docs use for the same thing where they share no letters (issue 24,
 * the paraphrase misses): "write my own tool" asks for the page titled Create Custom Tools,
 * "re-run tasks" for Replay Tasks, "loop over every item" for the Iteration node, "erase my
 * data" for the page on deleting it. Stemming, prefixes, short forms (`abbreviations.ts`) and
 * fuzzy matching reach none of them. Each word of a group stands in for the others at
 * `paraphraseWeight` (ranking.ts), below a short form's `aliasWeight`: a paraphrase is close in
 * meaning, not the same word, and the page writing the question's own word keeps the lead when
 * it is otherwise as good.
 *
 * Only words with one sense in docs, and rare enough that the postings they add cost nothing
 * measurable: no `change`/`update`/`edit` (on most pages of any site), no `stop`/`cancel`
 * (stopping a server is not cancelling a job). English only: the other languages' questions
 * are few on the sites measured, and a word list for them would be guessed, not measured.
 */
/**
 * A row: the words a question writes, the words docs write for them, and whether the docs' words
 * also stand in for the question's (`remove` and `delete` are each what the other means; "my own
 * tool" is a custom one, but a question about a custom domain is not about owning one). Not
 * `own` for `self`(-hosted): on crewAI and Mem0 it lifted pages saying "self" in other senses.
 */
export const PARAPHRASE_ROWS: readonly ParaphraseRow[] = [
  { words: ["re-run", "rerun"], docs: ["replay"], both: true },
  { words: ["loop"], docs: ["iterate"], both: true },
  { words: ["remove", "erase"], docs: ["delete"], both: true },
  { words: ["own"], docs: ["custom"], both: false },
  { words: ["laptop"], docs: ["local"], both: false },
  // Everyday words for things docs name by their technical word (issue 24, twenty-fifth round):
  // one way where the docs' word has other senses a question's word does not (an `image` is also
  // a container image; `notify` and `performance` are broader).
  { words: ["picture", "photo"], docs: ["image"], both: false },
  { words: ["simultaneously", "concurrently", "concurrent"], docs: ["parallel"], both: true },
  { words: ["folder"], docs: ["directory"], both: true },
  { words: ["hotkey", "keybinding"], docs: ["shortcut"], both: true },
  { words: ["whitelist"], docs: ["allowlist"], both: true },
  { words: ["blacklist"], docs: ["denylist", "blocklist"], both: true },
  { words: ["alert"], docs: ["notify"], both: false },
  { words: ["cost"], docs: ["pricing"], both: false },
  { words: ["cron"], docs: ["schedule"], both: true },
  { words: ["speed"], docs: ["performance"], both: false },
  // What a reader who is in trouble or counting money writes, for the docs' word of the task
  // (issue 24, sixty-fourth round; written before any question was read, measured on the held-out
  // half). One way: the docs' words have other senses (a `member` of a type, a time `budget`).
  // A leaked or stolen credential is revoked or rotated, on every site that has keys.
  { words: ["leaked", "leak", "compromised", "stolen"], docs: ["revoke", "rotate"], both: false },
  { words: ["cheap", "cheaper", "cheapest", "expensive"], docs: ["pricing", "cost"], both: false },
  { words: ["undo"], docs: ["revert", "rollback"], both: false },
  { words: ["revert"], docs: ["rollback"], both: true },
  { words: ["hang", "hangs", "stuck", "freezes"], docs: ["timeout"], both: false },
  { words: ["wipe"], docs: ["delete"], both: false },
  { words: ["teammate", "teammates", "colleague", "coworker"], docs: ["member", "invite"], both: false },
  { words: ["kill"], docs: ["terminate"], both: true },
  { words: ["spend", "spending"], docs: ["budget"], both: false },
];

/**
 * Each word's stand-ins as index terms (`term` is the analyzer's: `iterate` is looked up as its
 * stem, which `iteration` shares). A stop word stands in for nothing. `rows`: this table's unless
 * given (the evaluation's A/B passes others: `bench/eval/external/thesaurus.ts`).
 */
export function paraphraseTable(term: (word: string) => string | null, rows: readonly ParaphraseRow[] = PARAPHRASE_ROWS): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  const terms = (words: readonly string[]): string[] => [...new Set(words.map(term).filter((t): t is string => t !== null))];
  const link = (from: readonly string[], to: readonly string[]): void => {
    for (const f of from) out.set(f, [...new Set([...(out.get(f) ?? []), ...to.filter((t) => t !== f)])]);
  };
  for (const row of rows) {
    const words = terms(row.words);
    const docs = terms(row.docs);
    link(words, [...docs, ...words]);
    if (row.both) link(docs, [...words, ...docs]);
  }
  return out;
}
