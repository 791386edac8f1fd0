/**
 * Script-aware folding of a lowercased word, shared by indexing and querying (through
 * `Analyzer.term`): the forms a reader types and the forms a page writes meet at one term.
 * Only what does not change a word's meaning within its script is folded:
 *
 * - Latin and Greek: accents and other marks go (`configuração` = `configuracao`, `Schlüssel` =
 *   `schlussel`, `άδεια` = `αδεια`), as most readers type questions without them; ß, æ, œ, ø,
 *   ł, đ, ð, þ spell out, and Turkish dotless ı and dotted İ (lowercased `i̇`) are `i`.
 * - Cyrillic: only ё is е (Russian writes both); й and ї are letters of their own.
 * - Arabic: tashkeel and tatweel go; alef forms (أ إ آ ٱ) are ا, ى is ي, ة is ه, Persian ک/ی are
 *   ك/ي; then a light stemmer (Larkey's light10) takes the conjunction و, the article ال with
 *   its attached prepositions (بال، كال، فال، لل) and common suffixes, so التثبيت and تثبيت meet.
 * - Hebrew: points (niqqud, cantillation) go. Attached prefixes stay: a one-letter prefix cannot
 *   be told from a word's first letter without a dictionary.
 * - Korean particles are handled where Hangul is split into words (`terms.ts`).
 * - Uzbek's modifier-letter apostrophes (oʻ, gʻ) are the ASCII apostrophe readers type.
 * - Scripts whose marks are vowels (Devanagari and other Indic scripts, Thai) keep them.
 */
export function foldWord(lower: string): string {
  // Zero-width (non-)joiners shape letters (Persian half-spaces, Indic conjuncts): not part of the word.
  if (lower.includes("\u200c") || lower.includes("\u200d")) return foldWord(lower.replace(/[\u200c\u200d]/g, ""));
  let latin = false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c < 0x80) continue;
    // Uzbek writes oʻ and gʻ with a modifier letter; readers type an apostrophe.
    if (c === 0x02bb || c === 0x02bc) return foldWord(lower.replace(/[\u02bb\u02bc]/g, "'"));
    if (c >= 0x0600 && c <= 0x06ff) return foldArabic(lower);
    if (c >= 0x0590 && c <= 0x05ff) return lower.replace(HEBREW_POINTS_RE, "");
    if (c === 0x0451) return lower.replaceAll("ё", "е");
    if ((c >= 0x00c0 && c <= 0x036f) || (c >= 0x0370 && c <= 0x03ff) || (c >= 0x1e00 && c <= 0x1fff)) latin = true;
  }
  if (!latin) return lower;
  const out = lower.normalize("NFD").replace(COMBINING_RE, "");
  return SPELLED_RE.test(out) ? out.replace(SPELLED_RE, (ch) => SPELLED[ch] as string) : out;
}

const COMBINING_RE = /[\u0300-\u036f]/g;
const HEBREW_POINTS_RE = /[\u0591-\u05c7]/g;
const SPELLED: Readonly<Record<string, string>> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i", ς: "σ" };
const SPELLED_RE = /[ßæœøłđðþıς]/g;

/** Tashkeel (U+064B-U+065F), superscript alef (U+0670) and tatweel (U+0640). */
const TASHKEEL_RE = /[\u064b-\u065f\u0670\u0640]/g;
const ARABIC_LETTERS: Readonly<Record<string, string>> = { "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ى": "ي", "ة": "ه", "ک": "ك", "ی": "ي" };
const ARABIC_LETTERS_RE = /[أإآٱىةکی]/g;
/** The article with the prepositions and conjunctions written attached to it, longest first. */
const ARABIC_ARTICLES = ["وال", "بال", "كال", "فال", "لل", "ال"];
/** light10's suffixes, in its order (each taken at most once). */
const ARABIC_SUFFIXES = ["ها", "ان", "ات", "ون", "ين", "يه", "ه", "ي"];

/** Arabic letters normalised, without stemming (used for stop words, which are not stemmed). */
export function normalizeArabic(word: string): string {
  return word.replace(TASHKEEL_RE, "").replace(ARABIC_LETTERS_RE, (ch) => ARABIC_LETTERS[ch] as string);
}

function foldArabic(word: string): string {
  let w = normalizeArabic(word);
  if (w.length >= 4 && w.startsWith("و")) w = w.slice(1);
  for (const a of ARABIC_ARTICLES) {
    if (w.startsWith(a) && w.length - a.length >= 2) {
      w = w.slice(a.length);
      break;
    }
  }
  if (w.length > 2) {
    for (const s of ARABIC_SUFFIXES) {
      if (w.endsWith(s) && w.length - s.length >= 2) w = w.slice(0, -s.length);
    }
  }
  return w;
}

/**
 * Korean particles and the 하다 endings written attached to a word (설치를, 설정하는): the bare
 * word is indexed beside the written one, as a compound's part, so 설치 finds 설치를 and a
 * two-syllable word with a particle (키를) finds 키. Longest first; a word is never cut to nothing.
 */
const KOREAN_ENDINGS = [
  "하려면", "합니다", "하세요", "에서는", "으로는", "에서", "으로", "에게", "까지", "부터", "처럼", "보다", "하기", "하는", "하고",
  "하여", "해서", "이나", "이란", "를", "을", "은", "는",
];
/** One-syllable particles that also end many loanwords (게이트웨이, 파이): taken only from words
 *  of three syllables or more. */
const KOREAN_SHORT_ENDINGS = ["이", "가", "에", "의", "도", "만", "와", "과", "로", "나", "한"];

/** The word without an attached Korean particle or 하다 ending, or undefined if none. */
export function koreanStem(word: string): string | undefined {
  for (const e of KOREAN_ENDINGS) {
    if (word.length > e.length && word.endsWith(e)) return word.slice(0, -e.length);
  }
  if (word.length >= 3) for (const e of KOREAN_SHORT_ENDINGS) if (word.endsWith(e)) return word.slice(0, -e.length);
  return undefined;
}
