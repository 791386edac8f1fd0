import type { Root, RootContent } from "mdast";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkMdx from "remark-mdx";
import remarkParse from "remark-parse";
import { unified, type Processor } from "unified";
import { VFileMessage } from "vfile-message";

/** How a text is read: as a page's MDX, or as Markdown (a page MDX refuses, an API description). */
export type Reading = "mdx" | "markdown";

/**
 * The inline constructs of the readers (`engine/render/parse-mdx.ts`), off: those that pair
 * (emphasis, links, images, strikethrough, footnote calls) or read ahead for a closing mark
 * (code spans, inline math, HTML, autolinks), and JSX and expressions in text. micromark reads
 * a page's blocks (flow) before any text in them, so turning them off leaves every block as
 * the full parse reads it, and what is left reads each character a bounded number of times
 * (but in tables and lines of pipes: `LIMITS.preview.maxCodeScanBytes`).
 */
const INLINE = [
  "attention",
  "codeText",
  "labelStartLink",
  "labelStartImage",
  "labelEnd",
  "htmlText",
  "autolink",
  "wwwAutolink",
  "protocolAutolink",
  "emailAutolink",
  "strikethrough",
  "gfmFootnoteCall",
  "gfmPotentialFootnoteCall",
  "mathText",
  "mdxTextExpression",
  "mdxJsxTextTag",
];

function inlineOff(this: Processor): void {
  const data = this.data() as { micromarkExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push({ disable: { null: INLINE } });
}

/** The readers of `engine/render/parse-mdx.ts` (the same plugins), blocks only. */
const READERS = {
  mdx: unified().use(remarkParse).use(remarkMdx).use(remarkGfm).use(remarkMath).use(inlineOff).freeze(),
  markdown: unified().use(remarkParse).use(remarkGfm).use(inlineOff).freeze(),
} as const;

/** Blocks whose lines the parser never reads as inline text. */
const RAW = new Set(["code", "math", "html"]);

/**
 * The 1-based lines of a text that are a code block's (fenced, or indented in Markdown), a
 * `$$` math block's or a raw HTML block's (Markdown), as the preview's parser reads them, their
 * fences included; `undefined` when the reader refuses the text (not valid MDX). A parse of the
 * blocks only: for `costlyMarkup`, whose estimate these lines would inflate.
 */
export function rawBlockLines(text: string, reading: Reading): Set<number> | undefined {
  let tree: Root;
  try {
    tree = READERS[reading].parse(text);
  } catch (error) {
    // Not valid MDX, or an expression nested past the stack (acorn recurses): counted as text.
    if (error instanceof VFileMessage || error instanceof RangeError) return undefined;
    throw error;
  }
  const lines = new Set<number>();
  const visit = (nodes: readonly RootContent[]): void => {
    for (const node of nodes) {
      if (RAW.has(node.type) && node.position !== undefined) {
        for (let l = node.position.start.line; l <= node.position.end.line; l++) lines.add(l);
      } else if ("children" in node) visit(node.children);
    }
  };
  visit(tree.children);
  return lines;
}
