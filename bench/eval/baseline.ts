import MiniSearch from "minisearch";
import type { Page } from "../../src/vfs/page.js";
import type { Ranker } from "./eval.js";

/**
 * The "plain BM25" baseline: MiniSearch with its default options (its own tokenizer, lowercase
 * terms, no stemming, no prefix or fuzzy matching, equal field weights) over whole pages, title
 * plus Markdown body. What one gets from a BM25 library without any docs-specific design.
 */
export function plainBm25(pages: readonly Page[]): Ranker {
  const mini = new MiniSearch<{ id: string; title: string; body: string }>({ fields: ["title", "body"] });
  mini.addAll(pages.map((p) => ({ id: p.path, title: p.title, body: p.body })));
  return (query) => mini.search(query).map((r) => r.id as string);
}
