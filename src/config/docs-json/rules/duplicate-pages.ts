import { toPagePath } from "../../site-config.js";
import { normalizeOperationPath, parseOperationEntry } from "../../openapi/entry.js";
import type { EntryNode } from "../nav-model.js";
import type { Rule } from "./rule.js";

/** The page an entry stands for: `guides/setup/` and `/guides/setup.mdx` are the same page. */
function pageKey(e: EntryNode): string {
  const op = parseOperationEntry(e.entry);
  // An operation's page goes in its spec's `directory`: the same operation listed under two
  // specs' directories (stagehand lists its API once per SDK dropdown) is two pages.
  const dirs = e.context.openapi?.sources.map((s) => s.directory ?? "").join(",") ?? "";
  if (op !== undefined) return `${op.file ?? ""} ${op.method} ${normalizeOperationPath(op.path)} ${dirs}`;
  const p = toPagePath(e.entry);
  return p.endsWith("/index") ? p.slice(0, -"/index".length) || "/" : p;
}

function scopeOf(e: EntryNode): string {
  const parts: string[] = [];
  if (e.context.product !== undefined) parts.push(`product "${e.context.product}"`);
  if (e.context.version !== undefined) parts.push(`version "${e.context.version}"`);
  if (e.context.language !== undefined) parts.push(`language "${e.context.language}"`);
  return parts.join(", ");
}

/** The array an entry sits in (`...groups[2].pages`). */
function listOf(e: EntryNode): string {
  return e.path.slice(0, e.path.lastIndexOf("["));
}

/** Entries walked between two stages of the rule (`Rule.check`). */
const ENTRIES_PER_STAGE = 1_000;

/**
 * A page listed twice in one scope (the same product, version and language: what one reader's
 * navigation shows). The platform shows both listings (stagehand lists each SDK's overview in its
 * dropdown and again in the dropdown's first group), so this is a warning: the page is one page,
 * placed (breadcrumbs, eyebrow) where it is first listed. A group's `root` is not counted: it may
 * also be listed among its pages.
 */
export const duplicatePagesRule: Rule = {
  codes: ["duplicate-page"],
  *check({ model, report }) {
    const seen = new Map<string, EntryNode>();
    let n = 0;
    for (const e of model.entries) {
      // A stage every so many entries: each listing a page twice costs a finding (~30 us).
      if (++n % ENTRIES_PER_STAGE === 0) yield "rule duplicate-page (part)";
      if (e.via !== "pages" || e.entry.trim() === "") continue;
      const scope = scopeOf(e);
      const key = `${scope}\u0000${pageKey(e)}`;
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, e);
        continue;
      }
      const where = scope === "" ? "" : ` in ${scope}`;
      const also = listOf(first) === listOf(e) ? "" : "; both listings show it, and it is placed (breadcrumbs) where it is first listed";
      report({ path: e.path, code: "duplicate-page", severity: "warning", message: `page "${e.entry}" is listed twice${where} (first at ${first.path})${also}` });
    }
  },
};
