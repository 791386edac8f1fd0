import { posix } from "node:path";
import type { ElementContent, Root as HastRoot, RootContent } from "hast";
import { sanitize } from "hast-util-sanitize";
import { toHtml } from "hast-util-to-html";
import type { Code, Heading, Paragraph, PhrasingContent } from "mdast";
import type { MdxFlowExpression, MdxTextExpression } from "mdast-util-mdx-expression";
import { defaultHandlers, type Handlers, type State, toHast } from "mdast-util-to-hast";
import { blankHidden } from "../../config/visibility.js";
import { customHeadingId, headingLine } from "../search/heading-line.js";
import { slugify, toPlainText } from "../search/sections.js";
import { codeBlock } from "./code-block.js";
import { COMPONENTS } from "./components/index.js";
import { el, text, textOf } from "./hast.js";
import { BLOCK_HTML, htmlElement } from "./html-elements.js";
import { type JsxElement, literalOf } from "./jsx-attributes.js";
import { headingId, type ParseProblem, parseMarkdown, parseMdx, plainTextTree, tooDeep } from "./parse-mdx.js";
import { markupProblem } from "../../config/markup-problem.js";
import { SANITIZE_SCHEMA } from "./sanitize-schema.js";
import { appendAll } from "../../arrays.js";

/** A heading of the page, for its table of contents. */
export interface TocEntry {
  readonly depth: number;
  readonly text: string;
  readonly id: string;
}

/** A component the preview does not know, where the text uses it (1-based, in the text rendered). */
export interface ComponentUse {
  readonly name: string;
  readonly line?: number;
  readonly column?: number;
}

export interface RenderedMdx {
  /** The page's content as sanitised HTML. */
  readonly html: string;
  /** Its `##` and `###` headings, with the ids they carry. */
  readonly toc: readonly TocEntry[];
  /** Components shown as their children only, in order of use. */
  readonly unknown: readonly ComponentUse[];
  /** Set when the text is not valid MDX (it was rendered as Markdown). */
  readonly problem?: ParseProblem;
}

export interface RenderOptions {
  /** The page's file (`/guides/setup.mdx`): relative image paths are read from its folder. */
  readonly filePath: string;
}

/**
 * A page's MDX as HTML, without running any of it: Markdown and the components real sites use
 * become static HTML (`components/`), an unknown component becomes its children, an expression
 * that is a literal becomes its text and any other is shown as written, ESM is dropped. The
 * result is sanitised (`SANITIZE_SCHEMA`), and media from elsewhere become links (the preview
 * loads nothing from off the machine).
 */
export function renderMdx(source: string, options: RenderOptions): RenderedMdx {
  const parsed = parseMdx(source);
  const toc: TocEntry[] = [];
  const unknown: ComponentUse[] = [];
  try {
    const hast = toHast(parsed.tree, { handlers: handlers(parsed.text, toc, unknown) }) as HastRoot;
    const html = finish(hast, options.filePath);
    return { html, toc, unknown, ...(parsed.problem !== undefined ? { problem: parsed.problem } : {}) };
  } catch (error) {
    // The tree builders recurse once per level of nesting: a page nested deeper than the stack
    // (below `deepMarkup`'s limit only in a shape it does not count) is shown as text, not a 500.
    if (!(error instanceof RangeError)) throw error;
    const text = finish(toHast(plainTextTree(blankHidden(parsed.text, "agents"))) as HastRoot, options.filePath);
    return { html: text, toc: [], unknown: [], problem: tooDeep("elements") };
  }
}

/** Markdown (an API description) as sanitised HTML: CommonMark and GitHub's tables, no raw HTML. */
export function renderMarkdown(source: string): string {
  // Markup too deep or too costly to parse (adversary finding 41) is its text, after a notice
  // saying why, as a page's is; `check` names the spec and the text's path.
  const problem = markupProblem(source);
  if (problem === undefined) return finish(toHast(parseMarkdown(source)) as HastRoot, "/");
  const why = `Shown as plain text: its ${problem.what}.`.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return `<p class="markup-notice">${why}</p>\n${finish(toHast(plainTextTree(source)) as HastRoot, "/")}`;
}

function finish(hast: HastRoot, filePath: string): string {
  const clean = sanitize(hast, SANITIZE_SCHEMA) as HastRoot;
  localMedia(clean, posix.dirname(filePath));
  return toHtml(clean);
}

function handlers(source: string, toc: TocEntry[], unknown: ComponentUse[]): Handlers {
  const used = new Map<string, number>();
  const jsx = (state: State, node: JsxElement): ElementContent | ElementContent[] => {
    const children = (): ElementContent[] => state.all(node);
    const name = node.name;
    if (name === null || name === undefined) return children();
    if (/^[a-z]/.test(name)) return htmlElement(node, children);
    const known = Object.hasOwn(COMPONENTS, name) ? COMPONENTS[name] : undefined;
    if (known !== undefined) return known.render({ node, children });
    unknown.push({ name, ...(node.position !== undefined ? { line: node.position.start.line, column: node.position.start.column } : {}) });
    return children();
  };
  const expression = (node: MdxFlowExpression | MdxTextExpression): ElementContent | undefined => {
    const program = node.data?.estree;
    if (program === undefined || program === null || program.body.length === 0) return undefined; // a comment, `{/* ... */}`
    const statement = program.body[0];
    if (program.body.length === 1 && statement?.type === "ExpressionStatement") {
      const value = literalOf(statement.expression as never);
      if (value !== undefined && value !== null && typeof value !== "boolean") return text(String(value));
    }
    // Code the preview does not run: shown as written, so the author sees what the page holds.
    return el("code", { className: ["expression"], title: "An expression: the preview does not run code" }, [text(`{${node.value}}`)]);
  };
  return {
    heading(state: State, node: Heading) {
      const children = state.all(node);
      const last = children.at(-1);
      let custom: string | undefined;
      if (last?.type === "text") {
        const { text: rest, id } = headingId(last.value);
        if (id !== undefined) {
          custom = id;
          last.value = rest;
        }
      }
      const id = custom ?? anchorOf(source, node, children, used);
      if (custom !== undefined) anchorOf(source, node, children, used);
      if (node.depth === 2 || node.depth === 3) toc.push({ depth: node.depth, text: textOf(children).trim(), id });
      return el(`h${node.depth}`, { id }, [...children, el("a", { className: ["heading-anchor"], href: `#${id}`, ariaHidden: "true", tabIndex: -1 }, [text("#")])]);
    },
    code: (_state: State, node: Code) => codeBlock(node.value, node.lang, node.meta),
    paragraph(state: State, node: Paragraph) {
      if (!node.children.some(isBlockJsx)) return defaultHandlers.paragraph(state, node);
      // A block component on a line with text (`<Card>...</Card>` inline): split the paragraph
      // around it, as HTML cannot hold a block inside `<p>`.
      const out: ElementContent[] = [];
      let run: PhrasingContent[] = [];
      const flush = (): void => {
        if (run.some((c) => c.type !== "text" || c.value.trim() !== "")) out.push(el("p", {}, state.all({ type: "paragraph", children: run })));
        run = [];
      };
      for (const child of node.children) {
        if (!isBlockJsx(child)) {
          run.push(child);
          continue;
        }
        flush();
        const rendered = state.one(child, node);
        if (Array.isArray(rendered)) appendAll(out, rendered);
        else if (rendered !== undefined) out.push(rendered);
      }
      flush();
      return out;
    },
    mdxJsxFlowElement: jsx,
    mdxJsxTextElement: jsx,
    mdxFlowExpression: (_state: State, node: MdxFlowExpression) => {
      const shown = expression(node);
      return shown === undefined ? undefined : el("p", {}, [shown]);
    },
    mdxTextExpression: (_state: State, node: MdxTextExpression) => expression(node),
    mdxjsEsm: () => undefined,
  } as Handlers;
}

function isBlockJsx(node: PhrasingContent): boolean {
  if (node.type !== "mdxJsxTextElement" || node.name === null) return false;
  return /^[a-z]/.test(node.name) ? BLOCK_HTML.has(node.name) : COMPONENTS[node.name]?.block === true;
}

/**
 * A heading's id as search links to it (`src/engine/search/sections.ts`): the plain text of its
 * line, slugged, `-1`, `-2`... for repeats. Counted for every heading, so the ids stay in step
 * with search's even where a heading carries an id of its own.
 */
function anchorOf(source: string, node: Heading, children: readonly ElementContent[], used: Map<string, number>): string {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  const line = start !== undefined && end !== undefined ? source.slice(start, end) : "";
  // Read as search reads it (`headingLine`, linear: a pattern here re-read runs of spaces), its
  // custom id left out; a setext heading by its text.
  const atx = headingLine(line) ?? headingLine(line, true);
  const slug = slugify(atx !== null ? toPlainText(customHeadingId(atx.text).text) : textOf(children));
  const n = used.get(slug) ?? 0;
  used.set(slug, n + 1);
  return n === 0 ? slug : `${slug}-${n}`;
}

/** Whether a URL leaves this site (`https://...`, `//host/...`). */
function isRemote(url: string): boolean {
  return /^[a-z][\w+.-]*:/i.test(url) || url.startsWith("//");
}

/**
 * Media paths made absolute on this site (`images/a.png` in `/guides/x.mdx` is
 * `/guides/images/a.png`, which the preview serves from the repository); media from elsewhere
 * become a link saying what it is, so the page never loads anything from off the machine.
 */
function localMedia(root: HastRoot, dir: string): void {
  const visit = (children: RootContent[] | ElementContent[]): void => {
    for (let i = 0; i < children.length; i++) {
      const node = children[i];
      if (node?.type !== "element") continue;
      const src = node.properties["src"];
      if (typeof src === "string" && /^(img|video|audio|source)$/.test(node.tagName)) {
        if (isRemote(src)) {
          const alt = node.properties["alt"];
          children[i] = el("a", { className: ["remote-media"], href: src, rel: ["noreferrer"] }, [text(`${node.tagName === "img" ? "Image" : "Media"} from elsewhere (not loaded in the preview)${typeof alt === "string" && alt !== "" ? `: ${alt}` : ""}`)]);
          continue;
        }
        if (!src.startsWith("/")) node.properties["src"] = posix.join(dir, src);
      }
      if (node.tagName === "a" && typeof node.properties["href"] === "string" && isRemote(node.properties["href"])) node.properties["rel"] = ["noreferrer"];
      // Ids the pages' own scripts look up (`svc-*`, the playground's form) stay theirs.
      const id = node.properties["id"];
      if (typeof id === "string" && (id.startsWith("svc-") || id === "playground-form")) node.properties["id"] = `user-content-${id}`;
      visit(node.children as ElementContent[]);
    }
  };
  visit(root.children);
}

