import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { Site } from "../../src/vfs/site.js";

/**
 * Search quality evaluation: question sets (`bench/eval/<corpus>.json`) with the pages that
 * answer each question, and the two standard ranking measures over them.
 */

const QuestionSchema = z
  .object({
    id: z.string(),
    query: z.string().min(1),
    /** What the question exercises: a paraphrase, exact keywords, an API name, an error message, a typo. */
    kind: z.enum(["paraphrase", "keyword", "api", "error", "typo"]),
    /** `dev` questions were looked at while tuning; `heldout` ones only in aggregate. */
    split: z.enum(["dev", "heldout"]),
    /** Every indexed page path that answers the question. */
    relevant: z.array(z.string().startsWith("/")).min(1),
    /** Written in Chinese or Japanese (else English). */
    script: z.enum(["zh", "ja"]).optional(),
    /** Chinese or Japanese written without spaces between words. */
    unspaced: z.literal(true).optional(),
    /** Names a version (`v3`, `2.0.6`) or an SDK (Python, Go). */
    names: z.enum(["version", "sdk"]).optional(),
    /** Asked with the tool's `version` / `language` filter (a docs.json label or language code). */
    version: z.string().optional(),
    language: z.string().optional(),
  })
  .strict();

const EvalSetSchema = z.object({ corpus: z.string(), about: z.string(), questions: z.array(QuestionSchema).min(1) }).strict();

export type Question = z.infer<typeof QuestionSchema>;
export type EvalSet = z.infer<typeof EvalSetSchema>;

export const EVAL_DIR = fileURLToPath(new URL(".", import.meta.url));

/** Every question set in `bench/eval/`, validated. */
export function loadEvalSets(dir: string = EVAL_DIR): EvalSet[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => EvalSetSchema.parse(JSON.parse(readFileSync(join(dir, f), "utf8"))));
}

/** Relevant pages that are not in the index: a broken judgement (the page moved or is excluded). */
export function missingJudgements(set: EvalSet, site: Site, indexed: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const q of set.questions) {
    for (const p of q.relevant) if (!site.pages.has(p) || !indexed(p)) out.push(`${q.id}: ${p}`);
  }
  return out;
}

/** The tool's `version` / `language` arguments a question is asked with. */
export interface Filter {
  readonly version?: string | undefined;
  readonly language?: string | undefined;
}

/** A search engine under evaluation: the ranked page paths for a query. */
export type Ranker = (query: string, filter?: Filter) => readonly string[];

export interface Scores {
  /** Mean reciprocal rank of the first relevant page within the top 10 (0 when none). */
  readonly mrr: number;
  /** Mean share of a question's relevant pages found in the top 10. */
  readonly recall: number;
  /** Share of questions with a relevant page ranked first. */
  readonly top1: number;
  readonly n: number;
}

export const CUTOFF = 10;

/** Rank of the first relevant page (1-based) within the cutoff, or undefined. */
export function firstRelevantRank(ranked: readonly string[], relevant: readonly string[]): number | undefined {
  const want = new Set(relevant);
  const i = ranked.slice(0, CUTOFF).findIndex((p) => want.has(p));
  return i === -1 ? undefined : i + 1;
}

/** MRR@10, Recall@10 and top-1 accuracy of a ranker over questions. */
export function score(questions: readonly Question[], rank: Ranker): Scores {
  let mrr = 0;
  let recall = 0;
  let top1 = 0;
  for (const q of questions) {
    const ranked = rank(q.query, { version: q.version, language: q.language }).slice(0, CUTOFF);
    const r = firstRelevantRank(ranked, q.relevant);
    if (r !== undefined) mrr += 1 / r;
    if (r === 1) top1++;
    const found = new Set(ranked);
    recall += q.relevant.filter((p) => found.has(p)).length / q.relevant.length;
  }
  const n = questions.length;
  return { mrr: n === 0 ? 0 : mrr / n, recall: n === 0 ? 0 : recall / n, top1: n === 0 ? 0 : top1 / n, n };
}
