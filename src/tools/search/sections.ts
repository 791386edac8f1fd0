/** A heading-level chunk of a page: the unit search indexes and returns. */
export interface Section {
  /** Heading text ("" for the text before the first heading). */
  readonly heading: string;
  /** Headings above this one, outermost first (for context in snippets and weighting). */
  readonly parents: readonly string[];
  /** URL fragment of the heading, as the docs site renders it (`#install-the-cli`), or "". */
  readonly anchor: string;
  /** Plain text of the section (MDX tags, link targets and markup removed; code kept). */
  readonly text: string;
}

const HEADING_RE = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE_RE = /^\s*(```+|~~~+)/;

/**
 * Split a page body into sections at Markdown headings (outside fenced code). Text before the
 * first heading is a section with an empty heading.
 */
export function splitSections(body: string): Section[] {
  const lines = body.split(/\r?\n/);
  const sections: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: { heading: string; parents: string[]; anchor: string; lines: string[] } = {
    heading: "",
    parents: [],
    anchor: "",
    lines: [],
  };
  const used = new Map<string, number>();
  let fence: string | undefined;
  const flush = (): void => {
    const text = toPlainText(current.lines.join("\n"));
    if (text !== "" || current.heading !== "") {
      sections.push({ heading: current.heading, parents: current.parents, anchor: current.anchor, text });
    }
  };
  for (const line of lines) {
    const f = FENCE_RE.exec(line);
    if (f !== null) {
      const marker = f[1] as string;
      if (fence === undefined) fence = marker[0] as string;
      else if (marker[0] === fence) fence = undefined;
      current.lines.push(line);
      continue;
    }
    const h = fence === undefined ? HEADING_RE.exec(line) : null;
    if (h === null) {
      current.lines.push(line);
      continue;
    }
    flush();
    const level = (h[1] as string).length;
    const heading = toPlainText(h[2] as string);
    while (stack.length > 0 && (stack.at(-1) as { level: number }).level >= level) stack.pop();
    const parents = stack.map((s) => s.text);
    stack.push({ level, text: heading });
    current = { heading, parents, anchor: uniqueAnchor(slugify(heading), used), lines: [] };
  }
  flush();
  return sections;
}

/** The anchor a docs site gives a heading: lowercase, spaces to dashes, punctuation dropped. */
export function slugify(heading: string): string {
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

/**
 * MDX to searchable text: drop import/export lines and tags (keeping `title="..."`-style
 * attribute text, which names steps, cards and tabs), keep link text, drop emphasis markup.
 */
export function toPlainText(mdx: string): string {
  return mdx
    .replace(/^\s*(import|export)\s.+$/gm, "")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, " ")
    .replace(/<\/?[A-Za-z][\w.-]*((?:\s+[\w:-]+(?:=(?:"[^"]*"|'[^']*'|\{[^}]*\}))?)*)\s*\/?>/g, (_m, attrs: string) => {
      const texts = [...(attrs ?? "").matchAll(/\b(?:title|label|description|name|alt)=(?:"([^"]*)"|'([^']*)')/g)];
      return texts.length > 0 ? ` ${texts.map((t) => t[1] ?? t[2]).join(" ")} ` : " ";
    })
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__|~~)/g, "")
    .replace(/^\s*```+.*$/gm, "")
    .replace(/^\s*[-*+]\s+/gm, "")
    .replace(/^\s*>\s?/gm, "")
    .replace(/[ \t]+/g, " ")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
