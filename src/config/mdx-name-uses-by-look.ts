import { attributeCut, type NameUses, type Range } from "./mdx-name-uses.js";
import { appendAll } from "../arrays.js";

/**
 * The uses of `names` in a page MDX refuses, read by their look (`mdxNameUses` reads a page MDX
 * accepts). Such a page is shown as Markdown to every reader, but its bytes are read by `cat`
 * and search as written: the same uses go, as nearly as the look tells them. Elements named by
 * one (through the matching closing tag, nested ones counted), expressions `{...}` mentioning one
 * and expression attributes mentioning one, outside the front matter, fenced code, code spans
 * and ESM blocks; a line left with nothing but a list marker or punctuation goes whole, and so
 * does a table row with a cell left empty.
 */
export function lookNameUses(text: string, names: readonly string[], bodyStart: number, skipped: readonly Range[]): NameUses & { readonly plain: boolean } {
  const alternation = names.map((n) => n.replace(/\$/g, "\\$")).join("|");
  const mention = new RegExp(`(?<![\\p{ID_Continue}$])(?:${alternation})(?![\\p{ID_Continue}$])`, "u");
  const skip = [...skipped, ...codeSpans(text, bodyStart, skipped)].sort((a, b) => a.start - b.start);
  const cores: Range[] = [];
  const direct: Range[] = [];
  /** Other elements with children: what a use could be the only child of. */
  const parents: number[] = [];
  let s = 0;
  for (let at = bodyStart; at < text.length; ) {
    while (s < skip.length && (skip[s] as Range).end <= at) s++;
    const next = skip[s];
    if (next !== undefined && at >= next.start) {
      at = next.end;
      continue;
    }
    const c = text[at];
    const name = c === "<" ? /^<([\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d.:-]*)(?=[\s/>])/u.exec(text.slice(at, at + 200))?.[1] : undefined;
    if (name !== undefined) {
      const head = name.split(".")[0] as string;
      if (names.includes(head)) {
        const end = elementEnd(text, at, head, skip);
        cores.push({ start: at, end });
        at = end;
      } else {
        const tag = tagEnd(text, at);
        if (!tag.selfClosing) parents.push(at);
        appendAll(direct, expressionAttributes(text, at + 1 + name.length, tag.end, mention));
        at = tag.end;
      }
    } else if (c === "{") {
      const end = braceEnd(text, at);
      if (mention.test(text.slice(at, end))) cores.push({ start: at, end });
      at = end;
    } else at++;
  }
  const all = emptiedLines(text, cores);
  return { cores: all, direct, edits: renumbered(text, all, bodyStart, skip), plain: direct.length === 0 && all.length === cores.length && cores.every((c) => standsAlone(text, c, bodyStart)) && !parents.some((p) => cores.some((c) => c.start > p && c.start < elementEnd(text, p, tagName(text, p), skip))) };
}

/**
 * Whether the use `core` is an element forming a block of its own at the top level: at a line's
 * start, a blank line (or the body's start) before it and after it. Such a use reads the same by
 * look as by MDX's parse (an element that goes with its lines), so a page whose uses all stand
 * so, none inside another element, needs no parse (a parse costs about a millisecond per
 * kilobyte; most pages use a snippet so).
 */
function standsAlone(text: string, core: Range, bodyStart: number): boolean {
  if (text[core.start] !== "<" || (core.start > bodyStart && text[core.start - 1] !== "\n")) return false;
  const before = text.slice(bodyStart, core.start);
  if (before !== "" && !/\n[ \t\r]*\n$/.test(before) && !/^[ \t\r]*\n?$/.test(before)) return false;
  return /^[ \t\r]*(?:\n[ \t\r]*\n|\n?$)/.test(text.slice(core.end)) || /^[ \t\r]*\n?$/.test(text.slice(core.end));
}

function tagName(text: string, at: number): string {
  return (/^<([^\s/>.]+)/.exec(text.slice(at, at + 200)) as RegExpExecArray)[1] as string;
}

/** Code spans (a run of backticks to the next run as long, within a paragraph) outside `skipped`. */
export function codeSpans(text: string, bodyStart: number, skipped: readonly Range[]): Range[] {
  const out: Range[] = [];
  const re = /(`+)(?:(?!\n[ \t]*\n)[\s\S])*?(?<!`)\1(?!`)/g;
  re.lastIndex = bodyStart;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const at = m.index;
    if (escapedAt(text, at)) {
      // A backslash-escaped backtick is text and opens nothing (CommonMark, as MDX reads it): a
      // run starts after it. Read as an opening, `` \`<Secret />` `` hid the element it holds, and
      // a reader outside the snippet's groups kept its name (adversary round 43, F4).
      re.lastIndex = at + 1;
      continue;
    }
    if (skipped.some((r) => at >= r.start && at < r.end)) continue;
    out.push({ start: at, end: at + m[0].length });
  }
  return out;
}

/** Whether the character at `at` follows an odd run of backslashes. */
function escapedAt(text: string, at: number): boolean {
  let n = 0;
  while (at - n - 1 >= 0 && text.charCodeAt(at - n - 1) === 92) n++;
  return n % 2 === 1;
}

/** Attributes of the tag `[from, end)` whose expression mentions a name: `icon={Secret}`, `{...Secret}`. */
function expressionAttributes(text: string, from: number, end: number, mention: RegExp): Range[] {
  const out: Range[] = [];
  let i = from;
  while (i < end) {
    while (i < end && /\s/.test(text[i] as string)) i++;
    const start = i;
    if (i >= end || text[i] === "/" || text[i] === ">") break;
    let expression: string | undefined;
    if (text[i] === "{") {
      const e = braceEnd(text, i);
      expression = text.slice(i, e);
      i = e;
    } else {
      while (i < end && !/[\s=/>{]/.test(text[i] as string)) i++;
      let j = i;
      while (j < end && /\s/.test(text[j] as string)) j++;
      if (text[j] === "=") {
        j++;
        while (j < end && /\s/.test(text[j] as string)) j++;
        const q = text[j];
        if (q === '"' || q === "'") {
          const close = text.indexOf(q, j + 1);
          i = close === -1 ? end : close + 1;
        } else if (q === "{") {
          i = braceEnd(text, j);
          expression = text.slice(j, i);
        } else i = j;
      }
      if (i === start) i++;
    }
    if (expression !== undefined && mention.test(expression)) out.push(attributeCut(text, start, i));
  }
  return out;
}

/** The single-line uses whose line is left with nothing but a list marker or punctuation, or a table row with a cell left empty, widened to the line. */
function emptiedLines(text: string, cores: readonly Range[]): Range[] {
  const byLine = new Map<number, Range[]>();
  for (const c of cores) {
    const lineStart = text.lastIndexOf("\n", c.start - 1) + 1;
    if (text.slice(c.start, c.end).includes("\n")) continue;
    byLine.set(lineStart, [...(byLine.get(lineStart) ?? []), c]);
  }
  const out = [...cores];
  for (const [lineStart, on] of byLine) {
    const nl = text.indexOf("\n", lineStart);
    const lineEnd = nl === -1 ? text.length : nl;
    let left = "";
    let at = lineStart;
    for (const c of on) {
      left += text.slice(at, c.start) + "\u0000";
      at = c.end;
    }
    left += text.slice(at, lineEnd);
    const bare = left.replace(/\u0000/g, "");
    const row = /^\s*\|/.test(bare) && left.split("|").some((cell) => cell.includes("\u0000") && cell.replace(/\u0000/g, "").trim() === "");
    // A line left blank is the layout's to take (`cutOut`).
    if (row || (bare.trim() !== "" && /^\s*(?:(?:[-*+]|\d{1,9}[.)])(?=\s|$))?[\s.,;:!?]*$/.test(bare))) out.push({ start: lineStart + (/^[ \t]*/.exec(text.slice(lineStart)) as RegExpExecArray)[0].length, end: lineEnd });
  }
  return out;
}

/**
 * Numbered list items after items that went, numbered on (`mdxNameUses`'s rule by look): items
 * at one indentation numbered from the one before (1, 2, 3...) form a run; each takes its
 * number less the items of its run gone before it.
 */
function renumbered(text: string, cores: readonly Range[], bodyStart: number, skip: readonly Range[]): { start: number; end: number; text: string }[] {
  const edits: { start: number; end: number; text: string }[] = [];
  const runs = new Map<string, { previous: number; gone: number }>();
  for (let at = bodyStart; at < text.length; ) {
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl;
    const m = /^([ \t]*)(\d{1,9})[.)](?=[ \t]|$)/.exec(text.slice(at, end));
    if (m !== null && !skip.some((r) => at >= r.start && at < r.end)) {
      const indent = m[1] as string;
      const number = Number(m[2]);
      const start = at + indent.length;
      let run = runs.get(indent);
      if (run === undefined || number !== run.previous + 1) runs.set(indent, (run = { previous: number, gone: 0 }));
      run.previous = number;
      if (cores.some((c) => c.start === start && c.end >= end)) run.gone++;
      else if (run.gone > 0) edits.push({ start, end: start + (m[2] as string).length, text: String(number - run.gone) });
    }
    at = end + 1;
  }
  return edits;
}

/** The end of the expression whose `{` is at `start`, strings, template literals and comments skipped (the line's end when it never closes). */
function braceEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl;
    } else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  const nl = text.indexOf("\n", start);
  return nl === -1 ? text.length : nl;
}

/** End of the element whose opening tag starts at `start` (only the opening tag when it never closes). */
function elementEnd(text: string, start: number, name: string, skip: readonly Range[]): number {
  const open = tagEnd(text, start);
  if (open.selfClosing) return open.end;
  const escaped = name.replace(/\$/g, "\\$");
  const re = new RegExp(`<(/?)${escaped}(?:\\.[\\w$.]+)?(?=[\\s/>])`, "g");
  re.lastIndex = open.end;
  let depth = 1;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    // A tag in fenced code, a code span or ESM is text, not the element's end (`</Secret>` in code).
    const code = skip.find((r) => m.index >= r.start && m.index < r.end);
    if (code !== undefined) {
      re.lastIndex = code.end;
      continue;
    }
    if (m[1] === "/") {
      const close = text.indexOf(">", m.index);
      if (close === -1) break;
      if (--depth === 0) return close + 1;
      re.lastIndex = close + 1;
    } else {
      const inner = tagEnd(text, m.index);
      if (!inner.selfClosing) depth++;
      re.lastIndex = inner.end;
    }
  }
  return open.end;
}

/** The end of the tag at `start` (attributes with quotes and `{...}` expressions skipped). */
function tagEnd(text: string, start: number): { end: number; selfClosing: boolean } {
  let depth = 0;
  let quote = "";
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (quote !== "") {
      if (c === "\\" && depth > 0) i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'" || (c === "`" && depth > 0)) quote = c;
    else if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === ">") return { end: i + 1, selfClosing: text[i - 1] === "/" };
  }
  return { end: text.length, selfClosing: true };
}
