import { loadEvalSets } from "./eval/eval.js";

/**
 * The traffic every search figure is measured with (issue 23): agents ask long natural-language
 * questions and rarely the same one twice, so a bench that repeats a few short queries measures
 * the result cache, not the search. The stream is the project's own evaluation questions (every
 * corpus in `bench/eval/`: long and short, English, Chinese and Japanese, paraphrases, keywords,
 * API names, error messages, typos), each call distinct: call `i` asks question `i mod n` with
 * extra words that depend on `floor(i / n)`, so the first n calls are the questions as written and
 * no two calls of a run are the same string (the result cache never answers one). Deterministic:
 * every run, and wrk's Lua generator (`wrkQueryFunction`), asks the same sequence.
 */

/**
 * Words added to a question once every question has been asked: common words of technical
 * documentation, so that each changes the analysed terms (a word no page has would be a term
 * that costs nothing) and the extra cost is what a real follow-up word costs. Letters only: they
 * go into JSON and Lua strings unescaped.
 */
export const EXTRA_WORDS: readonly string[] = [
  "example", "setup", "error", "config", "guide", "api", "update", "limit", "token", "version",
  "install", "request", "response", "field", "default", "option", "list", "create", "delete", "page",
  "user", "account", "key", "server", "client", "model", "event", "webhook", "order", "product",
  "price", "payment", "search", "filter", "status", "code", "timeout", "retry", "cache", "session",
  "file", "upload", "image", "language", "release", "migration", "schema", "object", "array", "string",
  "number", "date", "time", "zone", "region", "network", "proxy", "browser", "agent", "tool",
  "plugin", "extension", "command", "terminal", "docker", "python", "node", "typescript", "go", "java",
  "auth", "login", "permission", "role", "admin", "dashboard", "report", "export", "import", "sync",
  "stream", "socket", "subscribe", "channel", "message", "notification", "email", "template", "theme", "style",
  "test", "debug", "log", "metric", "usage", "quota", "billing", "plan", "upgrade", "support",
];

/** Every eval question, the corpora interleaved (one of each in turn), so any stretch of the stream mixes sites, lengths and languages. */
export function evalQuestions(): string[] {
  const sets = loadEvalSets().map((s) => s.questions.map((q) => q.query));
  const out: string[] = [];
  for (let i = 0; out.length < sets.reduce((n, s) => n + s.length, 0); i++) {
    for (const set of sets) if (i < set.length) out.push(set[i] as string);
  }
  return out;
}

/**
 * The extra words of round `round` (0: none): `round` written in bijective base `words.length`,
 * one word per digit, so every round has its own sequence of words and none is skipped.
 */
export function extraWords(round: number, words: readonly string[] = EXTRA_WORDS): string[] {
  const out: string[] = [];
  for (let r = round; r > 0; r = Math.floor((r - 1) / words.length)) out.push(words[(r - 1) % words.length] as string);
  return out;
}

/** An endless deterministic stream of distinct questions. */
export class QueryStream {
  private next = 0;

  constructor(
    readonly questions: readonly string[] = evalQuestions(),
    readonly words: readonly string[] = EXTRA_WORDS,
  ) {
    if (questions.length === 0) throw new Error("no questions for the query stream");
  }

  /** Call `i`'s question (0-based). */
  at(i: number): string {
    const question = this.questions[i % this.questions.length] as string;
    const extra = extraWords(Math.floor(i / this.questions.length), this.words);
    return extra.length === 0 ? question : `${question} ${extra.join(" ")}`;
  }

  /** The next call's question. */
  take(): string {
    return this.at(this.next++);
  }
}

/** A Lua long-bracket literal of `text` (byte for byte, no escapes to get wrong). */
function luaLong(text: string): string {
  let level = 0;
  while (text.includes(`]${"=".repeat(level)}]`)) level++;
  const eq = "=".repeat(level);
  return `[${eq}[${text}]${eq}]`;
}

/**
 * Lua source defining `svc_query(i)` for wrk's script: call `i`'s question (0-based, as
 * `QueryStream.at`) as a JSON string literal, quotes included, ready to splice into a body.
 */
export function wrkQueryFunction(stream: QueryStream = new QueryStream()): string {
  // Each question JSON-quoted without its closing quote: the extra words go before it.
  const questions = stream.questions.map((q) => luaLong(JSON.stringify(q).slice(0, -1)));
  const words = stream.words.map((w) => luaLong(w));
  return [
    `local svc_questions = {${questions.join(",\n")}}`,
    `local svc_words = {${words.join(", ")}}`,
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
  ].join("\n");
}

/**
 * What a load generator asks: `distinct` questions from the stream, or one `repeated` question
 * (the result cache answers all but the first: the figure is labelled a cache-hit one).
 */
export type Traffic = "distinct" | "repeated";

/** How a figure's traffic is named in the bench's rows and logs. */
export function trafficLabel(traffic: Traffic, resultCache: boolean): string {
  if (traffic === "repeated") return "one repeated question (result-cache hits)";
  return `distinct questions, result cache ${resultCache ? "on" : "off"}`;
}
