import { foldWord, koreanStem } from "./fold.js";
import { americanSpelling } from "./spelling.js";
import { TokenTable } from "./token-table.js";
import { IdBuffer, type Vocabulary } from "./vocabulary.js";

/**
 * Text analysis shared by indexing and querying: the same tokenizer and term normaliser on
 * both sides, or queries silently miss.
 */

/** A letter/digit run, with inner `_`, `.`, `-`, `'`, `/` joining identifier, version and path parts (`tools/call`).
 *  Combining marks and zero-width joiners are part of a word: Devanagari vowel signs, Arabic
 *  tashkeel and Hebrew points are marks, and a word must not break at each of them. */
const TOKEN_SOURCE = "[\\p{L}\\p{N}\\p{M}\\u200c\\u200d]+(?:[_.\\-'/][\\p{L}\\p{N}\\p{M}\\u200c\\u200d]+)*";
const JOINER_RE = /[_.\-'/]/;
// An acronym's plural is one word: `URLs`, `APIs`, `IDs` are not `UR` + `Ls` (those parts matched
// `ls` commands and pages about nothing asked).
const CAMEL_RE = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})(?!\p{Lu}s$)/u;

/** A fresh matcher of raw tokens (global regexes carry state, so each caller gets its own). */
export function tokenMatcher(): RegExp {
  return new RegExp(TOKEN_SOURCE, "gu");
}

/**
 * Tokens of a text, in order. Compound identifiers are kept whole and also split into their
 * parts: `api_key` gives `api_key`, `api`, `key`; `createCart` gives `createCart`, `create`,
 * `Cart`; `v2.1` gives `v2.1`, `v2`, `1`. So both `api_key` and "api key" find it.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(new RegExp(TOKEN_SOURCE, "gu"))) tokenParts(out, m[0]);
  return out;
}

/** Push a token and, for compounds, its parts. */
function tokenParts(out: string[], token: string): void {
  if (CJK_RE.test(token)) {
    cjkParts(out, token);
    return;
  }
  out.push(token);
  if (JOINER_RE.test(token)) {
    for (const part of token.split(JOINER_RE)) {
      // `don't` should not also index `t`; single letters carry nothing.
      if (part.length > 1 || /\d/.test(part)) {
        out.push(part);
        camelParts(out, part);
      }
    }
  } else {
    camelParts(out, token);
  }
}

/** Han, kana and Hangul: scripts written without spaces between words. */
// The prolonged sound mark ー (and its half-width form) is Script=Common but part of katakana words (ナレッジベース).
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\uff70]/u;
const CJK_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\uff70]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\uff70]+/gu;

/**
 * ICU's word segmenter (built into Node; dictionary-based for Chinese and Japanese, the same
 * dictionary whatever the locale). Stateless once made, so one serves every analyzer. Made at the
 * first text in such a script, not at import: making it takes ~16 ms of CPU (ICU loads its
 * dictionaries), which every start paid before its first answer, and every thread that imports
 * this module (the shell's, the analysis workers), whether or not the site has such text (issue 22).
 */
let segmenter: Intl.Segmenter | undefined;
function wordSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  return segmenter;
}
const HIRAGANA_RE = /^\p{Script=Hiragana}$/u;
const HANGUL_RE = /^\p{Script=Hangul}+$/u;

/**
 * Text in scripts without spaces between words comes as one long token; it is split into words
 * with `Intl.Segmenter`, on both sides, so 创建知识库 gives 创建, 知识, 库 as 创建 知识库 does and
 * finds the page titled 创建即用型知识库 (创建, 即, 用, 型, 知识, 库). A word of three or more
 * characters is also indexed as its character pairs, as a compound's parts: the segmenter does
 * not always cut a word the same way in a query and in a sentence (知识库 / 知识 库), and Korean
 * words carry their particles (베이스를). Single hiragana are particles (を, て) and go. Latin
 * parts of the token stay words.
 */
function cjkParts(out: string[], token: string): void {
  for (const m of token.matchAll(CJK_RUN_RE)) {
    if (!CJK_RE.test(m[0])) {
      const rest = m[0].replace(/^[_.\-']+|[_.\-']+$/g, "");
      if (rest !== "") tokenParts(out, rest);
      continue;
    }
    const run = m[0];
    for (const segment of run.length <= SHORT_RUN ? shortRunWords(run) : wordsOf(run)) {
      const word = [...segment];
      if (word.length === 1) {
        if (!HIRAGANA_RE.test(segment)) out.push(segment);
        continue;
      }
      out.push(segment);
      const bare = HANGUL_RE.test(segment) ? koreanStem(segment) : undefined;
      if (bare !== undefined) out.push(bare);
      if (word.length >= 3) for (let i = 0; i + 1 < word.length; i++) out.push((word[i] as string) + (word[i + 1] as string));
    }
  }
}

/** A run's word-like segments. */
function* wordsOf(run: string): Generator<string> {
  for (const seg of run.length <= SEGMENT_WINDOW ? wordSegmenter().segment(run) : cjkSegments(run)) if (seg.isWordLike === true) yield seg.segment;
}

/**
 * Runs this short are segmented once and remembered: each call of the segmenter costs several
 * microseconds whatever the run, and a token alternating a kanji with a letter (`漢a漢a...`, a
 * 2 MB page of it) is half a million one-character runs, which held every caller 5.5 s at a
 * save (adversary, 2026-12-05). Prose repeats its short runs too.
 */
const SHORT_RUN = 8;
const MAX_SHORT_RUNS = 65_536;
const shortRuns = new Map<string, readonly string[]>();

function shortRunWords(run: string): readonly string[] {
  let words = shortRuns.get(run);
  if (words === undefined) {
    words = [...wordsOf(run)];
    // Bounded: a page of distinct short runs starts the table afresh.
    if (shortRuns.size >= MAX_SHORT_RUNS) shortRuns.clear();
    shortRuns.set(run, words);
  }
  return words;
}

/**
 * The longest text handed to the segmenter at once. ICU's dictionary segmenter takes time growing
 * with the square of an unbroken run's length (32,000 kanji 0.3 s, 128,000 15 s, a 1.9 MB page
 * six minutes), and real prose breaks its runs at punctuation every few dozen characters; so a
 * longer run is read in windows of this size, and every run as long as real text has is cut as
 * before.
 */
const SEGMENT_WINDOW = 512;
/** The words ending this close to a window's end are read again at the start of the next window:
 *  the cut may have split one (ナレッジベース read as ナ + レ), and the segmenter weighs the text
 *  after a word to cut it. */
const SEGMENT_MARGIN = 64;

/** A run's segments, read in bounded windows (see `SEGMENT_WINDOW`). */
function* cjkSegments(run: string): Generator<{ segment: string; isWordLike?: boolean }> {
  let start = 0;
  while (start < run.length) {
    let end = Math.min(start + SEGMENT_WINDOW, run.length);
    // Never part a surrogate pair: Han extension characters are astral.
    if (end < run.length && isHighSurrogate(run.charCodeAt(end - 1))) end--;
    const segments = wordSegmenter().segment(run.slice(start, end));
    if (end === run.length) {
      yield* segments;
      return;
    }
    let next = start;
    for (const seg of segments) {
      // Past the first word (so each window moves on), stop at the words near the cut.
      if (next > start && seg.index + seg.segment.length > end - start - SEGMENT_MARGIN) break;
      yield seg;
      next = start + seg.index + seg.segment.length;
    }
    start = next;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function camelParts(out: string[], token: string): void {
  // Cheap test first: most words are lowercase or Capitalised and have no inner capital.
  if (token.length < 4 || !hasInnerCapital(token)) return;
  const parts = token.split(CAMEL_RE);
  if (parts.length > 1) for (const p of parts) if (p.length > 1) out.push(p);
}

function hasInnerCapital(token: string): boolean {
  for (let i = 1; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if ((c >= 65 && c <= 90) || (c > 127 && token[i] !== (token[i] as string).toLowerCase())) return true;
  }
  return false;
}

/**
 * Words too common in docs and questions to carry meaning: function words, question words
 * ("how do I ...") and the particle "up" ("set up" should find setup pages, not every page
 * with "settings" and "up"; the join of split words still finds `setup`). "not", "no" and
 * "without" are kept: they change what an error message or a question means.
 */
const STOP_WORDS = new Set([
  "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "being", "but",
  "by", "can", "could", "did", "do", "does", "doing", "done", "for", "from", "had", "has", "have", "having", "he",
  "her", "here", "him", "his", "how", "i", "i'm", "if", "in", "into", "is", "it", "it's", "its", "just", "let", "me",
  "might", "must", "my", "of", "on", "or", "our", "ours", "shall", "she", "should", "so", "some", "than", "that",
  "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "too", "up", "us", "very", "via", "was",
  "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom", "whose", "why", "will", "with",
  "would", "you", "your", "yours",
]);

/**
 * The same for the other languages docs sites are written in: question words and the articles,
 * prepositions and conjunctions a question is built with ("Como verificar a assinatura de um
 * webhook", "كيفية تثبيت", "메모리 설정 방법"), kept in folded form (the form `term` checks). Words
 * that are also English terms worth finding (`no`, `comment`, `per`, `mit`, `est`, `y`, single
 * letters) or language codes in titles (`en`, `es`) are left out; so are negations, as in English.
 */
const OTHER_STOP_WORDS = [
  // Portuguese, Spanish, Catalan, Italian
  "como", "cómo", "que", "qué", "de", "da", "do", "das", "dos", "del", "della", "di", "un", "uma", "una", "um", "el", "la", "los", "las", "il",
  "lo", "gli", "le", "les", "o", "os", "e", "em", "na", "nas", "nos", "para", "por", "con", "mi", "meu", "minha",
  "seu", "sua", "su", "se", "ao", "al", "é", "està",
  // French
  "quel", "quelle", "des", "du", "une", "et", "pour", "avec", "dans", "mon", "ma", "mes", "au", "aux", "ce", "cette", "je",
  // German, Dutch
  "wie", "was", "der", "die", "das", "den", "dem", "des", "und", "ein", "eine", "einen", "für", "von", "zu", "ich", "ist", "im", "auf",
  "hoe", "wat", "het", "een", "van", "voor", "met", "ik", "mijn",
  // Swedish, Norwegian, Finnish
  "hur", "och", "att", "för", "med", "på", "jeg", "og", "hvordan", "miten", "ja", "kuinka",
  // Polish, Czech, Hungarian, Romanian, Latvian, Indonesian, Vietnamese, Uzbek, Turkish
  "jak", "się", "na", "do", "dla", "jaký", "se", "hogyan", "a", "az", "egy", "cum", "și", "în", "pentru",
  "kā", "un", "ar", "bagaimana", "cara", "yang", "dan", "di", "untuk", "ke", "làm", "thế", "nào", "của", "và", "qanday", "va", "nasıl", "ve", "bir", "için",
  // Russian, Ukrainian
  "как", "в", "на", "и", "с", "для", "что", "як", "і", "з", "що",
  // Arabic, Hebrew, Hindi
  "كيف", "كيفية", "ما", "ماذا", "هل", "في", "من", "إلى", "على", "عن", "مع", "هذا", "هذه", "ذلك", "التي", "الذي", "أو", "ثم", "איך", "מה", "של", "את",
  "कैसे", "क्या", "के", "की", "का", "में", "है", "और", "से", "को",
  // Korean
  "방법", "어떻게", "무엇", "무엇인가요",
];
for (const w of OTHER_STOP_WORDS) STOP_WORDS.add(foldWord(w));

/** Whether a lowercase word is a stop word. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * Lowercases, drops stop words and stems, giving terms as strings (queries, snippets) or as
 * vocabulary ids (indexing). Results are memoised per raw token: a docs site has tens of
 * thousands of distinct words but millions of tokens, so indexing is mostly one map lookup per
 * token.
 */
export class Analyzer {
  private readonly single = new Map<string, string | null>();
  private readonly tokenCache = new Map<string, readonly string[]>();
  /** Raw token -> term ids (see `lookupToken`). */
  private readonly table = new TokenTable(MAX_CACHED_TOKENS);
  /** Per UTF-16 code unit: 0 unknown, 1 letter or digit, 2 other. */
  private readonly charClass = new Uint8Array(65536);
  /** The hash of the token `tokenEnd` last found. */
  private hash = 0;

  constructor(readonly vocabulary: Vocabulary) {}

  /** The index term of a single token, or null for a stop word. */
  term(token: string): string | null {
    const cached = this.single.get(token);
    if (cached !== undefined) return cached;
    const lower = foldWord(token.toLowerCase());
    const result = STOP_WORDS.has(lower) ? null : stem(americanSpelling(lower));
    // Bounded: a long-running server indexing edit after edit must not grow without limit.
    if (this.single.size > MAX_CACHED_TOKENS) this.single.clear();
    this.single.set(token, result);
    return result;
  }

  /**
   * Forget memoised tokens. Indexing a site fills the caches with every distinct word (megabytes
   * on a large site); afterwards only edits and snippets use them, and they refill with little.
   */
  releaseCaches(): void {
    this.single.clear();
    this.tokenCache.clear();
    this.table.clear();
  }

  /** Index terms of one raw token (the whole, then compound parts), memoised. */
  tokenTerms(token: string): readonly string[] {
    const cached = this.tokenCache.get(token);
    if (cached !== undefined) return cached;
    const parts: string[] = [];
    tokenParts(parts, token);
    const out: string[] = [];
    for (const p of parts) {
      const t = this.term(p);
      if (t !== null) out.push(t);
    }
    if (this.tokenCache.size > MAX_CACHED_TOKENS) this.tokenCache.clear();
    this.tokenCache.set(token, out);
    return out;
  }

  /** Index terms of a text, in order (stop words dropped; compound parts follow the whole). */
  terms(text: string): string[] {
    const out: string[] = [];
    for (const tok of tokenize(text)) {
      const t = this.term(tok);
      if (t !== null) out.push(t);
    }
    return out;
  }

  /**
   * Vocabulary ids of a text's terms, in order: what the index stores. Tokens are the same as
   * `tokenize` finds, but scanned by hand and looked up without slicing the text, so a known
   * token costs no allocation (indexing time is mostly this loop).
   */
  termIds(text: string): number[] {
    const buf = new IdBuffer();
    this.appendTermIds(text, buf);
    return [...buf.copy()];
  }

  /** Append the vocabulary ids of a text's terms to `out` (see `termIds`). */
  appendTermIds(text: string, out: IdBuffer): void {
    // `scan`'s loop without a callback per token: this is most of indexing's tokenizing.
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c0 = text.charCodeAt(i);
      const w = c0 < 128 ? (ASCII_WORD[c0] as number) : this.wordCharAt(text, i);
      if (w === 0) {
        i++;
        continue;
      }
      const start = i;
      i = this.tokenEnd(text, i, w);
      const entry = this.lookupToken(text, start, i, this.hash);
      const ids = this.table.ids;
      const end = entry + 1 + (ids[entry] as number);
      for (let k = entry + 1; k < end; k++) out.push(ids[k] as number);
    }
  }

  /**
   * Visit each term id of each token of a text with the token's start offset, in order: the
   * tokens `tokenize` finds, scanned by hand and looked up without slicing the text.
   */
  scan(text: string, visit: (start: number, id: number) => void): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c0 = text.charCodeAt(i);
      const w = c0 < 128 ? (ASCII_WORD[c0] as number) : this.wordCharAt(text, i);
      if (w === 0) {
        i++;
        continue;
      }
      const start = i;
      i = this.tokenEnd(text, i, w);
      const entry = this.lookupToken(text, start, i, this.hash);
      const ids = this.table.ids;
      const end = entry + 1 + (ids[entry] as number);
      for (let k = entry + 1; k < end; k++) visit(start, ids[k] as number);
    }
  }

  /** The end of the token starting at `i` (whose first character is `w` units long); its hash
   *  is left in `hash`. */
  private tokenEnd(text: string, from: number, first: number): number {
    const n = text.length;
    let i = from;
    let w = first;
    let h = 0x811c9dc5;
    for (;;) {
      if (w === 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
      else h = Math.imul(Math.imul(h ^ text.charCodeAt(i), 0x01000193) ^ text.charCodeAt(i + 1), 0x01000193);
      i += w;
      if (i >= n) break;
      const c = text.charCodeAt(i);
      w = c < 128 ? (ASCII_WORD[c] as number) : this.wordCharAt(text, i);
      if (w !== 0) continue;
      // An inner joiner (`_ . - '`) continues the token only when a word character follows.
      if ((c === 95 || c === 46 || c === 45 || c === 39) && i + 1 < n) {
        const c2 = text.charCodeAt(i + 1);
        w = c2 < 128 ? (ASCII_WORD[c2] as number) : this.wordCharAt(text, i + 1);
        if (w !== 0) {
          h = Math.imul(h ^ c, 0x01000193);
          i++;
          continue;
        }
      }
      break;
    }
    this.hash = h;
    return i;
  }

  /** 0 if `text[i]` is not a letter or digit, else its length in UTF-16 units (1, or 2 for astral). */
  private wordCharAt(text: string, i: number): number {
    const c = text.charCodeAt(i);
    if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) ? 1 : 0;
    if (c >= 0xd800 && c <= 0xdbff) {
      const cp = text.codePointAt(i) as number;
      return cp > 0xffff && WORD_CHAR_RE.test(String.fromCodePoint(cp)) ? 2 : 0;
    }
    let k = this.charClass[c] as number;
    if (k === 0) {
      k = WORD_CHAR_RE.test(String.fromCharCode(c)) ? 1 : 2;
      this.charClass[c] = k;
    }
    return k === 1 ? 1 : 0;
  }

  /** The entry in `table.ids` of the term ids of the token `text[start, end)` (hash `hash`). */
  private lookupToken(text: string, start: number, end: number, hash: number): number {
    const found = this.table.find(text, start, end, hash);
    if (found !== -1) return found;
    // A copy, not a slice: a slice keeps the whole text it came from alive for as long as the
    // term cache holds the token or its parts (megabytes of page text, long after indexing).
    const token = ` ${text.slice(start, end)}`.slice(1);
    const parts: string[] = [];
    tokenParts(parts, token);
    const ids: number[] = [];
    for (const p of parts) {
      const t = this.term(p);
      if (t !== null) ids.push(this.vocabulary.id(t));
    }
    return this.table.add(text, start, end, hash, ids);
  }
}

const WORD_CHAR_RE = /^[\p{L}\p{N}\p{M}\u200c\u200d]$/u;

/** ASCII letters and digits (1) and everything else (0), for the scanner's fast path. */
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, c) => ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) ? 1 : 0));

/** Distinct raw tokens remembered before a cache starts afresh: a large docs site has tens of
 *  thousands, and a long-running server must not grow without limit. */
const MAX_CACHED_TOKENS = 200_000;

/**
 * A light English stemmer for documentation. Inflections (`webhooks`, `configured`,
 * `installing`) and a few safe derivations (`configuration` -> `configure`, `customization` ->
 * `customize`, `notification` -> `notify`) meet at one stem. Deliberately weaker than Porter's:
 * Porter merges `customer` with `customize` and `production` with `product`, and in docs those
 * are different subjects. Words with digits, or other scripts, are left alone.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !isAsciiLower(word)) return word;
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return irregular;
  // Portuguese, Spanish and Italian nouns of action meet their verb (accents are folded before):
  // `instalação` -> `instalar`, the word a reader types ("como instalar"); `configuraciones`,
  // `installazione` likewise. No English word ends so; French `-ation` is English's and stays.
  const romance = ROMANCE_ACTION.exec(word);
  if (romance !== null) return stem(`${romance[1] as string}${romance[2] === "azione" || romance[2] === "azioni" ? "are" : "ar"}`);
  let w = word;
  // Plurals and third person. A vowel's `y` takes a plain `s` (`keys`, `days`, `arrays`,
  // `gateways`, `relays`): before, `-ys` was left whole, so "API keys" missed every page titled
  // API Key and the reverse (issue 24). `-is` is a singular (`analysis`, `chassis`) except in a
  // short word, where it is mostly an acronym's plural: `APIs`, `URIs`, `CLIs`, `KPIs`, `emojis`
  // (`redis` and `basis` lose an `s` too, the same on both sides).
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("xes") || w.endsWith("ches") || w.endsWith("shes") || w.endsWith("zzes")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !(w.endsWith("ss") || w.endsWith("us") || (w.endsWith("is") && w.length > 6))) w = w.slice(0, -1);
  // Past and progressive.
  if (w.endsWith("ied") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ing") && hasVowel(w.slice(0, -3)) && w.length >= 6) w = restoreE(w.slice(0, -3));
  else if (w.endsWith("ed") && !w.endsWith("eed") && hasVowel(w.slice(0, -2)) && w.length >= 5) w = restoreE(w.slice(0, -2));
  else if (w.endsWith("ly") && w.length > 5) w = w.slice(0, -2);
  // A few derivations that stay on topic.
  if (w.endsWith("ization") || w.endsWith("isation")) w = `${w.slice(0, -7)}iz`;
  else if (w.endsWith("ification")) w = `${w.slice(0, -9)}ify`;
  else if (w.endsWith("ation") && w.length >= 8) w = w.slice(0, -5);
  // Not `-ument` and `-iment` (`instrument`, `experiment`, `document`): no verb comes before them,
  // and `instrumentation` would not meet `instrument`.
  else if (w.endsWith("ment") && w.length >= 10 && !"iu".includes(w[w.length - 5] as string)) w = w.slice(0, -4);
  // `automatically` and `automatic`, `programmatically` and `programmatic`, `numerical` and
  // `numeric` are one word to a reader ("renew automatically" asks for Automatic renewal).
  else if (w.endsWith("ical") && w.length >= 7) w = w.slice(0, -2);
  // Nouns made from verbs that readers and pages swap ("is it compatible" / Compatibility,
  // "approve" / Approval, "delete" / Deletion; issue 24, twenty-fifth round). `-bility` meets
  // `-ble`; `-val`, `-wal`, `-sal` lose `-al` (`removal`, `renewal`, `proposal`); `-etion` and
  // `-ution` lose `-ion` (`deletion`, `completion`, `execution`, `distribution`). Not `-ection`
  // (`connection` for "connect" cost the shared corpora a judged page) nor `-uction`
  // (`production` is not `product`).
  else if (w.endsWith("bility") && w.length >= 9) w = `${w.slice(0, -5)}le`;
  else if (w.length >= 7 && (w.endsWith("val") || w.endsWith("wal") || w.endsWith("sal"))) w = w.slice(0, -2);
  else if (w.length >= 8 && (w.endsWith("etion") || w.endsWith("ution"))) w = w.slice(0, -3);
  // `configure`, `configured` and `configuration` all end as `configur`; `translate`,
  // `translating` and `translation` as `transl`.
  // A singular in `-ie` meets its plural, which lost `-ies` for `-y` above: `cookie` and
  // `cookies` are `cooky`, `movie` and `movies` `movy`.
  if (w.endsWith("ie") && w.length >= 5) w = `${w.slice(0, -2)}y`;
  else if (w.endsWith("e") && w.length >= 4 && !isShort(w.slice(0, -1))) w = w.slice(0, -1);
  // Not `format`, which would be `form`: a form and its fields are another subject than an output
  // format ("date format" lifted every page of a forms product). Not after `e` or `o` either
  // (`treat`, `threat`, `float`, `great`: words in `-at`, not verbs in `-ate`, which would be
  // `tree`, `three`, `floe`), but for `create`, which meets `creation` so.
  if (w.endsWith("at") && w.length >= 5 && w !== "format" && (!"eo".includes(w[w.length - 3] as string) || w.endsWith("creat"))) w = w.slice(0, -2);
  // British doubles the `l` of `cancel`, `label`, `model`, `travel`, `fulfil` before a suffix
  // (`cancelled`, `labelling`, `cancellation`), American does not: both meet at one `l`. Short
  // stems keep theirs (`spell`, `shell`, `skill`, `still`), and `-all` words never double
  // (`install`, `firewall`).
  if (w.length >= 6 && w.endsWith("ell")) w = w.slice(0, -1);
  else if (w.length >= 7 && w.endsWith("ill")) w = w.slice(0, -1);
  return w;
}

/**
 * Words the rules would bring to another word, as Porter2 lists its exceptional forms: `locale`
 * loses its `e` and would be `local` (setting a locale met every page on local development), and
 * `embed` loses `-ed` as a past tense does and would be `emb`, where `embedded` and `embedding`
 * are `embed`. `notation` loses `-ation` and would be `not`, the negation every question's "not"
 * is kept as (dot notation met "webhook not received"); so `foundation` would be `found` ("not
 * found" met every foundation model), `dictation` and `dictate` `dict` (Python's), `ideation`
 * `ide`. `cite` keeps its `e` as a short word, where `citation` comes to `cit`: its forms
 * meet there.
 */
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ["locale", "locale"],
  ["locales", "locale"],
  ["embed", "embed"],
  ["embeds", "embed"],
  ["notation", "notation"],
  ["notations", "notation"],
  ["foundation", "foundation"],
  ["foundations", "foundation"],
  ["ideation", "ideation"],
  ["dictate", "dictat"],
  ["dictates", "dictat"],
  ["dictated", "dictat"],
  ["dictating", "dictat"],
  ["dictation", "dictat"],
  ["dictations", "dictat"],
  ["cite", "cit"],
  ["cites", "cit"],
  ["cited", "cit"],
  ["citing", "cit"],
]);

const ROMANCE_ACTION = /^([a-z]{3,}?)(acao|acoes|acion|aciones|azione|azioni)$/;

function isAsciiLower(w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

function hasVowel(s: string): boolean {
  for (let i = 0; i < s.length; i++) if ("aeiouy".includes(s[i] as string)) return true;
  return false;
}

/**
 * What is left of a word once `-ing` or `-ed` came off: a doubled consonant undone (`shipp` ->
 * `ship`), or a short word given back its `e` (`cod` -> `code`, `stat` -> `state`), so that it
 * meets the word it came from, which keeps its `e` (see `isShort`).
 */
function restoreE(w: string): string {
  const single = undouble(w);
  return single === w && isShort(w) ? `${w}e` : single;
}

/**
 * Porter2's short word: one vowel group, then a single consonant that ends the word (not `w`,
 * `x` or `y`) after a consonant or at the start: `stat`, `mod`, `not`, `plan`, `strip`, `pip`.
 * Such a word keeps a final `e` (`state`, `mode`, `note`, `plane`, `stripe`, `pipe`): taking it
 * off made each the other word (a question about a stream's state met every page of stats, "go
 * mod" every page of a mode). Longer words still lose theirs (`configure` -> `configur`).
 */
function isShort(w: string): boolean {
  const n = w.length;
  if (n < 2) return false;
  const last = w[n - 1] as string;
  if (isVowel(last) || "wxy".includes(last) || !isVowel(w[n - 2] as string)) return false;
  if (n > 2 && isVowel(w[n - 3] as string)) return false;
  for (let i = 0; i < n - 2; i++) if (isVowel(w[i] as string)) return false;
  return true;
}

function isVowel(c: string): boolean {
  return "aeiouy".includes(c);
}

/** `shipp` -> `ship`, but `install` and `process` keep their double letters. */
function undouble(w: string): string {
  const last = w[w.length - 1] as string;
  return w.length > 1 && last === w[w.length - 2] && "bdgmnprt".includes(last) ? w.slice(0, -1) : w;
}
