import { decodeHTML } from "entities";
import { fillCodeSpans, holeCodeSpans } from "./code-span-holes.js";
import { diagramText } from "./diagram-text.js";
import { linkTexts } from "./link-texts.js";
import { MathSpans, mathText } from "./math-text.js";
import { VisibilityLines } from "../../config/visibility.js";
import { customHeadingId, headingLine } from "./heading-line.js";
import { OpenMarkup } from "./open-markup.js";
import { BraceMatches, CodeSpans, openingRun } from "./text-scan.js";

/** A heading-level chunk of a page: the unit search indexes and returns. */
export interface Section {
  /** Heading text ("" for the text before the first heading). */
  readonly heading: string;
  /** Headings above this one, outermost first (for context in snippets and weighting). */
  readonly parents: readonly string[];
  /** URL fragment of the heading, as the docs site renders it (`#install-the-cli`), or "". */
  readonly anchor: string;
  /** Plain text as a reader sees it (MDX tags, link targets and markup removed), code blocks in place. */
  readonly text: string;
}

/** A section as split from a page, with its prose and code apart (indexed as separate fields). */
export interface SplitSection extends Section {
  /** The prose alone (`text` without the code blocks). */
  readonly prose: string;
  /** The contents of the section's fenced code blocks, one after another. */
  readonly code: string;
  /** Where the section's lines (after its heading) are in the body, as character offsets of the
   *  body with line endings normalised to `\n`: `sectionText` rebuilds `text` from them, so an
   *  index need not keep every section's text. */
  readonly start: number;
  readonly end: number;
}

/** A line opening an MDX component or a `<div>` block (`<Tabs>`, `<Step title="x">`). */
const JSX_OPEN_RE = /^[ \t]*<(?:[A-Z][\w.]*|div)(?=[\s>/]|$)/;
/** A line closing one (`</Tabs>`). */
const JSX_CLOSE_RE = /^[ \t]*<\/(?:[A-Z][\w.]*|div)\s*>/;

/**
 * How deep a prose line leaves the component nesting: an opening tag line that neither closes
 * itself (`/>`) nor holds its closing tag adds one, a closing tag line takes one. A heuristic,
 * used only to accept indented headings, so a miscount never hides a normal heading.
 */
function jsxDepthAfter(depth: number, line: string): number {
  if (JSX_CLOSE_RE.test(line)) return Math.max(0, depth - 1);
  if (!JSX_OPEN_RE.test(line)) return depth;
  const t = line.trimEnd();
  if (t.endsWith("/>") || /<\/(?:[A-Z][\w.]*|div)\s*>\s*$/.test(t)) return depth;
  return depth + 1;
}
const FENCE_RE = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const DIAGRAM_INFO_RE = /^[ \t]*mermaid(?:[ \t{]|$)/i;

/** The opening fence of a code block (its character and length), and whether it holds a
 *  diagram the platform draws (```mermaid: `diagram-text.ts`). */
interface Fence {
  readonly char: string;
  readonly length: number;
  readonly diagram: boolean;
}

/**
 * How a line changes the fence state: `marker` is true for a fence line itself (opening or
 * closing), which belongs to neither prose nor code.
 */
function fenceStep(fence: Fence | undefined, line: string): { fence: Fence | undefined; marker: boolean } {
  const f = FENCE_RE.exec(line);
  if (f === null) return { fence, marker: false };
  const marker = f[1] as string;
  if (fence === undefined) {
    // A backtick fence's info string cannot contain backticks (CommonMark); that line is inline code.
    if (marker[0] === "`" && (f[2] as string).includes("`")) return { fence, marker: false };
    return { fence: { char: marker[0] as string, length: marker.length, diagram: DIAGRAM_INFO_RE.test(f[2] as string) }, marker: true };
  }
  if (marker[0] === fence.char && marker.length >= fence.length && (f[2] as string).trim() === "") return { fence: undefined, marker: true };
  return { fence, marker: false };
}

/** MDX `import` / `export` statements start at column 0 and may span lines
 *  (`export const Pill = ({ children }) => {` ... `};`): none of it is text a reader sees. */
const ESM_START_RE = /^(?:import|export)[ \t{*]/;

/** Open brackets left after `line`, starting from `depth` (quotes within the line skipped). */
function bracketDepth(line: string, depth: number): number {
  // Character codes, not one-character strings: every line of a long `export` block passes here.
  let d = depth;
  let quote = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charCodeAt(i);
    if (quote !== 0) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === quote) quote = 0;
      continue;
    }
    if (ch === 34 /* " */ || ch === 39 /* ' */ || ch === 96 /* ` */) quote = ch;
    else if (ch === 40 /* ( */ || ch === 91 /* [ */ || ch === 123 /* { */) d++;
    else if (ch === 41 /* ) */ || ch === 93 /* ] */ || ch === 125 /* } */) d = Math.max(0, d - 1);
  }
  return d;
}

/**
 * How a prose line moves through an ESM statement: `skip` when the line belongs to one (the
 * first line is also dropped by `cleanLine`), and the open brackets left after it.
 */
function esmStep(depth: number, line: string): { skip: boolean; depth: number } {
  if (depth > 0) return { skip: true, depth: bracketDepth(line, depth) };
  if (!ESM_START_RE.test(line)) return { skip: false, depth: 0 };
  // Only a line that visibly goes on (ends with an opening bracket, `=`, `=>` or `,`) opens a
  // multi-line statement: a Markdown line that merely starts with "import (" stays one line.
  const open = bracketDepth(line, 0);
  return { skip: true, depth: open > 0 && /[{([,=>]\s*$/.test(line) ? open : 0 };
}

/** A section's lines as alternating runs of prose (cleaned) and code. Lines of a link card
 *  (`linkCardLines`) are prose in `text` and indexed with the code. */
class Chunks {
  readonly runs: { code: boolean; lines: string[]; cards: number }[] = [];
  /** Per run, which of its lines are a link card's (only while a run has any). */
  private readonly cardLines = new Map<number, boolean[]>();
  private readonly markup = new OpenMarkup();

  push(code: boolean, line: string, card = false): void {
    let l = line;
    if (code) this.markup.reset();
    else if (this.markup.openAt(line)) this.markup.advance(line);
    else {
      const clean = cleanLine(line);
      if (clean === null) return;
      l = clean;
      this.markup.advance(l);
    }
    let last = this.runs.at(-1);
    if (last !== undefined && last.code === code) last.lines.push(l);
    else this.runs.push((last = { code, lines: [l], cards: 0 }));
    if (card && !code) last.cards++;
    const run = this.runs.length - 1;
    if (last.cards > 0) {
      let flags = this.cardLines.get(run);
      if (flags === undefined) this.cardLines.set(run, (flags = new Array<boolean>(last.lines.length - 1).fill(false)));
      flags.push(card && !code);
    }
  }

  render(): { text: string; prose: string; code: string } {
    const text: string[] = [];
    const prose: string[] = [];
    const code: string[] = [];
    const cards: string[] = [];
    this.runs.forEach((c, run) => {
      const t = c.code ? c.lines.join("\n").trim() : inlineToPlainText(c.lines.join("\n"));
      if (t === "") return;
      text.push(t);
      const flags = this.cardLines.get(run);
      if (flags === undefined) {
        (c.code ? code : prose).push(t);
        return;
      }
      const own = inlineToPlainText(c.lines.filter((_, i) => flags[i] !== true).join("\n"));
      const card = inlineToPlainText(c.lines.filter((_, i) => flags[i] === true).join("\n"));
      if (own !== "") prose.push(own);
      if (card !== "") cards.push(card);
    });
    return { text: text.join("\n"), prose: prose.join("\n"), code: [...code, ...cards].join("\n") };
  }
}

export function normalizeNewlines(body: string): string {
  return body.includes("\r") ? body.replace(/\r\n?/g, "\n") : body;
}

const CARD_OPEN_RE = /^[ \t]*<Card(?=[\s>/]|$)/;
const CARD_CLOSE_RE = /<\/Card\s*>/;
const HREF_RE = /\bhref=(?:"([^"]*)"|'([^']*)')/;
/** Lines an opening tag may span, and a card's body, before it is not taken for one. */
const MAX_CARD_LINES = 60;

/**
 * Offsets of the lines (as `forEachContentLine` gives them) of cards linking to another page of
 * the site: `<Card title="Mermaid diagrams" href="/components/mermaid-diagrams">Create
 * flowcharts, sequence diagrams, and more.</Card>`, the tag on one line or several. Their text
 * describes the page they link to, in the words a question uses ("draw a flowchart"), so on the
 * overview or "Next steps" section holding them it weighs as code does: the overview page used
 * to outrank the page the card names. Cards linking elsewhere (`https://`) or nowhere stay prose.
 */
function linkCardLines(lines: readonly string[]): Set<number> | undefined {
  let out: Set<number> | undefined;
  const offsets: number[] = [];
  const content: string[] = [];
  forEachContentLine(lines, (line, code, offset) => {
    offsets.push(code ? -1 : offset);
    content.push(line);
  });
  for (let i = 0; i < content.length; i++) {
    if (offsets[i] === -1 || !CARD_OPEN_RE.test(content[i] as string)) continue;
    const line = content[i] as string;
    const from = line.indexOf("<Card");
    let tag = line.slice(from);
    let end = tagEnd(tag, 0);
    let j = i;
    while (end === -1 && j + 1 < content.length && j - i < MAX_CARD_LINES && offsets[j + 1] !== -1) {
      j++;
      tag += `\n${content[j] as string}`;
      end = tagEnd(tag, 0);
    }
    if (end === -1) continue;
    const href = HREF_RE.exec(withoutExpressions(tag.slice(0, end + 1)));
    const target = href === null ? "" : ((href[1] ?? href[2]) as string).trim();
    if (target === "" || target.startsWith("#") || /^(?:[a-z][a-z\d+.-]*:|\/\/)/i.test(target)) continue;
    let last = j;
    if (!tag.slice(0, end + 1).endsWith("/>") && !CARD_CLOSE_RE.test(tag.slice(end + 1))) {
      let k = j + 1;
      while (k < content.length && k - j <= MAX_CARD_LINES && offsets[k] !== -1 && !CARD_CLOSE_RE.test(content[k] as string)) k++;
      if (k >= content.length || offsets[k] === -1 || k - j > MAX_CARD_LINES) continue;
      last = k;
    }
    out ??= new Set();
    for (let k = i; k <= last; k++) out.add(offsets[k] as number);
    i = last;
  }
  return out;
}

/**
 * Split a page body into sections at Markdown headings (outside fenced code). Text before the
 * first heading is a section with an empty heading; sections with neither heading nor text are
 * dropped.
 */
export function splitSections(body: string): SplitSection[] {
  return splitWith(body, undefined) as SplitSection[];
}

/**
 * Sections met before in other bodies, for a caller that splits many bodies sharing sections
 * (`body-analysis.ts`: copies of a page with a few lines changed, a site's versions, issue 22).
 * What a section's lines make (its text, prose and code) depends on those lines alone when the
 * section starts clean (outside code and `import`/`export` statements, as after any heading) and
 * its body has no link card and no `<Visibility>` (both read across sections): such a section is
 * found by its heading and lines, and not rendered again.
 */
export interface SectionReuse<T> {
  /** What a section of this heading whose lines are `normal[start, end)` is kept by. */
  key(heading: string, normal: string, start: number, end: number): string;
  find(key: string): T | undefined;
  /** A heading line's text as `toPlainText` makes it and its `slugify`, made once per text. */
  heading(raw: string): { readonly text: string; readonly slug: string };
}

/** A section `splitSectionsReusing` found kept (`SectionReuse`): its place without its text. */
export interface ReusedSection<T> {
  readonly heading: string;
  readonly parents: readonly string[];
  readonly anchor: string;
  readonly start: number;
  readonly end: number;
  readonly reused: T;
}

/** A section rendered by `splitSectionsReusing`, with what to keep it by (none: its body's
 *  sections are not kept, see `SectionReuse`). */
export type KeyedSection = SplitSection & { readonly key?: string };

/** `splitSections`, taking sections met before from `reuse` (the others are rendered as there,
 *  with their key); the same sections, in order. */
export function splitSectionsReusing<T>(body: string, reuse: SectionReuse<T>): (KeyedSection | ReusedSection<T>)[] {
  return splitWith(body, reuse);
}

function splitWith<T>(body: string, reuse: SectionReuse<T> | undefined): (KeyedSection | ReusedSection<T>)[] {
  const normal = normalizeNewlines(body);
  const lines = normal.split("\n");
  const cards = normal.includes("<Card") ? linkCardLines(lines) : undefined;
  const sections: (KeyedSection | ReusedSection<T>)[] = [];
  const reusable = reuse !== undefined && cards === undefined && !normal.includes("Visibility");
  // A reusable body's lines wait for their section's end, where the section is found kept or
  // rendered from them (code lines as 1, prose as 0).
  const pending: string[] = [];
  const kinds: number[] = [];
  const stack: { level: number; text: string }[] = [];
  const used = new Map<string, number>();
  let heading = "";
  let parents: string[] = [];
  let anchor = "";
  let chunks = new Chunks();
  let jsxDepth = 0;
  let start = 0;
  const flush = (end: number): void => {
    const to = Math.max(start, end);
    let key: string | undefined;
    if (reusable) {
      key = reuse.key(heading, normal, start, to);
      const reused = reuse.find(key);
      if (reused !== undefined) {
        sections.push({ heading, parents, anchor, start, end: to, reused });
        pending.length = 0;
        kinds.length = 0;
        return;
      }
      for (let i = 0; i < pending.length; i++) chunks.push(kinds[i] === 1, pending[i] as string);
      pending.length = 0;
      kinds.length = 0;
    }
    const { text, prose, code } = chunks.render();
    if (text !== "" || heading !== "") sections.push(key === undefined ? { heading, parents, anchor, text, prose, code, start, end: to } : { heading, parents, anchor, text, prose, code, start, end: to, key });
  };
  forEachContentLine(lines, (line, code, lineStart) => {
    if (code) {
      if (reusable) {
        pending.push(line);
        kinds.push(1);
      } else chunks.push(true, line);
      return;
    }
    const c0 = line.charCodeAt(0);
    let h = c0 === 35 /* # */ || c0 === 32 ? headingLine(line) : null;
    // Inside an MDX component (`<Tab>`, `<Step>`), headings are indented like the rest of its
    // body: MDX has no indented code blocks, so `        ## Install` there is a heading.
    if (h === null && jsxDepth > 0 && (c0 === 32 || c0 === 9)) h = headingLine(line, true);
    if (h === null) {
      if (c0 === 60 /* < */ || c0 === 32 || c0 === 9) jsxDepth = jsxDepthAfter(jsxDepth, line);
      if (reusable) {
        pending.push(line);
        kinds.push(0);
      } else chunks.push(false, line, cards?.has(lineStart) === true);
      return;
    }
    flush(lineStart - 1);
    const level = h.hashes.length;
    const custom = customHeadingId(h.text);
    const plain = reuse?.heading(custom.text);
    heading = plain?.text ?? toPlainText(custom.text);
    while (stack.length > 0 && (stack.at(-1) as { level: number }).level >= level) stack.pop();
    parents = stack.map((s) => s.text);
    stack.push({ level, text: heading });
    // A custom id is the anchor; the slug is counted all the same, as the page's renderer counts it.
    const slugged = uniqueAnchor(plain?.slug ?? slugify(heading), used);
    anchor = custom.id ?? slugged;
    chunks = new Chunks();
    start = Math.min(lineStart + line.length + 1, normal.length);
  });
  flush(normal.length);
  return sections;
}

/** The `text` of the section of `body` at `[start, end)` (offsets from `splitSections`). */
export function sectionText(body: string, start: number, end: number): string {
  const chunks = new Chunks();
  forEachContentLine(normalizeNewlines(body).slice(start, end).split("\n"), (line, code) => chunks.push(code, line));
  return chunks.render().text;
}

/** The text, prose and code of the part of `body` at `[start, end)`, as `splitSections` gives them. */
export function sectionParts(body: string, start: number, end: number): { text: string; prose: string; code: string } {
  return normalParts(normalizeNewlines(body), start, end);
}

/** `sectionParts` of a body whose line endings are normalised already: a page split into many
 *  units (a long table's rows) tested the whole page for `\r` at each (adversary, 2026-12-05: a
 *  2 MB table held every caller 48 s at a save). */
export function normalParts(normal: string, start: number, end: number): { text: string; prose: string; code: string } {
  const chunks = new Chunks();
  const lines = normal.slice(start, end).split("\n");
  const cards = lines.some((l) => l.includes("<Card")) ? linkCardLines(lines) : undefined;
  forEachContentLine(lines, (line, code, offset) => chunks.push(code, line, cards?.has(offset) === true));
  return chunks.render();
}

/**
 * Visit the content lines of MDX text: fence markers and ESM (`import`/`export` blocks) left
 * out, `code` for lines inside a fence, `offset` where the line starts (lines joined by `\n`).
 */
export function forEachContentLine(lines: readonly string[], visit: (line: string, code: boolean, offset: number) => void): void {
  let fence: Fence | undefined;
  let esmDepth = 0;
  let pos = 0;
  // Search reads a page as agents get it (issue 24): `<Visibility for="humans">` content goes,
  // `for="agents"` content stays (its tags are markup, dropped as any tag). Offsets stay those of
  // the body, so every reader of a section's range (`sectionText`, snippets) drops the same.
  let audience: VisibilityLines | undefined;
  const emit = (line: string, code: boolean, offset: number): void => {
    if (audience === undefined) {
      if (!line.includes("Visibility")) return visit(line, code, offset);
      audience = new VisibilityLines("humans");
    }
    const kept = audience.line(line, code);
    if (kept !== null) visit(kept, code, offset);
  };
  for (const line of lines) {
    const offset = pos;
    pos += line.length + 1;
    // Most lines start with neither a fence's character nor `import`/`export`: their regexes
    // are not run (per line, they were a tenth of splitting a page).
    const c = firstNonBlank(line);
    if (c === 96 /* ` */ || c === 126 /* ~ */) {
      const step = fenceStep(fence, line);
      fence = step.fence;
      if (step.marker) continue;
    }
    if (fence !== undefined) {
      // A diagram is drawn: its labels are what a reader reads, as prose.
      if (!fence.diagram) emit(line, true, offset);
      else {
        const text = diagramText(line);
        if (text !== "") emit(text, false, offset);
      }
      continue;
    }
    if (esmDepth === 0 && c !== 105 /* i */ && c !== 101 /* e */) {
      emit(line, false, offset);
      continue;
    }
    const esm = esmStep(esmDepth, line);
    esmDepth = esm.depth;
    if (!esm.skip) emit(line, false, offset);
  }
}

/** The first character of a line after its spaces and tabs (NaN for a blank line). */
function firstNonBlank(line: string): number {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  return line.charCodeAt(i);
}

const ASCII_RE = /^[\x00-\x7f]*$/;

/** The anchor a docs site gives a heading: lowercase, spaces to dashes, punctuation dropped. */
export function slugify(heading: string): string {
  // An ASCII heading (most) needs no normalising and no Unicode classes: the same slug, with
  // ASCII's letters and digits, at a fraction of the cost.
  if (ASCII_RE.test(heading)) {
    return heading
      .toLowerCase()
      .replace(/[^a-z0-9\s_-]/g, "")
      .trim()
      .replace(/\s+/g, "-");
  }
  return heading
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s+/g, "-");
}

function uniqueAnchor(slug: string, used: Map<string, number>): string {
  const n = used.get(slug) ?? 0;
  used.set(slug, n + 1);
  return n === 0 ? slug : `${slug}-${n}`;
}

/** Attributes whose values are words a reader sees (a card's title, a parameter's name). */
const TEXT_ATTRS = new Set(["title", "label", "description", "name", "alt", "path", "query", "body", "header", "field", "tab", "question"]);

/**
 * MDX to searchable text: drop import/export lines, comments and tags (keeping the text of
 * attributes a reader sees, which name steps, cards, tabs and parameters), keep link and image
 * text, drop emphasis, list, quote and table markup.
 */
export function toPlainText(mdx: string): string {
  const lines: string[] = [];
  const markup = new OpenMarkup();
  for (const line of mdx.includes("\r") ? mdx.split(/\r?\n/) : mdx.split("\n")) {
    // A line continuing a tag or expression is not Markdown (see `OpenMarkup`).
    if (markup.openAt(line)) {
      markup.advance(line);
      lines.push(line);
      continue;
    }
    const clean = cleanLine(line);
    if (clean === null) continue;
    markup.advance(clean);
    lines.push(clean);
  }
  return inlineToPlainText(lines.join("\n"));
}

const THEMATIC_BREAK_RE = /^[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|={3,}[ \t]*)$/;

/**
 * Line-level markup of one prose line: list bullets, quote markers and table pipes go; an
 * import/export line or a table separator row is dropped entirely (null). Done per line with
 * character checks: multiline regexes over whole pages cost more than the rest of indexing.
 */
export function cleanLine(line: string): string | null {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  if (i === line.length) return "";
  const c = line.charCodeAt(i);
  if ((c === 105 || c === 101) && /^(?:import|export)[ \t]/.test(line.slice(i, i + 7))) return null;
  // A thematic break (`---`, `***`, `_ _ _`) or a setext underline is a rule, not text: generated
  // API pages open with one, and snippets read "--- GET /brands".
  if ((c === 45 || c === 42 || c === 95 || c === 61) && THEMATIC_BREAK_RE.test(line)) return "";
  let s = line;
  if (c === 62 /* > */) s = line.slice(line.charCodeAt(i + 1) === 32 ? i + 2 : i + 1);
  else if ((c === 45 || c === 42 || c === 43) && (line.charCodeAt(i + 1) === 32 || line.charCodeAt(i + 1) === 9)) s = line.slice(i + 2);
  else if (c >= 48 && c <= 57) {
    const m = /^\d+\.[ \t]+/.exec(line.slice(i, i + 12));
    if (m !== null) s = line.slice(i + m[0].length);
  }
  if (s.includes("|")) {
    if (TABLE_DELIMITER_RE.test(s)) return null;
    s = withoutPipes(s);
  }
  return s;
}

/**
 * A table's delimiter row (`| --- | :-: |`, `---|---`): cells of dashes with optional colons
 * beside them. Written so that each character has one way to match: the form it replaces,
 * `(?:[ \t]*:?-+:?[ \t]*\|?)+`, could split a run of dashes into cells in every way, and a line
 * of 40 dashes and a letter never finished (issue 25).
 */
const TABLE_DELIMITER_RE = /^[ \t]*(?:\|[ \t]*)?:?-+(?:(?=[^-]):?[ \t]*(?:\|[ \t]*)?:?-+)*:?[ \t]*(?:\|[ \t]*)?$/;

/** Table pipes with the spaces and tabs around them, each as one space (by hand: a regex tried
 *  at every space of a long run re-reads the run). */
function withoutPipes(s: string): string {
  const cells = s.split("|");
  const last = cells.length - 1;
  return cells
    .map((cell, i) => {
      let from = 0;
      let to = cell.length;
      if (i > 0) while (from < to && (cell.charCodeAt(from) === 32 || cell.charCodeAt(from) === 9)) from++;
      if (i < last) while (to > from && (cell.charCodeAt(to - 1) === 32 || cell.charCodeAt(to - 1) === 9)) to--;
      return cell.slice(from, to);
    })
    .join(" ");
}

/** Inline markup: tags and expressions, links and images (keeping their text), emphasis and
 *  backticks, common entities; then runs of spaces and blank lines collapse. Each rewrite is a
 *  native string replace guarded by a cheap test: callbacks per match cost more than the rest
 *  of indexing on reference pages dense with links and code spans. */
export function inlineToPlainText(text: string): string {
  let s = stripTags(text);
  // A link's text may wrap onto following lines (prettier's proseWrap writes `[Login with\n
  // Github](/guides/github)`), never across a blank line: read per line, the URL's words became
  // text and the brackets showed in snippets.
  // Inline code is verbatim: taken out while the prose's markup is read, put back at the end.
  const code = holeCodeSpans(s);
  s = linkTexts(code.text);
  // An escape is read as one token here, so that `\**x**` keeps its escaped star and `\``
  // its backtick (taken as emphasis or code, the backslash was left before the next letter).
  if (s.includes("`") || s.includes("**") || s.includes("__") || s.includes("~~")) s = s.replace(MARKUP_RE, "$1");
  if (s.includes("*") || s.includes("_")) s = withoutEmphasis(s);
  if (s.includes("\\")) s = s.replace(ESCAPE_RE, "$1");
  // Character references as a reader sees them (`&#x5F;meta` is `_meta`, `&nbsp;` a space):
  // after the tags are gone, so a decoded `&lt;Tag&gt;` stays text.
  if (s.includes("&")) s = decodeHTML(s).replaceAll("\u00a0", " ");
  // Each collapse only where it has something to do (`includes` is a fast scan, a global
  // regex a slow one, and most texts have none of these).
  if (s.includes("\t") || s.includes("  ")) s = s.replace(/[ \t]{2,}|\t/g, " ");
  if (s.includes(" \n") || s.includes("\n ")) s = s.replace(/ +\n *|\n +/g, "\n");
  if (s.includes("\n\n\n")) s = s.replace(/\n{3,}/g, "\n\n");
  return fillCodeSpans(s, code.spans).trim();
}

/**
 * Remove HTML/JSX tags, HTML comments and `{...}` expressions in one linear scan (a regex for
 * tags with quoted and braced attributes backtracks badly on unclosed tags in big pages).
 * Visible attribute text is kept in place of the tag.
 */
function stripTags(s: string): string {
  const braces = new BraceMatches(s);
  const spans = new CodeSpans(s);
  const maths = new MathSpans(s);
  let out = "";
  let i = 0;
  const n = s.length;
  while (i < n) {
    const next = nextSpecial(s, i);
    if (next === -1) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, next);
    const ch = s[next] as string;
    if (ch !== "`" && isEscaped(s, next)) {
      // `\{` and `\<` are the characters themselves (MDX), not an expression or a tag.
      out += ch;
      i = next + 1;
    } else if (ch === "`") {
      // Inline code is literal in MDX: `{id}` and `Array<string>` are text, not JSX.
      // A backslash-escaped backtick opens nothing (CommonMark), as in `holeCodeSpans`.
      const runLength = spans.runLength(next);
      const { at, length } = openingRun(s, next, runLength);
      const close = length === 0 ? -1 : spans.closeAfter(at, length);
      const end = close === -1 ? next + runLength : close;
      out += s.slice(next, end);
      i = end;
    } else if (s.startsWith("<!--", next)) {
      const end = s.indexOf("-->", next + 4);
      out += " ";
      i = end === -1 ? n : end + 3;
    } else if (ch === "$") {
      // TeX math (`$u_{target}$`, `$$\frac{a}{b}$$`): its braces are groups, not expressions.
      // A run of `$` that opens no formula is read whole, never again from its second `$`.
      const math = maths.at(next);
      const run = math === undefined ? maths.runLength(next) : 0;
      out += math === undefined ? s.slice(next, next + run) : mathText(s.slice(math.from, math.to));
      i = math === undefined ? next + run : math.end;
    } else if (ch === "{") {
      // A JSX expression or comment: `{/* ... */}`, `{props.x}`.
      const end = braces.close(next);
      out += end === -1 ? "{" : " ";
      i = end === -1 ? next + 1 : end + 1;
    } else {
      const c = s.charCodeAt(next + 1);
      const isTag = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 47; /* letter or / */
      const end = isTag ? tagEnd(s, next, braces) : -1;
      if (end === -1) {
        out += "<";
        i = next + 1;
      } else {
        out += ` ${visibleAttributes(s.slice(next, end + 1))} `;
        i = end + 1;
      }
    }
  }
  return out;
}

/** Whether the character at `at` follows an odd run of backslashes (escaped). */
function isEscaped(s: string, at: number): boolean {
  let n = 0;
  while (at - n - 1 >= 0 && s.charCodeAt(at - n - 1) === 92) n++;
  return n % 2 === 1;
}

/** A backslash before ASCII punctuation: CommonMark's escape, the character as the reader sees it
 *  (`2\. Create`, `wombat\_fallback`, `\{#id\}`); one at a line's end: a hard line break. */
const ESCAPE_RE = /\\([!-/:-@[-`{-~])|\\(?=\r?\n)/g;

/**
 * `s` without the marks of emphasis by one `*` or `_` (`*Note:*`, `_some_`), paired as CommonMark
 * pairs them on a line: an opening mark before no space and not after a letter or digit, a
 * closing one after no space and before no letter or digit, each closing the nearest open mark of
 * its kind. So `snake_case_name`, `2*3*4`, `*.mdx` and `a * b` stay as written; `*` may stand
 * beside CJK text (`日本*強調*です`), where CommonMark reads it as emphasis too. By hand, once
 * over the text: a pattern trying each opening mark to the line's end re-read a line of marks
 * that never close for each of them.
 */
function withoutEmphasis(s: string): string {
  const cut: number[] = [];
  const open: [number[], number[]] = [[], []];
  // A bare URL is a link (GFM's autolinks): `https://x.dev/_next_/a` keeps its underscores.
  const urls = s.includes("://") ? [...s.matchAll(BARE_URL_RE)].map((m) => [m.index, m.index + m[0].length] as const) : [];
  let url = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10) {
      open[0].length = 0;
      open[1].length = 0;
      continue;
    }
    if (c !== 42 && c !== 95) continue;
    while (url < urls.length && (urls[url] as readonly [number, number])[1] <= i) url++;
    if (url < urls.length && (urls[url] as readonly [number, number])[0] <= i) continue;
    const prev = i > 0 ? (s[i - 1] as string) : " ";
    const next = i + 1 < s.length ? (s[i + 1] as string) : " ";
    // Runs of two or more are strong emphasis or rules (`MARKUP_RE`), an escaped mark is text.
    if (prev === "*" || prev === "_" || next === "*" || next === "_" || isEscaped(s, i)) continue;
    const marks = open[c === 42 ? 0 : 1];
    if (!SPACE_RE.test(prev) && !wordBeside(next, c) && marks.length > 0) {
      cut.push(marks.pop() as number, i);
      continue;
    }
    if (!SPACE_RE.test(next) && !wordBeside(prev, c)) marks.push(i);
  }
  if (cut.length === 0) return s;
  cut.sort((a, b) => a - b);
  let out = "";
  let from = 0;
  for (const at of cut) {
    out += s.slice(from, at);
    from = at + 1;
  }
  return out + s.slice(from);
}

/** Whether `ch` beside an emphasis mark makes it intraword, no emphasis: a letter or digit, but
 *  for `*` not a CJK one. */
function wordBeside(ch: string, mark: number): boolean {
  return WORD_RE.test(ch) && !(mark === 42 && CJK_RE.test(ch));
}
const BARE_URL_RE = /\bhttps?:\/\/[^\s<>]+/g;
const SPACE_RE = /\s/;
const WORD_RE = /[\p{L}\p{N}]/u;
const CJK_RE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;

/** Strong emphasis, strikethrough and backticks a reader does not see, and escapes kept whole
 *  (`$1`) for `ESCAPE_RE` to read. */
const MARKUP_RE = /(\\[!-/:-@[-`{-~])|`+|\*\*|__|~~/g;

/** Position of the next `<`, `{` or backtick at or after `from`, or -1. */
function nextSpecial(s: string, from: number): number {
  for (let j = from; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 60 || c === 123 || c === 96 || c === 36) return j;
  }
  return -1;
}

/** Index of the `}` closing the `{` at `start`, honouring nesting and quotes; -1 if none. */
function matchBrace(s: string, start: number): number {
  let depth = 0;
  let quote = "";
  for (let j = start; j < s.length; j++) {
    const ch = s[j] as string;
    if (quote !== "") {
      if (ch === "\\") j++;
      else if (ch === quote) quote = "";
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return j;
  }
  return -1;
}

/** Index of the `>` ending the tag at `start` (quotes and braces skipped); -1 if unclosed. */
function tagEnd(s: string, start: number, braces: BraceMatches = new BraceMatches(s)): number {
  let quote = "";
  for (let j = start + 1; j < s.length; j++) {
    const ch = s[j] as string;
    if (quote !== "") {
      if (ch === quote) quote = "";
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "{") {
      const end = braces.close(j);
      if (end === -1) return -1;
      j = end;
    } else if (ch === ">") return j;
    else if (ch === "<") return -1;
  }
  return -1;
}

const ATTR_RE = /([\w:-]+)=(?:"([^"]*)"|'([^']*)')/g;

function visibleAttributes(tag: string): string {
  if (!tag.includes("=")) return "";
  const texts: string[] = [];
  // Attributes of a component inside an expression (`icon={<Icon name="x" />}`) are code, not text.
  for (const m of withoutExpressions(tag).matchAll(ATTR_RE)) {
    if (TEXT_ATTRS.has((m[1] as string).toLowerCase())) texts.push((m[2] ?? m[3]) as string);
  }
  return texts.join(" ");
}

/** A tag with its `{...}` attribute expressions removed (quotes and nesting honoured). */
function withoutExpressions(tag: string): string {
  if (!tag.includes("{")) return tag;
  let out = "";
  let i = 0;
  while (i < tag.length) {
    const open = tag.indexOf("{", i);
    if (open === -1) break;
    const close = matchBrace(tag, open);
    if (close === -1) break;
    out += `${tag.slice(i, open)} `;
    i = close + 1;
  }
  return out + tag.slice(i);
}
