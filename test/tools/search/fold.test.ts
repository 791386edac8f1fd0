import { describe, expect, it } from "vitest";
import { foldWord, koreanStem } from "../../../src/engine/search/fold.js";
import { Analyzer, tokenize } from "../../../src/engine/search/terms.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";

describe("foldWord", () => {
  // A light stemmer over-stems some short words (آلية to يه), as light10 does: both sides alike.
  it("Arabic: tashkeel, tatweel, alef forms, alef maqsura, ta marbuta, the article and attached prefixes, suffixes", () => {
    expect(["التثبيت", "تثبيت", "والتثبيت", "بالتثبيت", "الذَّاكِرَةُ", "ذاكرة", "إعداد", "أعداد", "آلية", "مستوى", "الـتـثـبـيـت", "للمستخدمين"].map(foldWord)).toEqual([
      "تثبيت", "تثبيت", "تثبيت", "تثبيت", "ذاكر", "ذاكر", "اعداد", "اعداد", "يه", "مستو", "تثبيت", "مستخدم",
    ]);
  });

  it("Latin and Greek lose their marks; ß, æ, ø, ł, đ spell out; Turkish ı and İ are i; Cyrillic folds only ё", () => {
    expect(["configuração", "größe", "æble", "søg", "łódź", "đặt", "ılık", "i̇zin", "άδεια", "ёлка", "йод", "oʻrnatish", "می\u200cخواهم"].map(foldWord)).toEqual([
      "configuracao", "grosse", "aeble", "sog", "lodz", "dat", "ilik", "izin", "αδεια", "елка", "йод", "o'rnatish", "ميخواهم",
    ]);
  });

  it("Hebrew loses its points; Devanagari keeps its vowel signs", () => {
    expect([foldWord("הַתְקָנָה"), foldWord("स्थापना")]).toEqual(["התקנה", "स्थापना"]);
  });
});

describe("koreanStem", () => {
  it("takes an attached particle or 하다 ending, one-syllable ones only from longer words", () => {
    expect(["설치를", "키를", "설정하는", "서버에서", "게이트웨이", "파이", "메모리"].map(koreanStem)).toEqual(["설치", "키", "설정", "서버", "게이트웨", undefined, undefined]);
  });
});

describe("tokens across scripts", () => {
  it("keeps combining marks inside a word (Devanagari vowel signs, Arabic tashkeel)", () => {
    expect(tokenize("स्थापना कैसे करें الذَّاكِرَةُ")).toEqual(["स्थापना", "कैसे", "करें", "الذَّاكِرَةُ"]);
  });

  it("drops question words and articles of other languages", () => {
    const a = new Analyzer(new Vocabulary());
    expect(["كيفية تثبيت crewai", "Como verificar a assinatura de um webhook", "메모리 설정 방법", "comment créer une clé"].map((q) => a.terms(q))).toEqual([
      ["تثبيت", "crewai"],
      ["verificar", "assinatura", "webhook"],
      ["메모리", "메모", "모리", "설정"],
      // French "comment" (how) stays: it is an English word docs are written about.
      ["comment", "creer", "cle"],
    ]);
  });
});
