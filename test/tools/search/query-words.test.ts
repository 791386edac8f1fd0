import { describe, expect, it } from "vitest";
import { QueryWords } from "../../../src/engine/search/query-words.js";
import { Analyzer } from "../../../src/engine/search/terms.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";

describe("QueryWords", () => {
  it("reads a question's words as the analyzer reads the question, each word once per process", () => {
    const analyzer = new Analyzer(new Vocabulary());
    const words = new QueryWords(analyzer);
    const question = "How do I log in with api_key to the Web hooks of createCart v2.1, 创建知识库?";
    const read = words.of(question);
    expect(read.map((w) => w.raw)).toEqual(["How", "do", "I", "log", "in", "with", "api_key", "to", "the", "Web", "hooks", "of", "createCart", "v2.1", "创建知识库"]);
    expect(read.flatMap((w) => w.terms)).toEqual(analyzer.terms(question));
    expect(read.map((w) => [w.term, w.letters])).toEqual(read.map((w) => [analyzer.term(w.raw), /^\p{L}+$/u.test(w.raw)]));
    // The same word in another question is the same object; its joins are kept on it.
    const again = words.of("web hooks, log in");
    expect(again[1]).toBe(read[10]);
    expect(words.joined(again[0]!, again[1]!)).toBe("webhook");
    expect(words.joined(read[3]!, read[4]!)).toBe(analyzer.term("login"));
    expect(words.joined(read[9]!, read[10]!)).toBe(analyzer.term("Webhooks"));
  });

  it("starts afresh past its bound on words, reading them as before", () => {
    const analyzer = new Analyzer(new Vocabulary());
    const words = new QueryWords(analyzer);
    const first = words.of("webhook setup");
    for (let i = 0; i < 9_000; i++) words.of(`w${i}`);
    const again = words.of("webhook setup");
    expect(again[0]).not.toBe(first[0]);
    expect(again.map((w) => [w.raw, w.terms, w.term])).toEqual(first.map((w) => [w.raw, w.terms, w.term]));
    expect(words.joined(again[0]!, again[1]!)).toBe(analyzer.term("webhooksetup"));
  });
});
