/**
 * A row of words of like meaning (`paraphrases.ts`, `thesaurus.ts`): the words a question writes,
 * the words docs write for them, and whether the docs' words also stand in for the question's
 * (only where each word has one sense in docs).
 */
export interface ParaphraseRow {
  readonly words: readonly string[];
  readonly docs: readonly string[];
  readonly both: boolean;
}
