import { fencedLines } from "./markup-lines.js";
import { codeSpans } from "./mdx-name-uses-by-look.js";
import type { Range } from "./mdx-name-uses.js";

/**
 * Where a page's text is code by its look, from `from` on (after its front matter): its fenced
 * code blocks, fences included (`fencedLines`: at any indent in lists and quotes), and its code
 * spans outside them (`codeSpans`: a run of backticks to the next run as long, within a
 * paragraph; an escaped backtick opens none). Code is text a page shows as written and never
 * renders: a tag in it is no element (`snippetTags`). Sorted by start, apart.
 */
export function codeRanges(text: string, from = 0): Range[] {
  if (!text.includes("`") && !text.includes("~~~")) return [];
  const fenced: Range[] = [];
  const lines = text.split("\n");
  const code = fencedLines(lines);
  let at = 0;
  let open: number | undefined;
  lines.forEach((line, i) => {
    const end = at + line.length;
    if (code[i] === true && at >= from) open ??= at;
    else if (open !== undefined) {
      fenced.push({ start: open, end: at - 1 });
      open = undefined;
    }
    at = end + 1;
  });
  if (open !== undefined) fenced.push({ start: open, end: text.length });
  return [...fenced, ...codeSpans(text, from, fenced)].sort((a, b) => a.start - b.start);
}

/** Whether `at` falls inside one of `ranges` (sorted by start, apart: `codeRanges`). */
export function insideRanges(ranges: readonly Range[], at: number): boolean {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ranges[mid] as Range).start <= at) lo = mid + 1;
    else hi = mid;
  }
  const last = ranges[lo - 1];
  return last !== undefined && at < last.end;
}
