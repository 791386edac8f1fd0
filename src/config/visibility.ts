/**
 * Mintlify's `<Visibility for="humans|agents">` (issue 24): content for one audience only. The
 * published site shows `for="humans"` content and hides `for="agents"` content; the Markdown view
 * an agent reads (what llms.txt, AI search and an MCP server read) does the opposite. Here: the
 * preview's HTML is the people's view, search (its index, its snippets, the sections the agent
 * panel shows) the agents'. A `for` missing or not one of the two values is shown to both: the
 * text is public either way, and hiding it from whoever it was meant for would lose it
 * silently; `check` warns (`visibility-for`).
 *
 * Read by look, line by line and linear in the page's length, as search reads pages (it never
 * parses MDX): the same reading serves pages MDX refuses.
 */

/** Who a `<Visibility>` element is for. */
export type Audience = "humans" | "agents";

/** What a `<Visibility>` opening tag says in its `for`. */
export type ForValue =
  | { readonly kind: "audience"; readonly audience: Audience }
  | { readonly kind: "missing" }
  /** A literal other than the two values (`for="bots"`), or an expression (`for={who}`, as written). */
  | { readonly kind: "other"; readonly written: string };

/** `<Visibility` opening a tag (not `<VisibilityX`), or `</Visibility` closing one. */
const TAG_RE = /<(\/?)Visibility(?=[\s/>]|$)/g;
/** `for="x"`, `for='x'`, `for={"x"}`, `for={'x'}`, `` for={`x`} ``, `for={code}`, bare `for`. */
const FOR_RE = /(?:^|\s)for(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*(?:"([^"]*)"|'([^']*)'|`([^`$]*)`)\s*\}|(\{[^}]*\}))|(?=[\s/>]|$))/;

/** What the `for` of an opening tag's text (`<Visibility for="agents">`) says. */
export function forValue(tag: string): ForValue {
  const m = FOR_RE.exec(tag.slice("<Visibility".length));
  if (m === null) return { kind: "missing" };
  const literal = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5];
  if (literal === "humans" || literal === "agents") return { kind: "audience", audience: literal };
  return { kind: "other", written: literal !== undefined ? `"${literal}"` : (m[6] ?? "(no value)") };
}

/** The audience a `for` value shows the content to (undefined: both, see the file's comment). */
export function audienceOf(value: ForValue): Audience | undefined {
  return value.kind === "audience" ? value.audience : undefined;
}

/** End (after `>`) of the tag whose `<` is at `start` in `text`, quotes and `{...}` skipped; -1 when it does not end in `text`. */
function tagEnd(text: string, start: number): number {
  let quote = "";
  let braces = 0;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (quote !== "") {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'" || (c === "`" && braces > 0)) quote = c;
    else if (c === "{") braces++;
    else if (c === "}") braces = Math.max(0, braces - 1);
    else if (c === ">" && braces === 0) return i + 1;
  }
  return -1;
}

/**
 * Code spans of one line, as `[start, end)` pairs: a backtick run to the next run as long. One
 * pass over the runs (each run's next of its length found from the end), so a line of unclosed
 * runs of every length costs its length, not its square (issue 25).
 */
function codeSpans(line: string): number[] {
  if (!line.includes("`")) return [];
  const runs: { at: number; length: number }[] = [];
  for (let i = 0; i < line.length; ) {
    if (line[i] !== "`") {
      i++;
      continue;
    }
    let j = i;
    while (j < line.length && line[j] === "`") j++;
    runs.push({ at: i, length: j - i });
    i = j;
  }
  const next = new Array<number>(runs.length).fill(-1);
  const lastOf = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const { length } = runs[k] as { length: number };
    next[k] = lastOf.get(length) ?? -1;
    lastOf.set(length, k);
  }
  const out: number[] = [];
  for (let k = 0; k < runs.length; k++) {
    const close = next[k] as number;
    if (close === -1) continue;
    const c = runs[close] as { at: number; length: number };
    out.push((runs[k] as { at: number }).at, c.at + c.length);
    k = close;
  }
  return out;
}

function inSpan(spans: readonly number[], at: number): boolean {
  for (let i = 0; i < spans.length; i += 2) if (at >= (spans[i] as number) && at < (spans[i + 1] as number)) return true;
  return false;
}

/** Lines a `<Visibility` opening tag may span before it is taken for text (MDX writes attributes one a line). */
const MAX_TAG_LINES = 20;
/** Characters read for a tag's end (a real one is a line or a few): each line of a tag left open re-reads what came before it, at most this much. */
const MAX_TAG_CHARS = 2_000;

/** What a line holds for the reader: `text` (the line, or an opening tag joined from several lines ending with it) and the parts of it kept, as `[start, end)` pairs. */
interface Kept {
  readonly text: string;
  readonly ranges: readonly number[];
}

/**
 * The lines of a text as the reader who does not get `hide`'s content reads them, fed in order
 * (fence markers and ESM are the caller's to skip): the hidden elements' lines go, a line with a
 * hidden element inline loses it, and the tags of the shown elements stay (tags are markup the
 * caller drops). State runs across lines: an element opened on one line closes on a later one.
 */
export class VisibilityLines {
  /** The audiences of the `<Visibility>` elements open, innermost last. */
  private readonly open: (Audience | undefined)[] = [];
  /** How many of `open` are hidden. */
  private hidden = 0;
  /** An opening tag that goes on past its line: its text so far (joined by spaces). */
  private pending: string | undefined;
  private pendingLines = 0;

  constructor(private readonly hide: Audience) {}

  /** Whether the reader is inside a hidden element (a line fed now would go whole). */
  get inHidden(): boolean {
    return this.hidden > 0;
  }

  /**
   * The line as this reader reads it, or null when nothing of it is theirs. `code`: a line of a
   * fenced block, never read for tags (inside a hidden element it goes all the same).
   */
  line(line: string, code: boolean): string | null {
    const kept = this.parts(line, code);
    if (kept === undefined) return line;
    if (kept === null) return null;
    let out = "";
    for (let i = 0; i < kept.ranges.length; i += 2) out += kept.text.slice(kept.ranges[i], kept.ranges[i + 1]);
    return out.trim() === "" ? null : out;
  }

  /** What of a line is kept: undefined for all of it as it is, null for none. */
  parts(line: string, code: boolean): Kept | null | undefined {
    if (code || (this.pending === undefined && !line.includes("Visibility"))) return this.hidden > 0 ? null : undefined;
    if (this.pending === undefined) return this.read(line);
    const tag = `${this.pending} ${line}`;
    const closed = tagEnd(tag, 0) !== -1;
    if (!closed && line.trim() !== "" && ++this.pendingLines < MAX_TAG_LINES && tag.length < MAX_TAG_CHARS) {
      this.pending = tag;
      return null;
    }
    this.pending = undefined;
    // The whole tag as one line: its text is markup the caller drops all the same. A tag that
    // never closes (a blank line, or too long) is no element: the line is read on its own.
    return closed ? this.read(tag) : this.read(line);
  }

  /** A line holding `Visibility`: its tags (outside code spans) read in order. */
  private read(line: string): Kept | undefined {
    const spans = codeSpans(line);
    const ranges: number[] = [];
    let from = this.hidden > 0 ? -1 : 0;
    let cut = this.hidden > 0;
    const re = new RegExp(TAG_RE.source, "g");
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      if (inSpan(spans, m.index)) continue;
      const end = tagEnd(line, m.index);
      if (end === -1 && m[1] !== "/") {
        // The tag goes on to the next lines: it is read when it closes. One that runs on longer
        // than any tag is text, and so is the rest of its line (its tags are inside it).
        if (line.length - m.index >= MAX_TAG_CHARS) break;
        if (from !== -1) ranges.push(from, m.index);
        this.pending = line.slice(m.index);
        this.pendingLines = 1;
        return { text: line, ranges };
      }
      re.lastIndex = end === -1 ? line.length : end;
      const closing = m[1] === "/";
      // A stray close is markup, left to the caller.
      if (closing && this.open.length === 0) continue;
      const audience = closing ? this.open.pop() : audienceOf(forValue(line.slice(m.index, end)));
      if (audience !== this.hide) {
        if (!closing && line[end - 2] !== "/") this.open.push(audience);
        continue;
      }
      if (closing || line[end - 2] === "/") {
        // A hidden element ends (or a hidden one closes itself where nothing is hidden).
        if (closing && --this.hidden > 0) continue;
        if (!closing && this.hidden > 0) continue;
        if (!closing) ranges.push(from, m.index);
        from = re.lastIndex;
        cut = true;
        continue;
      }
      this.open.push(audience);
      if (this.hidden++ === 0) {
        ranges.push(from, m.index);
        from = -1;
        cut = true;
      }
    }
    if (!cut) return undefined;
    if (from !== -1) ranges.push(from, line.length);
    return { text: line, ranges };
  }
}

const FENCE_RE = /^[ \t]*(`{3,}|~{3,})(.*)$/;

/** How a line moves a fence: the new state, and whether the line is a fence marker. */
function fenceStep(fence: { char: string; length: number } | undefined, line: string): { fence: { char: string; length: number } | undefined; marker: boolean } {
  const f = FENCE_RE.exec(line);
  const marker = f?.[1];
  if (marker === undefined) return { fence, marker: false };
  if (fence === undefined) return { fence: { char: marker[0] as string, length: marker.length }, marker: true };
  if (marker[0] === fence.char && marker.length >= fence.length && (f?.[2] ?? "").trim() === "") return { fence: undefined, marker: true };
  return { fence, marker: false };
}

/**
 * `text` with the content `hide` does not get blanked (spaces; line breaks kept, so positions
 * and line numbers stay): what the preview renders of a page MDX refuses, read as Markdown,
 * where the `<Visibility>` element is not read.
 */
export function blankHidden(text: string, hide: Audience): string {
  if (!text.includes("Visibility")) return text;
  const lines = new VisibilityLines(hide);
  let fence: { char: string; length: number } | undefined;
  return text
    .split("\n")
    .map((line) => {
      const step = fenceStep(fence, line);
      if (step.marker) {
        fence = step.fence;
        return lines.inHidden ? blank(line) : line;
      }
      const kept = lines.parts(line, fence !== undefined);
      if (kept === undefined) return line;
      if (kept === null) return blank(line);
      // The ranges are of the tag joined from earlier lines when one ended here: this line is its end.
      const shift = kept.text.length - line.length;
      let out = "";
      let at = 0;
      for (let i = 0; i < kept.ranges.length; i += 2) {
        const start = Math.max(0, (kept.ranges[i] as number) - shift);
        const end = Math.max(0, (kept.ranges[i + 1] as number) - shift);
        if (end <= start) continue;
        out += blank(line.slice(at, start)) + line.slice(start, end);
        at = end;
      }
      return out + blank(line.slice(at));
    })
    .join("\n");
}

function blank(s: string): string {
  return " ".repeat(s.length);
}

/** A `<Visibility>` opening tag of a page, where it stands (1-based, in the text read) and what its `for` says. */
export interface VisibilityTag {
  readonly line: number;
  readonly column: number;
  readonly value: ForValue;
}

/**
 * The `<Visibility>` opening tags of a page outside fenced code and code spans, by look (what
 * `check` reads; a tag may span lines). Linear: each line is read once, each tag once to its end.
 */
export function visibilityTags(text: string): VisibilityTag[] {
  if (!text.includes("<Visibility")) return [];
  const out: VisibilityTag[] = [];
  let fence: { char: string; length: number } | undefined;
  let offset = 0;
  let skipTo = 0;
  text.split("\n").forEach((line, i) => {
    const start = offset;
    offset += line.length + 1;
    const step = fenceStep(fence, line);
    fence = step.fence;
    if (step.marker || fence !== undefined || !line.includes("<Visibility")) return;
    const spans = codeSpans(line);
    for (const m of line.matchAll(/<Visibility(?=[\s/>]|$)/g)) {
      const at = start + m.index;
      if (inSpan(spans, m.index) || at < skipTo) continue;
      // The tag to its `>`, over lines if it goes on (never past a blank line, as MDX reads it),
      // read at most `MAX_TAG_CHARS` far so a page of unclosed tags is read once.
      let region = text.slice(at, at + MAX_TAG_CHARS);
      const blankLine = /\n[ \t]*\n/.exec(region);
      if (blankLine !== null) region = region.slice(0, blankLine.index);
      const end = tagEnd(region, 0);
      // Past the tag, or past all that was read of one that never closes (tags in it are its text).
      skipTo = at + (end === -1 ? region.length : end);
      out.push({ line: i + 1, column: m.index + 1, value: forValue(end === -1 ? region : region.slice(0, end)) });
    }
  });
  return out;
}

