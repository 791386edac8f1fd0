import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadEvalSets } from "./eval/eval.js";
import { QueryStream } from "./query-stream.js";

/**
 * Result lists of a deterministic set of searches over the shared corpora, one short digest per
 * search, so that a change to ranking's speed can be checked against the ranking before it
 * (`test/tools/search/ranking-before.real.test.ts`; the digests of the code before are in
 * `test/tools/search/ranking-before.json`).
 *
 *   npx tsx bench/ranking-fixture.ts [--code <checkout>] [--write] [--show]
 *
 * `--code` digests with another checkout's search index (a worktree at the commit before);
 * `--write` writes `test/tools/search/ranking-before.json`, else the differences from it are
 * listed (`--show`: with this checkout's result lines). Run it to refreeze only when a ranking
 * change is meant to change results, and say so in the commit.
 */

/** The corpora searched: every shared one with an eval set. */
export const FIXTURE_CORPORA = ["alltick", "cline", "cowagent", "open-wearables", "spree", "stagehand"] as const;

/** One search of the set: a query at a page size. */
export interface FixtureCase {
  readonly query: string;
  readonly pageSize: number;
}

/**
 * The searches on one corpus: every eval question of every corpus as written and with one extra
 * word (the query stream's first two rounds: long and short, three languages, most of them
 * matching few words of another corpus), at the default page size; and the corpus's own
 * questions at page sizes 3 and 50 (a small top cuts the most pages, a large one the fewest).
 */
export function fixtureCases(corpus: string): FixtureCase[] {
  const stream = new QueryStream();
  const out: FixtureCase[] = Array.from({ length: 2 * stream.questions.length }, (_, i) => ({ query: stream.at(i), pageSize: 10 }));
  const own = loadEvalSets().find((s) => s.corpus === corpus)?.questions.map((q) => q.query) ?? [];
  for (const pageSize of [3, 50]) for (const query of own) out.push({ query, pageSize });
  return out;
}

/** What a search shows that ranking decides, in the shape both sides of a comparison make it. */
interface ShownHit {
  readonly page: { readonly path: string };
  readonly section: { readonly anchor?: string | undefined };
  readonly score: number;
  readonly otherVersions: readonly { readonly page: { readonly path: string } }[];
}

/** A result list as one line: each hit's path, anchor, score (3 decimals) and other versions, in order. */
export function resultLine(hits: readonly ShownHit[]): string {
  return hits.map((h) => `${h.page.path}#${h.section.anchor ?? ""} ${h.score.toFixed(3)}${h.otherVersions.length > 0 ? ` [${h.otherVersions.map((t) => t.page.path).join(",")}]` : ""}`).join(" | ");
}

/** The digest of a result line kept in the fixture: 48 bits, enough to tell thousands apart. */
export function digest(line: string): string {
  return createHash("sha1").update(line).digest("base64url").slice(0, 8);
}

/** Per corpus, the digests of `fixtureCases` in order, concatenated. */
export type Fixture = Record<string, string>;

export const FIXTURE_FILE = fileURLToPath(new URL("../test/tools/search/ranking-before.json", import.meta.url));

interface Searcher {
  sync(site: unknown): unknown;
  search(req: { query: string; canRead: () => boolean; pageSize: number }): readonly ShownHit[];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf("--code");
  const code = at >= 0 ? resolve(args[at + 1] as string) : fileURLToPath(new URL("..", import.meta.url));
  const { SearchIndex } = (await import(join(code, "src/engine/search/search-index.ts"))) as { SearchIndex: new (o: { cachedResults: number }) => Searcher };
  const { loadSite } = (await import(join(code, "src/vfs/load-site.ts"))) as { loadSite: (root: string) => Promise<{ site: unknown }> };
  const { CORPORA_DIR } = await import("./search.bench.js");
  const fixture: Fixture = {};
  const lines: Record<string, string[]> = {};
  for (const corpus of FIXTURE_CORPORA) {
    const index = new SearchIndex({ cachedResults: 0 });
    index.sync((await loadSite(join(CORPORA_DIR, corpus))).site);
    lines[corpus] = fixtureCases(corpus).map(({ query, pageSize }) => resultLine(index.search({ query, canRead: () => true, pageSize })));
    fixture[corpus] = (lines[corpus] as string[]).map(digest).join("");
  }
  if (args.includes("--write")) {
    writeFileSync(FIXTURE_FILE, `${JSON.stringify(fixture, null, 1)}\n`);
    console.log(`wrote ${FIXTURE_FILE}`);
    return;
  }
  const before = JSON.parse(readFileSync(FIXTURE_FILE, "utf8")) as Fixture;
  let differ = 0;
  let total = 0;
  for (const corpus of FIXTURE_CORPORA) {
    fixtureCases(corpus).forEach((c, i) => {
      total++;
      if ((before[corpus] ?? "").slice(8 * i, 8 * i + 8) === (fixture[corpus] as string).slice(8 * i, 8 * i + 8)) return;
      differ++;
      console.log(`${corpus} ${c.pageSize} ${JSON.stringify(c.query)}${args.includes("--show") ? `\n  ${lines[corpus]?.[i] ?? ""}` : ""}`);
    });
  }
  console.log(`${differ} of ${total} searches differ from ${FIXTURE_FILE}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
