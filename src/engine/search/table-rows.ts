import { type Block, withBlockUnits } from "./block-units.js";
import { forEachContentLine, type SplitSection } from "./sections.js";
import { holdsAtLeast } from "./text-scan.js";

/**
 * A long reference table's rows as units of their own (issue 24, item 5). A table of error
 * codes, environment variables or options documents one thing a row: `| 402 | Payment Required |
 * Insufficient credits |`. As one section, the row the question names is a line among fifty and
 * weighs like one, so a short section elsewhere that merely mentions the same words wins. Each row
 * of a table of at least `MIN_ROWS` rows is indexed as a section with the table's heading and
 * anchor (a search hit opens the heading); the section's other text stays one unit. The header
 * row and the separator row are not repeated into the rows: their words would count once a row.
 */
export const MIN_ROWS = 8;

/** `sections` of `body` (from `splitSections`) with the rows of long tables split out. */
export function withTableRows(body: string, sections: readonly SplitSection[]): SplitSection[] {
  if (!body.includes("|")) return [...sections];
  return withBlockUnits(body, sections, longTables);
}

const ROW_RE = /^[ \t]*\|/;
const SEPARATOR_RE = /^[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*\|?[ \t]*$/;

/** Tables of at least `MIN_ROWS` body rows in `body[start, end)`, outside code, with row offsets
 *  (`blocksIn` of `withBlockUnits`). */
export function longTables(body: string, start: number, end: number): Block[] {
  // A long table has a pipe on each of its rows: a section with fewer is not read line by line.
  if (!holdsAtLeast(body, "|", start, end, MIN_ROWS + 2)) return [];
  const lines = body.slice(start, end).split("\n");
  const tables: Block[] = [];
  let run: { start: number; end: number; line: string }[] = [];
  const close = (): void => {
    // A table: a header row, a separator row, body rows.
    if (run.length >= MIN_ROWS + 2 && SEPARATOR_RE.test((run[1] as { line: string }).line)) {
      const rows = run.slice(2).map((r) => ({ start: r.start, end: r.end }));
      tables.push({ start: (run[0] as { start: number }).start, end: (run.at(-1) as { end: number }).end, units: rows });
    }
    run = [];
  };
  forEachContentLine(lines, (line, code, offset) => {
    if (!code && ROW_RE.test(line)) run.push({ start: start + offset, end: start + offset + line.length, line });
    else close();
  });
  close();
  return tables;
}
