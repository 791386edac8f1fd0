import type { Analyzer } from "./terms.js";
import { tokenMatcher } from "./terms.js";

/**
 * A raw word of a question (a token `tokenMatcher` finds), with what the analyzer makes of it.
 * Only the analyzer's output, which depends on the word alone: nothing of the index, a reader or
 * their access, so one word serves every reader's questions.
 */
export interface QueryWord {
  readonly raw: string;
  /** Its index terms, whole then compound parts, stop words dropped (`Analyzer.tokenTerms`). */
  readonly terms: readonly string[];
  /** The term of the whole word, or null for a stop word (`Analyzer.term`). */
  readonly term: string | null;
  /** Lowercased, as `namedVersion` compares words with version names. */
  readonly lower: string;
  /** Letters only: a word `joinedWords` may join with its neighbour. */
  readonly letters: boolean;
  /** The term of this word written together with the next (`Analyzer.term(raw + next.raw)`), by next word. */
  readonly joins: Map<QueryWord, string | null>;
}

/**
 * Distinct question words kept, and their joins (pairs of neighbours) together: past either they
 * all start afresh. The query stream's 420 questions have ~640 words and ~1,000 pairs; the
 * bounds keep a flood of made-up words to a few MB (a word or pair is a few dozen bytes and its
 * strings, each at most a 1,000-character query's).
 */
const MAX_WORDS = 8_192;
const MAX_JOINS = 32_768;

/**
 * The words of questions, analysed once per process (issue 23). Agents' questions are distinct
 * but their words are not, and resolving a question read each of them several times: tokenized
 * once for its terms and again for its joined words, each raw word and each pair of neighbours
 * (`log` + `in`) a new string looked up in the analyzer's token map (~200,000 entries on a large
 * site, where each look-up of a fresh string hashes it and misses the CPU's cache), 6-8% of a
 * distinct question's CPU on spree. Here a question is tokenized once, each word found once in a
 * map of question words only, and a pair's joined term is kept on the first word, keyed by the
 * second word's object. What is kept is the analyzer's output, the same whatever the index holds,
 * so nothing is ever stale; the words the index holds are looked up per search, under the
 * reader's statistics.
 */
export class QueryWords {
  private readonly words = new Map<string, QueryWord>();
  /** Joins kept on all the words. */
  private joins = 0;
  /** One matcher, reused: a `matchAll` copies its regex, and a copy of this one (Unicode
   *  classes) is compiled again once V8's compilation cache let it go (1-3 ms after a full GC). */
  private readonly matcher = tokenMatcher();

  constructor(private readonly analyzer: Analyzer) {}

  /** The words of `text`, in order. */
  of(text: string): QueryWord[] {
    const out: QueryWord[] = [];
    const matcher = this.matcher;
    matcher.lastIndex = 0;
    for (let m = matcher.exec(text); m !== null; m = matcher.exec(text)) out.push(this.word(m[0]));
    return out;
  }

  /** The term of `a` and `b` written as one word (`log` + `in`: `login`), or null for a stop word. */
  joined(a: QueryWord, b: QueryWord): string | null {
    let joined = a.joins.get(b);
    if (joined === undefined) {
      joined = this.analyzer.term(a.raw + b.raw);
      if (this.joins >= MAX_JOINS) this.forget();
      a.joins.set(b, joined);
      this.joins++;
    }
    return joined;
  }

  private word(raw: string): QueryWord {
    let word = this.words.get(raw);
    if (word === undefined) {
      // A copy, not the match: a slice would keep the whole question alive for as long as the word is kept.
      const own = ` ${raw}`.slice(1);
      word = { raw: own, terms: this.analyzer.tokenTerms(own), term: this.analyzer.term(own), lower: own.toLowerCase(), letters: LETTERS_RE.test(own), joins: new Map() };
      if (this.words.size >= MAX_WORDS) this.forget();
      this.words.set(own, word);
    }
    return word;
  }

  /** Start afresh: every word and its joins (words already read by a search keep theirs for it). */
  private forget(): void {
    for (const word of this.words.values()) word.joins.clear();
    this.words.clear();
    this.joins = 0;
  }
}

const LETTERS_RE = /^\p{L}+$/u;
