import type { Nodes, Parent, Root } from "mdast";
import type { MdxJsxFlowElement, MdxJsxTextElement } from "mdast-util-mdx-jsx";
import remarkGfm from "remark-gfm";
import remarkMdx from "remark-mdx";
import remarkParse from "remark-parse";
import { costlyMarkup } from "./markup-cost.js";
import { deepMarkup } from "./markup-depth.js";
import { unified } from "unified";
import { VFileMessage } from "vfile-message";
import { appendAll } from "../arrays.js";

/**
 * Where an MDX page uses names it imports, read as MDX reads the page (the parser the HTML
 * render uses), so that a reader who may not read the imported file gets the page as an author
 * would have written it without (adversary finding 33): every use of the names goes, and so does
 * what the uses alone filled.
 *
 * - An element named by one (`<Secret />`, `<Secret>...</Secret>`, `<NS.Part />`) goes whole.
 * - An expression that mentions one (`{Secret}`, `{true && <Secret />}`, `{NS.value}`, a comment
 *   naming it) goes whole: no rewrite of arbitrary JavaScript reads as written without it.
 * - An attribute whose expression mentions one (`icon={Secret}`, `{...Secret}`) goes from its tag.
 * - What is left empty by these (a paragraph, heading, list item, quote, link, emphasis, an
 *   element whose children all went) goes too; a list whose items all went goes; a table row
 *   with a cell left empty goes (the row was about what went); the items after a removed one
 *   of a list numbered 1, 2, 3... are numbered on (`renumber`).
 * - Code (fenced or a span) is text MDX shows and never renders: it stays as written.
 *
 * ESM blocks are not read here (`removeImports` removes their statements and the exports that
 * pass a name on).
 */
export interface NameUses {
  /** Ranges that go with the layout rules of `removeImports` (whole lines, one space). */
  readonly cores: readonly Range[];
  /** Ranges cut as they are: attributes with the space before them (or their whole line), a table's column. */
  readonly direct: readonly Range[];
  /** Text replaced (list numbers). */
  readonly edits: readonly { readonly start: number; readonly end: number; readonly text: string }[];
}

export interface Range {
  readonly start: number;
  readonly end: number;
}

/** MDX as the hosted platform and the HTML render read pages (GitHub-flavoured Markdown, JSX, expressions, ESM). */
const MDX = unified().use(remarkParse).use(remarkMdx).use(remarkGfm).freeze();

/** Nodes that are nothing once all they held went. */
const EMPTIABLE = new Set(["paragraph", "heading", "listItem", "list", "blockquote", "emphasis", "strong", "delete", "link", "linkReference", "mdxJsxFlowElement", "mdxJsxTextElement", "footnoteDefinition"]);

/** Text that says nothing once what it stood beside went: space and punctuation. */
const EMPTY_TEXT_RE = /^[\s.,;:!?]*$/;

/**
 * The uses of `names` in `text` (a page, front matter included, no byte order mark), or
 * `undefined` when the page is not valid MDX (it is then shown as Markdown to every reader, and
 * the caller falls back to reading tags by their look).
 */
export function mdxNameUses(text: string, names: readonly string[], bodyStart: number, esm: readonly Range[]): NameUses | undefined {
  const tree = parse(blankOut(text, bodyStart, esm));
  if (tree === undefined) return undefined;
  const alternation = names.map((n) => n.replace(/\$/g, "\\$")).join("|");
  const mention = new RegExp(`(?<![\\p{ID_Continue}$])(?:${alternation})(?![\\p{ID_Continue}$])`, "u");
  /**
   * Whether an expression uses one of the names: it names one as an identifier anywhere in its
   * program (a reference, a binding, a property, a JSX name). Only strings, template text and
   * comments that spell a name do not count, so an expression that mentions one only there stays
   * (finding 38: `{/* Secret *\/}`, `{"Secret"}` went whole). Without the parser's program, any
   * mention counts.
   */
  const mentions = (expression: string, estree: unknown): boolean => {
    if (!mention.test(expression)) return false;
    return estree === undefined || estree === null ? true : namesIdentifier(estree, names);
  };
  const named = (name: string | null | undefined): boolean => name !== null && name !== undefined && names.includes(name.split(".")[0] as string);
  const cores: Range[] = [];
  const direct: Range[] = [];
  const edits: { start: number; end: number; text: string }[] = [];

  /** Whether `node` goes whole; the parts of a node that stays are recorded. */
  const visit = (node: Nodes): boolean => {
    switch (node.type) {
      case "mdxJsxFlowElement":
      case "mdxJsxTextElement":
        if (named(node.name)) return true;
        attributesOf(node);
        return children(node);
      case "mdxFlowExpression":
      case "mdxTextExpression":
        return mentions(node.value, node.data?.estree);
      case "table":
        table(node);
        return false;
      case "list": {
        const gone = children(node);
        if (!gone) appendAll(edits, renumbered(text, node, cores));
        return gone;
      }
      default:
        return "children" in node ? children(node) : false;
    }
  };

  /** Whether every child of `parent` went or says nothing, at least one having gone; else the gone ones are recorded. */
  const children = (parent: Parent): boolean => {
    const gone = parent.children.map((c) => visit(c as Nodes));
    const some = gone.some(Boolean);
    if (some && EMPTIABLE.has(parent.type) && parent.children.every((c, i) => gone[i] === true || (c.type === "text" && EMPTY_TEXT_RE.test(c.value)) || c.type === "break")) return true;
    // A list item or quote whose first blocks went starts with the next one, on the marker's
    // line (`- <Secret />`, a blank line, `  More.` gives `- More.`), not with an empty line.
    let from = 0;
    const kept = gone.indexOf(false);
    if (gone[0] === true && kept > 0 && (parent.type === "listItem" || parent.type === "blockquote")) {
      // Cut as it is: the layout would trim the break and indentation that must go with it.
      direct.push({ start: rangeOf(parent.children[0] as Nodes).start, end: rangeOf(parent.children[kept] as Nodes).start });
      from = kept;
    }
    parent.children.forEach((c, i) => {
      if (i >= from && gone[i] === true) cores.push(rangeOf(c));
    });
    return false;
  };

  const attributesOf = (node: MdxJsxFlowElement | MdxJsxTextElement): void => {
    for (const a of node.attributes) {
      const isSpread = a.type === "mdxJsxExpressionAttribute";
      const value = isSpread ? undefined : typeof a.value === "object" && a.value !== null ? a.value : undefined;
      const expression = isSpread ? a.value : value?.value;
      if (expression === undefined || !mentions(expression, isSpread ? a.data?.estree : value?.data?.estree)) continue;
      const { start, end } = rangeOf(a as { position?: { start: { offset?: number }; end: { offset?: number } } });
      direct.push(attributeCut(text, start, end));
    }
  };

  /**
   * A body row with a cell left empty goes (the row was about what went). A header cell left
   * empty takes its column (the header row, the delimiter row and each row's cell); a table
   * left with no column goes.
   */
  const table = (node: Parent): void => {
    const rows = node.children.map((row) =>
      (row as Parent).children.map((cell) => {
        const kids = (cell as Parent).children;
        const gone = kids.map((c) => visit(c as Nodes));
        return { range: rangeOf(cell), kids, gone, emptied: gone.some(Boolean) && kids.every((c, k) => gone[k] === true || (c.type === "text" && EMPTY_TEXT_RE.test(c.value))) };
      }),
    );
    const header = rows[0] ?? [];
    const columns = new Set(header.flatMap((c, k) => (c.emptied ? [k] : [])));
    if (columns.size > 0 && columns.size === header.length) {
      cores.push(rangeOf(node));
      return;
    }
    const delimiter = delimiterCells(text, (header.at(-1)?.range.end ?? 0) + 1);
    for (const k of columns) {
      for (const cells of [header.map((c) => c.range), delimiter, ...rows.slice(1).map((r) => r.map((c) => c.range))]) {
        const cut = cellCut(text, cells, k);
        if (cut !== undefined) direct.push(cut);
      }
    }
    rows.forEach((cells, i) => {
      const kept = cells.filter((_, k) => !columns.has(k));
      if (i > 0 && kept.some((c) => c.emptied)) {
        cores.push(rangeOf(node.children[i] as Parent));
        return;
      }
      for (const c of kept) c.kids.forEach((kid, j) => c.gone[j] === true && cores.push(rangeOf(kid)));
    });
  };

  children(tree);
  return { cores, direct, edits };
}

/** Where a node stands in the page's text. */
/**
 * Whether `program` (an expression's ESTree, as the MDX parser gives it) has an identifier
 * spelled as one of `names`. Why this keeps every use: JavaScript reaches a binding of the page's
 * module (an import) only by writing its name as an identifier token; strings, template text
 * and comments are never read as names. And the expressions kept cannot reach the restricted
 * file in any other way either (`eval` of a built string included): in the reader's page its
 * import is gone, so the name is bound to nothing. What a kept expression shows is its own
 * text, written in the page like the prose around it.
 */
function namesIdentifier(program: unknown, names: readonly string[]): boolean {
  const stack: unknown[] = [program];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    const { type, name } = node as { type?: unknown; name?: unknown };
    if ((type === "Identifier" || type === "JSXIdentifier" || type === "PrivateIdentifier") && typeof name === "string" && names.includes(name)) return true;
    for (const value of Object.values(node)) if (typeof value === "object" && value !== null) stack.push(value);
  }
  return false;
}

function rangeOf(node: { position?: { start: { offset?: number }; end: { offset?: number } } | undefined }): Range {
  return { start: node.position?.start.offset ?? 0, end: node.position?.end.offset ?? 0 };
}

/**
 * Items numbered on from the one before (1, 2, 3...) stay so with items gone (`gone`: the
 * ranges that go): each takes the number less the items gone before it in its run. A list
 * numbered otherwise (1, 1, 1) keeps its numbers; adjacent ordered lists are one list to
 * Markdown, each run numbered on its own. The edits to the numbers.
 */
function renumbered(text: string, list: Parent, gone: readonly Range[]): { start: number; end: number; text: string }[] {
  const goneStarts = new Set(gone.map((c) => c.start));
  const edits: { start: number; end: number; text: string }[] = [];
  let previous: number | undefined;
  let goneInRun = 0;
  for (const item of list.children) {
    const { start } = rangeOf(item);
    const m = /^(\d{1,9})[.)]/.exec(text.slice(start, start + 10));
    if (m === null) return edits;
    const number = Number(m[1]);
    if (previous === undefined || number !== previous + 1) goneInRun = 0;
    previous = number;
    if (goneStarts.has(start)) goneInRun++;
    else if (goneInRun > 0) edits.push({ start, end: start + (m[1] as string).length, text: String(number - goneInRun) });
  }
  return edits;
}

/**
 * The page as the parser should read it, offsets kept: the front matter, the ESM blocks (their
 * statements are read apart; a statement acorn refuses, a name imported twice, would otherwise
 * leave the whole page unread) and custom heading ids (`{#id}`, which MDX would read as an
 * expression; the render escapes them) blanked.
 */
function blankOut(text: string, bodyStart: number, esm: readonly Range[]): string {
  const blank = (s: string): string => s.replace(/[^\n]/g, " ");
  let out = blank(text.slice(0, bodyStart));
  let at = bodyStart;
  for (const r of esm) {
    if (r.start < at) continue;
    out += text.slice(at, r.start) + blank(text.slice(r.start, r.end));
    at = r.end;
  }
  out += text.slice(at);
  return out.replace(/^( {0,3}#{1,6}[ \t].*?[ \t]*)(\{#[^{}\s]+\})([ \t]*)$/gm, (_, head: string, id: string, tail: string) => `${head}${blank(id)}${tail}`);
}

function parse(text: string): Root | undefined {
  // Markup nested past the preview's limit is shown as text, not parsed (the parser would take
  // minutes or overflow the stack), and so is markup that would cost it far more than its length
  // (`costlyMarkup`): its uses are read by their look, as on a page MDX refuses.
  if (deepMarkup(text) !== undefined || costlyMarkup(text) !== undefined) return undefined;
  try {
    return MDX.parse(text);
  } catch (error) {
    if (error instanceof VFileMessage) return undefined;
    throw error;
  }
}

/** The cells of the delimiter row starting at `start` (`| --- | :-: |`), as the parser gives a row's: each from its pipe, the last to the line's end. */
function delimiterCells(text: string, start: number): Range[] {
  const nl = text.indexOf("\n", start);
  const end = nl === -1 ? text.length : nl;
  const pipes: number[] = [];
  for (let i = start; i < end; i++) if (text[i] === "|") pipes.push(i);
  const lead = /^[ \t]*\|/.test(text.slice(start, end));
  const starts = lead ? pipes : [start, ...pipes];
  // A trailing pipe closes the last cell rather than opening one.
  if (starts.length > 1 && text.slice((starts.at(-1) as number) + 1, end).trim() === "") starts.pop();
  return starts.map((s, i) => ({ start: s, end: i + 1 < starts.length ? (starts[i + 1] as number) : end }));
}

/**
 * What goes of a row for its column `k`: the cell from its pipe; of the last cell, all but one
 * pipe (the row's closing one, or its own when the row has none: a table needs a pipe per row,
 * or a one-column table would read as a heading); the first cell up to the next one's pipe.
 */
function cellCut(text: string, cells: readonly Range[], k: number): Range | undefined {
  const cell = cells[k];
  if (cell === undefined) return undefined;
  if (k === 0) return cells[1] === undefined ? undefined : { start: cell.start, end: (cells[1] as Range).start };
  if (k < cells.length - 1) return cell;
  let end = cell.end;
  while (end > cell.start && /\s/.test(text[end - 1] as string)) end--;
  return text[end - 1] === "|" ? { start: cell.start, end: end - 1 } : { start: cell.start + 1, end };
}

/** What goes with the attribute `[start, end)`: the space before it, or its whole line when it is alone on one (a tag written over lines). */
export function attributeCut(text: string, start: number, end: number): Range {
  let from = start;
  while (from > 0 && (text[from - 1] === " " || text[from - 1] === "\t")) from--;
  const nl = text.indexOf("\n", end);
  const lineEnd = nl === -1 ? text.length : nl;
  if (text[from - 1] === "\n" && /^[ \t\r]*$/.test(text.slice(end, lineEnd))) return { start: from, end: nl === -1 ? lineEnd : lineEnd + 1 };
  return { start: from, end };
}
