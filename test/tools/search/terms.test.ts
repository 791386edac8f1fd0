import { describe, expect, it } from "vitest";
import { Analyzer, isStopWord, stem, tokenize } from "../../../src/engine/search/terms.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";

describe("tokenize", () => {
  it("keeps identifiers whole and also splits them into parts", () => {
    expect(tokenize("Use api_key, createCart and HTTPServer in v2.1 (don't)")).toEqual([
      "Use", "api_key", "api", "key", "createCart", "create", "Cart", "and", "HTTPServer", "HTTP", "Server",
      "in", "v2.1", "v2", "1", "don't", "don",
    ]);
  });

  it("keeps an acronym's plural whole (URLs is not UR + Ls), and still splits acronyms before words", () => {
    expect(tokenize("batch URLs, APIs and IDs with getURLs and HTTPServer")).toEqual([
      "batch", "URLs", "APIs", "and", "IDs", "with", "getURLs", "get", "URLs", "and", "HTTPServer", "HTTP", "Server",
    ]);
  });

  it("keeps paths and protocol method names whole too (tools/call), beside their parts", () => {
    expect(tokenize("send tools/call with structuredContent, not /v1/orders/")).toEqual([
      "send", "tools/call", "tools", "call", "with", "structuredContent", "structured", "Content", "not", "v1/orders", "v1", "orders",
    ]);
  });

  it("splits on punctuation, keeps letters of any script and drops lone joiners", () => {
    expect(tokenize("Spree::Stock::Splitter → café 東京 a.-b --flag")).toEqual(["Spree", "Stock", "Splitter", "café", "東京", "a", "b", "flag"]);
  });
});

describe("tokenize, scripts without spaces", () => {
  it("splits Chinese, Japanese and Korean into words (Intl.Segmenter), longer words also into character pairs", () => {
    expect(tokenize("配置网络钩子 東京abc テスト 한국어")).toEqual(["配置", "网络", "钩子", "東京", "abc", "テスト", "テス", "スト", "한국어", "한국", "국어"]);
    expect(tokenize("字")).toEqual(["字"]);
  });

  it("cuts an unspaced query as it cuts the spaced one and the sentence", () => {
    expect(tokenize("创建知识库")).toEqual(["创建", "知识", "库"]);
    expect(tokenize("创建 知识库")).toEqual(["创建", "知识", "库"]);
    expect(tokenize("创建即用型知识库")).toEqual(["创建", "即", "用", "型", "知识", "库"]);
  });

  it("keeps katakana words whole across the prolonged sound mark, and drops single hiragana particles", () => {
    expect(tokenize("ナレッジベースを作成する")).toEqual(["ナレッジベース", "ナレ", "レッ", "ッジ", "ジベ", "ベー", "ース", "作成", "する"]);
    expect(tokenize("APIキーを設定してください")).toEqual(["API", "キー", "設定", "くだ", "さい"]);
  });

  it("cuts a run longer than the segmenter's window as it cuts each sentence, words across the windows' ends whole", () => {
    // Unpunctuated runs of 1,500 to 6,000 characters: every window ends in a sentence, some in a word.
    for (const sentence of ["東京都に住んでいる私は毎日電車で会社に通っています", "ナレッジベースを作成してからドキュメントをアップロードします", "创建即用型知识库并上传文档以便检索"]) {
      const words = tokenize(sentence);
      for (const times of [50, 200]) expect(tokenize(sentence.repeat(times))).toEqual(Array.from({ length: times }, () => words).flat());
    }
  });

  it("reads a page-sized run of kanji with no punctuation (2,000,000 characters) word by word", () => {
    // The segmenter's time grows with the square of a run's length: read whole, this run held the
    // thread for longer than the test's time-out (adversary: 1.9 MB, six minutes per save).
    const han = Array.from({ length: 2_000_000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20_000))).join("");
    // Every character read once, in order: no window's cut loses or repeats one.
    expect(tokenize(han).join("")).toBe(han);
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
    ["keys", "key"],
    ["formatted", "format"],
    ["notes", "note"],
    ["planes", "plane"],
    ["plans", "plan"],
    ["forms", "form"],
    ["apis", "api"],
    ["uris", "uri"],
    ["emojis", "emoji"],
    ["analysis", "analysis"],
    ["chassis", "chassis"],
    ["cookies", "cooky"],
    ["cookie", "cooky"],
    ["gateways", "gateway"],
    ["arrays", "array"],
    ["policies", "policy"],
    ["state", "state"],
    ["stated", "state"],
    ["stats", "stat"],
    ["mode", "mode"],
    ["mods", "mod"],
    ["stripe", "stripe"],
    ["stripped", "strip"],
    ["coding", "code"],
    ["coded", "code"],
    ["rating", "rate"],
    ["noted", "note"],
    ["noting", "note"],
    ["shared", "share"],
    ["hoping", "hope"],
    ["hopping", "hop"],
    ["locale", "locale"],
    ["locally", "local"],
    ["embed", "embed"],
    ["embedding", "embed"],
    ["notation", "notation"],
    ["instrumented", "instrument"],
    ["instrumentation", "instrument"],
    ["experiments", "experiment"],
    ["experimentation", "experiment"],
    ["deployments", "deploy"],
    ["treated", "treat"],
    ["trees", "tre"],
    ["threat", "threat"],
    ["three", "thre"],
    ["floats", "float"],
    ["created", "cre"],
    ["creation", "cre"],
    ["initiated", "initi"],
    ["initiation", "initi"],
    ["foundation", "foundation"],
    ["dictation", "dictat"],
    ["dictated", "dictat"],
    ["dicts", "dict"],
    ["citations", "cit"],
    ["cited", "cit"],
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

  it("joins nouns made from verbs to their verb (-bility, -val/-wal/-sal, -etion/-ution), not -ection or -uction", () => {
    const pairs = [["compatibility", "compatible"], ["availability", "available"], ["removal", "remove"], ["approvals", "approve"], ["renewal", "renew"], ["proposal", "propose"], ["deletion", "delete"], ["completions", "complete"], ["execution", "executed"], ["distribution", "distribute"]];
    expect(pairs.map(([noun, verb]) => [stem(noun as string), stem(verb as string)])).toEqual(pairs.map(([, verb]) => [stem(verb as string), stem(verb as string)]));
    expect([stem("connection"), stem("collection"), stem("production"), stem("signal"), stem("portal"), stem("tutorial")]).toEqual(["connection", "collection", "production", "signal", "portal", "tutorial"]);
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
