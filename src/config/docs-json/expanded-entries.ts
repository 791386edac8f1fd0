import { childPath } from "./json-path.js";
import type { JsonSource } from "./json-source.js";

/**
 * How many entries (items of arrays: pages, groups, tabs, redirects...) docs.json stands for once
 * its `$ref`s are replaced, counted on the parsed files without building the resolved document:
 * each file's count is computed once and added wherever it is referenced. Four `$ref`s to the next
 * file over ten small files stand for a million groups; resolving them first and counting after
 * took minutes and gigabytes (adversary round 62), so the count comes first and stops past `max`.
 *
 * Files are counted in post-order over the references between them, iteratively (a chain of 200
 * files must not nest 200 walks); a reference back to a file being counted (a cycle, refused when
 * resolved) counts as the object it is written as.
 */
export interface ExpandedEntries {
  /** The entries the root file expands to, or `max + 1` when it is more than `max`. */
  readonly count: number;
  /** Where, in the root file, the count first went over `max`: the `$ref` that brought it past,
   *  or the array item itself (a JSON path of the root file, which is also its path in the
   *  resolved document). Undefined when within `max`. */
  readonly at?: string;
}

/** The file a `$ref` in `holder` reaches, parsed, or undefined when it is refused or unread. */
export type RefSource = (holder: string, ref: string) => JsonSource | undefined;

export function expandedEntries(root: JsonSource, target: RefSource, max: number): ExpandedEntries {
  const counts = new Map<string, number>();
  const open = new Set<string>([root.file]);
  const stack: { readonly source: JsonSource; readonly refs: readonly JsonSource[]; next: number }[] = [{ source: root, refs: directRefs(root, target), next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as (typeof stack)[number];
    const child = top.refs[top.next++];
    if (child !== undefined) {
      if (counts.has(child.file) || open.has(child.file)) continue;
      open.add(child.file);
      stack.push({ source: child, refs: directRefs(child, target), next: 0 });
      continue;
    }
    stack.pop();
    open.delete(top.source.file);
    if (stack.length > 0) counts.set(top.source.file, countFile(top.source, counts, target, max).count);
  }
  return countFile(root, counts, target, max);
}

/** The parsed files a source's `$ref`s reach, in the order written. */
function directRefs(source: JsonSource, target: RefSource): JsonSource[] {
  const out: JsonSource[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) walk(v);
    } else if (value !== null && typeof value === "object") {
      const obj = value as Record<string, unknown>;
      const ref = typeof obj.$ref === "string" ? target(source.file, obj.$ref) : undefined;
      if (ref !== undefined) out.push(ref);
      for (const key of Object.keys(obj)) walk(obj[key]);
    }
  };
  walk(source.value);
  return out;
}

/** One file's entries, its references' counts taken from `counts` (a file not there, being
 *  counted or refused, counts as the object written). Stops as soon as it is past `max`. */
function countFile(source: JsonSource, counts: ReadonlyMap<string, number>, target: RefSource, max: number): ExpandedEntries {
  let count = 0;
  let at: string | undefined;
  const add = (n: number, path: string): void => {
    count += n;
    if (count > max && at === undefined) at = path;
  };
  // Recursive within one file: a parsed file nests at most `maxJsonDepth` levels.
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && at === undefined; i++) {
        add(1, childPath(path, i));
        walk(value[i], childPath(path, i));
      }
    } else if (value !== null && typeof value === "object") {
      const obj = value as Record<string, unknown>;
      const ref = typeof obj.$ref === "string" ? target(source.file, obj.$ref) : undefined;
      const referenced = ref !== undefined ? counts.get(ref.file) : undefined;
      if (referenced !== undefined) add(referenced, childPath(path, "$ref"));
      for (const key of Object.keys(obj)) {
        if (at !== undefined) return;
        if (referenced === undefined || key !== "$ref") walk(obj[key], childPath(path, key));
      }
    }
  };
  walk(source.value, "");
  return at === undefined ? { count } : { count: max + 1, at };
}

/** The one error a navigation past `max` entries is refused with (docs.json and API pages
 *  alike), ending with what is left out. */
export function tooManyEntriesMessage(max: number, leftOut = "docs.json is not read"): string {
  return `navigation expands to more than ${max.toLocaleString("en-US")} entries (a $ref'd file counts each time it is referenced; a spec's pages count in each group naming it): ${leftOut}`;
}
