import { describe, expect, it } from "vitest";
import { describeLanguageCode, findLanguage, languageOf, sameLanguage } from "../../src/config/languages.js";
import { resolveLanguage } from "../../src/engine/search/scope.js";

/** The language table: which written codes are which language, and how each is written. */
describe("language codes", () => {
  it("reads the specification's codes, the platform's, and other forms of a known language; refuses the rest", () => {
    const read = (code: string) => {
      const m = languageOf(code);
      return m === undefined ? "unknown" : `${m.language.name} (${m.form})`;
    };
    const codes = ["cn", "zh", "zh-Hans", "zh-CN", "zh-cn", "ZH", "zh_CN", "zh-SG", "zh-Hant", "zh-TW", "zh-Hant-HK", "jp", "ja", "ja-JP", "JA", "ja_jp"];
    const more = ["da", "ua", "ko", "ko-KR", "kr", "pt-BR", "pt-br", "pt", "pt-PT", "fr", "fr-CA", "fr-BE", "en-US", "es-419", "iw", "nb", "English", "xx", "en-", "zh-Hant-TW-x"];
    expect(Object.fromEntries([...codes, ...more].map((c) => [c, read(c)]))).toEqual({
      cn: "Chinese (Simplified) (spec)",
      zh: "Chinese (Simplified) (platform)",
      "zh-Hans": "Chinese (Simplified) (platform)",
      "zh-CN": "Chinese (Simplified) (platform)",
      "zh-cn": "Chinese (Simplified) (alias)",
      ZH: "Chinese (Simplified) (alias)",
      zh_CN: "Chinese (Simplified) (alias)",
      "zh-SG": "Chinese (Simplified) (alias)",
      "zh-Hant": "Chinese (Traditional) (spec)",
      "zh-TW": "Chinese (Traditional) (platform)",
      "zh-Hant-HK": "Chinese (Traditional) (alias)",
      jp: "Japanese (spec)",
      ja: "Japanese (platform)",
      "ja-JP": "Japanese (platform)",
      JA: "Japanese (alias)",
      ja_jp: "Japanese (alias)",
      da: "Danish (platform)",
      ua: "Ukrainian (platform)",
      ko: "Korean (spec)",
      "ko-KR": "Korean (alias)",
      kr: "unknown",
      "pt-BR": "Portuguese (Brazil) (spec)",
      "pt-br": "Portuguese (Brazil) (alias)",
      pt: "Portuguese (platform)",
      "pt-PT": "Portuguese (alias)",
      fr: "French (spec)",
      "fr-CA": "French (Canada) (platform)",
      "fr-BE": "French (alias)",
      "en-US": "English (alias)",
      "es-419": "Spanish (alias)",
      iw: "Hebrew (alias)",
      nb: "Norwegian (alias)",
      English: "unknown",
      xx: "unknown",
      "en-": "unknown",
      "zh-Hant-TW-x": "unknown",
    });
  });

  it("one language under several codes is one language; Simplified and Traditional Chinese are two", () => {
    expect([sameLanguage("cn", "zh"), sameLanguage("jp", "ja-JP"), sameLanguage("zh", "zh-Hant"), sameLanguage("XX", "xx"), sameLanguage("xx", "yy")]).toEqual([true, true, false, true, false]);
  });

  it("finds a site's language by any of its codes, its case, or its regional or broader form when the site has one", () => {
    const site = ["en", "zh", "ja", "pt-BR"];
    const found = (arg: string, known = site) => findLanguage(arg, known) ?? null;
    expect(["cn", "ZH", "zh-Hans", "zh-CN", "zh_cn", "jp", "JA", "ja-JP", "en-GB", "pt", "pt-br", "zh-TW", "ko"].map((a) => found(a))).toEqual([
      "zh",
      "zh",
      "zh",
      "zh",
      "zh",
      "ja",
      "ja",
      "ja",
      "en",
      "pt-BR",
      "pt-BR",
      null,
      null,
    ]);
    // The reverse: a site writing the specification's codes.
    expect(["zh", "ja", "fr-CA"].map((a) => found(a, ["cn", "jp", "fr"]))).toEqual(["cn", "jp", "fr"]);
    // Two codes of one language on a site: the exact one, else no answer.
    expect([found("cn", ["cn", "zh"]), found("zh-Hans", ["cn", "zh"])]).toEqual(["cn", null]);
  });

  it("the search tool's language: accepted forms, and an unknown one refused with the site's languages and their other codes", () => {
    const names = { known: ["en", "zh", "ja"], listed: ["en", "zh", "ja"] };
    expect(["cn", "jp", "EN"].map((a) => resolveLanguage(a, names))).toEqual([
      { ok: true, value: "zh" },
      { ok: true, value: "ja" },
      { ok: true, value: "en" },
    ]);
    expect(resolveLanguage("klingon", names)).toEqual({ ok: false, message: 'not a language of this site; use one of en, zh (also cn, zh-Hans, zh-CN), ja (also jp, ja-JP) (got "klingon")' });
    expect(["pt-BR", "fr-CA", "xx"].map(describeLanguageCode)).toEqual(["pt-BR", "fr-CA", "xx"]);
  });
});
