import { describe, expect, it } from "vitest";
import { Analyzer, isStopWord, stem, tokenize } from "../../../src/tools/search/terms.js";
import { Vocabulary } from "../../../src/tools/search/vocabulary.js";

describe("tokenize", () => {
  it("keeps identifiers whole and also splits them into parts", () => {
    expect(tokenize("Use api_key, createCart and HTTPServer in v2.1 (don't)")).toEqual([
      "Use", "api_key", "api", "key", "createCart", "create", "Cart", "and", "HTTPServer", "HTTP", "Server",
      "in", "v2.1", "v2", "1", "don't", "don",
    ]);
  });

  it("splits on punctuation, keeps letters of any script and drops lone joiners", () => {
    expect(tokenize("Spree::Stock::Splitter → café 東京 a.-b --flag")).toEqual(["Spree", "Stock", "Splitter", "café", "東京", "a", "b", "flag"]);
  });
});

describe("tokenize, scripts without spaces", () => {
  it("indexes Chinese, Japanese and Korean as overlapping character pairs", () => {
    expect(tokenize("配置网络钩子 東京abc テスト 한국어")).toEqual(["配置", "置网", "网络", "络钩", "钩子", "東京", "abc", "テス", "スト", "한국", "국어"]);
    expect(tokenize("字")).toEqual(["字"]);
  });
});

describe("stem", () => {
  it.each([
    ["webhooks", "webhook"],
    ["policies", "policy"],
    ["taxes", "tax"],
    ["status", "status"],
    ["configure", "configur"],
    ["configured", "configur"],
    ["configuration", "configur"],
    ["installing", "install"],
    ["installation", "install"],
    ["notified", "notify"],
    ["notifications", "notify"],
    ["customization", "customiz"],
    ["customize", "customiz"],
    ["customers", "customer"],
    ["shipped", "ship"],
    ["shipping", "ship"],
    ["translation", "transl"],
    ["translates", "transl"],
    ["deployment", "deploy"],
    ["string", "string"],
    ["v2", "v2"],
    ["naïve", "naïve"],
  ])("%s -> %s", (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it("keeps customer and customize apart, and product apart from production", () => {
    expect(stem("customer")).not.toBe(stem("customize"));
    expect(stem("product")).not.toBe(stem("production"));
  });
});

describe("Analyzer", () => {
  it("drops stop words and question words, keeps negations", () => {
    const a = new Analyzer(new Vocabulary());
    expect(a.terms("How do I NOT install the webhooks without errors?")).toEqual(["not", "install", "webhook", "without", "error"]);
    expect(isStopWord("how")).toBe(true);
    expect(isStopWord("not")).toBe(false);
  });

  it("gives the same terms as ids (the index path) as as strings (the query path)", () => {
    const v = new Vocabulary();
    const a = new Analyzer(v);
    const text = "Configure `api_key` for the CreateCart endpoint — café, 東京, 𝐀bc x.y.z 1.2.3\n## Webhooks don't retry 配置网络钩子abc_d";
    // Twice: the second pass reads the token cache.
    for (let i = 0; i < 2; i++) expect(a.termIds(text).map((id) => v.term(id))).toEqual(a.terms(text));
  });
});
