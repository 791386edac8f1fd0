import { type Block, withBlockUnits } from "./block-units.js";
import { forEachContentLine, type SplitSection } from "./sections.js";
import { holdsAtLeast } from "./text-scan.js";

/**
 * A long reference list's items as units of their own, as a long table's rows are
 * (`table-rows.ts`): the list form of the same thing, one identifier an item with its description
 * on the item's own or indented lines (dodo's error codes: `- \`DISCOUNT_CODE_USAGE_LIMIT_EXCEEDED\``
 * then `  - **Trigger:** ...`, 60 of them). As one section the item the question names is a line
 * among hundreds, and the page about discount codes, whose short sections say "usage" and
 * "limit", ranked above the page that documents the code. A list is a reference list when each of
 * at least `MIN_ITEMS` items at one indentation starts with inline code (bold or not); any other
 * item ends it.
 */
export const MIN_ITEMS = 8;

/** `sections` of `body` with the items of long reference lists split out. */
export function withReferenceListItems(body: string, sections: readonly SplitSection[]): SplitSection[] {
  if (!mayHaveReferenceList(body)) return [...sections];
  return withBlockUnits(body, sections, referenceLists);
}

/** Whether `withReferenceListItems` looks for lists in a body at all. Cheap native scans first:
 *  most pages hold no code-led item, and the line scan costs a tenth of indexing on spree when
 *  run on every section. */
export function mayHaveReferenceList(body: string): boolean {
  return body.includes("- `") || body.includes("* `") || body.includes("+ `") || body.includes("- **`") || body.includes("* **`");
}

const BULLET_RE = /^( {0,3})[-*+][ \t]+/;
const CODE_LED_RE = /^ {0,3}[-*+][ \t]+(?:\*\*|__)?`[^`\n]+`/;

/** Reference lists of at least `MIN_ITEMS` items in `body[start, end)`, with item offsets
 *  (`blocksIn` of `withBlockUnits`). */
export function referenceLists(body: string, start: number, end: number): Block[] {
  // Each item opens with a code span (two backticks at least): a section with fewer than a
  // list's worth is not read line by line.
  if (!holdsAtLeast(body, "`", start, end, 2 * MIN_ITEMS)) return [];
  const blocks: Block[] = [];
  let items: { start: number; end: number }[] = [];
  let indent = -1;
  const close = (): void => {
    if (items.length >= MIN_ITEMS) blocks.push({ start: (items[0] as { start: number }).start, end: (items.at(-1) as { end: number }).end, units: items });
    items = [];
    indent = -1;
  };
  forEachContentLine(body.slice(start, end).split("\n"), (line, code, offset) => {
    const at = start + offset;
    const bullet = code ? null : BULLET_RE.exec(line);
    if (bullet !== null && (indent === -1 || (bullet[1] as string).length === indent)) {
      if (!CODE_LED_RE.test(line)) return close();
      indent = (bullet[1] as string).length;
      items.push({ start: at, end: at + line.length });
      return;
    }
    if (items.length === 0 || line.trim() === "") return;
    // An item's own lines are indented past its bullet (its description, nested bullets, code);
    // a line that is not ends the list.
    if (line.length - line.trimStart().length > indent) (items.at(-1) as { end: number }).end = at + line.length;
    else close();
  });
  close();
  return blocks;
}
