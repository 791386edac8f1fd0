import { describe, expect, it } from "vitest";
import { loadEvalSets } from "../../bench/eval/eval.js";
import { EXTRA_WORDS, QueryStream, evalQuestions, extraWords, trafficLabel, wrkQueryFunction } from "../../bench/query-stream.js";

/** The traffic every search bench asks (issue 23): distinct questions, deterministic. */
describe("the query stream", () => {
  const questions = evalQuestions();

  it("holds every eval question of every corpus once, the corpora taking turns", () => {
    const sets = loadEvalSets();
    expect(questions.length).toBe(sets.reduce((n, s) => n + s.questions.length, 0));
    expect([...questions].sort()).toEqual(sets.flatMap((s) => s.questions.map((q) => q.query)).sort());
    expect(questions.slice(0, sets.length)).toEqual(sets.map((s) => s.questions[0]?.query));
    // Chinese and Japanese among them, long and short.
    expect(questions.some((q) => /[\u4e00-\u9fff]/.test(q))).toBe(true);
    expect(questions.some((q) => /[\u3040-\u30ff]/.test(q))).toBe(true);
    expect(Math.max(...questions.map((q) => q.length))).toBeGreaterThan(60);
    expect(Math.min(...questions.map((q) => q.length))).toBeLessThan(10);
  });

  it("asks the questions as written first, then each with its own extra words (bijective base 100: none skipped, none repeated)", () => {
    const stream = new QueryStream();
    const n = questions.length;
    expect(stream.at(0)).toBe(questions[0]);
    expect(stream.at(n - 1)).toBe(questions[n - 1]);
    expect(stream.at(n)).toBe(`${questions[0]} example`);
    expect(stream.at(n + 1)).toBe(`${questions[1]} example`);
    expect(stream.at(2 * n)).toBe(`${questions[0]} setup`);
    expect(extraWords(0)).toEqual([]);
    expect(extraWords(EXTRA_WORDS.length)).toEqual(["support"]);
    expect(extraWords(EXTRA_WORDS.length + 1)).toEqual(["example", "example"]);
    expect(extraWords(EXTRA_WORDS.length * (EXTRA_WORDS.length + 1))).toEqual(["support", "support"]);
    expect(extraWords(EXTRA_WORDS.length * (EXTRA_WORDS.length + 1) + 1)).toEqual(["example", "example", "example"]);
  });

  it("never asks the same string twice in 100,000 calls, and asks the same sequence every run", () => {
    const a = new QueryStream();
    const b = new QueryStream();
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      const q = a.take();
      expect(q).toBe(b.at(i));
      seen.add(q);
    }
    expect(seen.size).toBe(100_000);
  });

  it("gives wrk the same questions: each JSON-quoted without its closing quote, in a Lua long string", () => {
    const lua = wrkQueryFunction(new QueryStream(["say \"hi\"", "a]]b", "日本語"], ["one", "two"]));
    expect(lua).toBe(
      [
        "local svc_questions = {[[\"say \\\"hi\\\"]],",
        "[=[\"a]]b]=],",
        "[[\"日本語]]}",
        "local svc_words = {[[one]], [[two]]}",
        "function svc_query(i)",
        "  local n = #svc_questions",
        "  local w = #svc_words",
        "  local out = svc_questions[(i % n) + 1]",
        "  local r = math.floor(i / n)",
        "  while r > 0 do",
        "    out = out .. ' ' .. svc_words[((r - 1) % w) + 1]",
        "    r = math.floor((r - 1) / w)",
        "  end",
        "  return out .. '\"'",
        "end",
        "",
      ].join("\n"),
    );
  });

  it("names its traffic in every figure", () => {
    expect([trafficLabel("distinct", false), trafficLabel("distinct", true), trafficLabel("repeated", true)]).toEqual([
      "distinct questions, result cache off",
      "distinct questions, result cache on",
      "one repeated question (result-cache hits)",
    ]);
  });
});
