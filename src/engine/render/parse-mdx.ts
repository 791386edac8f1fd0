import type { Root } from "mdast";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkMdx from "remark-mdx";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { VFileMessage } from "vfile-message";
import { LIMITS } from "../../limits.js";
import { customHeadingId } from "../search/heading-line.js";
import { costlyMarkup } from "../../config/markup-cost.js";
import { deepMarkup } from "../../config/markup-depth.js";
import { blankHidden } from "../../config/visibility.js";
import { markupProblem } from "../../config/markup-problem.js";

/** Why a page could not be read as MDX (it is then read as Markdown). */
export interface ParseProblem {
  readonly message: string;
  /** 1-based, in the text parsed. */
  readonly line?: number;
  readonly column?: number;
  /** The page was not parsed at all (its markup nests too deep or would cost too much): `tree` is its text as paragraphs. */
  readonly asText?: true;
}

export interface ParsedMdx {
  readonly tree: Root;
  /** The text parsed (custom heading ids escaped: `escapeHeadingIds`); positions point into it. */
  readonly text: string;
  /** Set when the text is not valid MDX: `tree` is then its reading as Markdown (no components). */
  readonly problem?: ParseProblem;
}

/** MDX as the hosted platform reads pages (GitHub-flavoured Markdown, JSX, expressions, ESM, and
 *  TeX math in `$...$` and `$$...$$`, whose braces are TeX groups: read as expressions, a formula
 *  such as `\frac{1}{(1 - \beta)}` made the whole page "not valid MDX"). */
const MDX = unified().use(remarkParse).use(remarkMdx).use(remarkGfm).use(remarkMath).freeze();
/** CommonMark with GitHub's extensions: what a page that is not valid MDX, and an API description, is read as. */
const MARKDOWN = unified().use(remarkParse).use(remarkGfm).freeze();

/**
 * Parse a page's MDX. Text that MDX refuses (an unclosed tag, a brace that opens no expression)
 * is read as Markdown instead, with the reason: the page still renders, and `check` says why its
 * components show as text.
 */
export function parseMdx(source: string): ParsedMdx {
  const text = escapeHeadingIds(source);
  const deep = deepMarkup(text);
  if (deep !== undefined) return { tree: plainTextTree(blankHidden(text, "agents")), text, problem: tooDeep(deep.what, deep.line) };
  // Markup whose parse would cost far more than the page's length (issue 25): shown as text too,
  // decided by the text (`costlyMarkup`), never by how long a parse has taken.
  const costly = costlyMarkup(text);
  if (costly !== undefined) return { tree: plainTextTree(blankHidden(text, "agents")), text, problem: { message: `its ${costly.what}`, line: costly.line, asText: true } };
  try {
    return { tree: MDX.parse(text), text };
  } catch (error) {
    if (!(error instanceof VFileMessage)) throw error;
    // Read as Markdown, `<Visibility>` is not an element: what it keeps from people is blanked
    // by look (positions kept), as the MDX render leaves it out (issue 24).
    const shown = blankHidden(text, "agents");
    // Markdown reads blocks its own way (a fence MDX opens may be a paragraph's line to it): its
    // cost is counted again as Markdown's before it is parsed (`costlyMarkup`).
    const costly = costlyMarkup(shown, "markdown");
    if (costly !== undefined) return { tree: plainTextTree(shown), text: shown, problem: { message: `its ${costly.what}`, line: costly.line, asText: true } };
    return {
      tree: MARKDOWN.parse(shown),
      text: shown,
      problem: { message: error.reason, ...(error.line !== undefined ? { line: error.line } : {}), ...(error.column !== undefined ? { column: error.column } : {}) },
    };
  }
}

/** Why a page is shown as text: its markup nests past what the parser is given (`deepMarkup`). */
export function tooDeep(what: string, line?: number): ParseProblem {
  const how = line === undefined ? "too deep to render" : `more than ${LIMITS.preview.maxMarkupNesting} levels deep, the most the preview reads`;
  return { message: `its ${what} nest ${how}`, ...(line !== undefined ? { line } : {}), asText: true };
}

/** A page's text as paragraphs of plain text (split at blank lines), for a page not parsed. */
export function plainTextTree(text: string): Root {
  const blocks = text.split(/\n[ \t]*\r?\n/).filter((b) => !/^[ \t\r\n]*$/.test(b));
  return { type: "root", children: blocks.map((value) => ({ type: "paragraph", children: [{ type: "text", value }] })) };
}

/**
 * Parse Markdown (API descriptions): no JSX, no expressions, raw HTML kept as `html` nodes for
 * the renderer to drop. A spec's text goes through the same guards as a page's (adversary
 * finding 41: a description of 20,000 `[a](` took 6.5 s): markup nested too deep or too costly
 * is its text as paragraphs (with a notice: `renderMarkdown`), and `check` warns at the spec
 * (`descriptionFindings`).
 */
export function parseMarkdown(source: string): Root {
  if (markupProblem(source) !== undefined) return plainTextTree(source);
  return MARKDOWN.parse(source);
}

/** A heading line (whose end may hold `{#custom-id}`). */
const HEADING_START_RE = /^ {0,3}#{1,6}[ \t]/;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Custom heading ids (`## Workspace {#workspace}`), which sites write and MDX would read as an
 * expression (and fail): the braces are escaped, and the heading's renderer takes the id from
 * the text (`headingId`).
 */
export function escapeHeadingIds(text: string): string {
  if (!text.includes("{#")) return text;
  let fence: string | undefined;
  return text
    .split("\n")
    .map((line) => {
      const f = FENCE_RE.exec(line);
      if (f !== null) {
        const marker = f[1] as string;
        if (fence === undefined) fence = marker;
        else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return line;
      }
      if (fence !== undefined) return line;
      if (!HEADING_START_RE.test(line)) return line;
      const heading = customHeadingId(line);
      return heading.id === undefined ? line : `${heading.text} \\{#${heading.id}\\}`;
    })
    .join("\n");
}

/** A heading's text without its custom id, and the id (`Workspace {#workspace}`), as search reads it. */
export function headingId(text: string): { readonly text: string; readonly id?: string } {
  return customHeadingId(text);
}
