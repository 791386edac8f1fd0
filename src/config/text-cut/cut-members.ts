import { yamlRoot } from "./block-source.js";
import { flowCollection } from "./flow-source.js";
import { type SourceCollection, type SourceMember, type TextEdit, UnsupportedSource } from "./source-nodes.js";
import { appendAll } from "../../arrays.js";

/** A member's place in a document: keys and indices from the root. */
export type Segments = readonly (string | number)[];

/** How `cutMembers` cuts. */
export interface CutOptions {
  /**
   * Whether block members removed after the last one kept take the blank lines above them
   * (default true). False for the rare text where those lines are a kept value's (a `|+` block
   * scalar keeps its trailing blank lines), which the caller finds by reading the cut back.
   */
  readonly blankLinesAboveLast?: boolean;
  /**
   * Members written again as another member in their place rather than cut (each place among
   * `deletions` too): a `security` list emptied for one reader becomes a marker saying so
   * (`security-not-shown.ts`). The value is a JSON literal, which reads the same in YAML.
   */
  readonly replace?: readonly MemberReplacement[];
}

/** A member written as `key: value` in place of the one at `at`. */
export interface MemberReplacement {
  readonly at: Segments;
  readonly key: string;
  readonly value: string;
}

/**
 * Cut members out of a JSON or YAML text, keeping everything else as written: each of
 * `deletions` names a member (a mapping key, or a sequence index, all from the original text).
 * A collection that loses every member is written empty (`{}`, `[]`). The text is JSON when it
 * starts with `{` (as the spec parser decides). Throws `UnsupportedSource` for what it cannot
 * follow; callers check the result parses to what they expect and write the value otherwise.
 */
export function cutMembers(text: string, deletions: readonly Segments[], options: CutOptions = {}): string {
  if (deletions.length === 0) return text;
  const body = text.trimStart();
  const root = body.startsWith("{") ? flowCollection(text, text.length - body.length, false) : yamlRoot(text);
  const byParent = new Map<string, { parent: Segments; keys: Set<string | number> }>();
  const replaced = new Map<string, MemberReplacement>((options.replace ?? []).map((r) => [JSON.stringify(r.at), r]));
  const edits: TextEdit[] = [];
  for (const d of deletions) {
    const replacement = replaced.get(JSON.stringify(d));
    if (replacement !== undefined) {
      edits.push(replaceMember(text, locate(root, d.slice(0, -1)), replacement));
      continue;
    }
    if (d.length === 0) throw new UnsupportedSource("cannot delete the document");
    const parent = d.slice(0, -1);
    const id = JSON.stringify(parent);
    let entry = byParent.get(id);
    if (entry === undefined) {
      entry = { parent, keys: new Set() };
      byParent.set(id, entry);
    }
    entry.keys.add(d[d.length - 1] as string | number);
  }
  for (const { parent, keys } of byParent.values()) appendAll(edits, removeMembers(text, locate(root, parent), keys, options.blankLinesAboveLast ?? true));
  return applyEdits(text, edits);
}

/** The collection at `segments`: a mapping key's last occurrence wins, as parsers read it. */
function locate(root: SourceCollection, segments: Segments): SourceCollection {
  let node = root;
  for (const seg of segments) {
    const member = node.kind === "map" ? node.members.findLast((m) => m.key === String(seg)) : node.members[Number(seg)];
    if (member === undefined) throw new UnsupportedSource(`no member ${JSON.stringify(seg)}`);
    node = member.value();
  }
  return node;
}

function removeMembers(text: string, node: SourceCollection, keys: ReadonlySet<string | number>, blankLinesAboveLast: boolean): TextEdit[] {
  const gone = node.members.map((m) => (node.kind === "map" ? keys.has(String(m.key)) : keys.has(Number(m.key))));
  if (gone.every(Boolean)) return [...node.empty()];
  const edits: TextEdit[] = [];
  const members = node.members;
  if (node.style === "block") {
    // A block member's lines run to the next member's, so a member removed in front or between
    // takes the blank lines after it and leaves the ones above (the previous member's) as they
    // were. After the last member kept, those blank lines above separated it from the removed
    // ones, and the text written without them has none there: the removed run takes them (the
    // blank lines after the collection's last member stay, as they separate what follows it).
    // At the very end of a text without a final newline, the kept member's line end goes too.
    const lastKept = gone.lastIndexOf(false);
    const atEnd = (members.at(-1) as SourceMember).end === text.length && !text.endsWith("\n");
    members.forEach((m, i) => {
      if (gone[i] !== true) return;
      if (!m.cuttable) throw new UnsupportedSource(`cannot cut ${JSON.stringify(m.key)} alone`);
      let start = m.start;
      if (blankLinesAboveLast && i === lastKept + 1) {
        start = blankLinesAbove(text, m.start);
        if (atEnd && text[start - 1] === "\n") start -= text[start - 2] === "\r" ? 2 : 1;
      }
      edits.push({ start, end: m.end, text: "" });
    });
    return edits;
  }
  // Flow: a run of removed members goes with the separator after it, or, at the end without a
  // trailing comma, with the separator before it, so `{"a": 1, "b": 2}` loses `"b"` as `{"a": 1}`.
  for (let i = 0; i < members.length; i++) {
    if (gone[i] !== true) continue;
    let j = i;
    while (j + 1 < members.length && gone[j + 1] === true) j++;
    const first = members[i] as SourceMember;
    const last = members[j] as SourceMember;
    const next = members[j + 1];
    const prev = members[i - 1] as SourceMember;
    if (next !== undefined) edits.push({ start: first.start, end: next.start, text: "" });
    else if (last.separatorEnd !== undefined) edits.push({ ...ownLines(text, first.start, last.separatorEnd), text: "" });
    else edits.push({ start: prev.end, end: last.end, text: "" });
    i = j;
  }
  return edits;
}

/**
 * The edit writing `r` in place of its member: the member's lines (its comments too, which may
 * name what it held) for a block member, its key through its value in a flow collection; the
 * blank lines after a block member stay.
 */
function replaceMember(text: string, node: SourceCollection, r: MemberReplacement): TextEdit {
  const name = r.at[r.at.length - 1];
  const m = node.kind === "map" ? node.members.findLast((x) => x.key === String(name)) : undefined;
  if (m === undefined) throw new UnsupportedSource(`no member ${JSON.stringify(name)} to replace`);
  if (node.style === "flow") return { start: m.start, end: m.end, text: `${JSON.stringify(r.key)}: ${r.value}` };
  const indent = text.slice(text.lastIndexOf("\n", m.at - 1) + 1, m.at);
  if (!m.cuttable || !/^[ \t]*$/.test(indent)) throw new UnsupportedSource(`cannot replace ${JSON.stringify(name)} alone`);
  const trailing = /\r?\n(?:[ \t]*\r?\n)*$/.exec(text.slice(m.at, m.end))?.[0] ?? "";
  return { start: m.start, end: m.end, text: `${indent}${r.key}: ${r.value}${trailing}` };
}

/** The start of the blank lines (spaces and tabs only) just above the line starting at `lineStart`. */
function blankLinesAbove(text: string, lineStart: number): number {
  let start = lineStart;
  while (start > 0) {
    const above = start >= 2 ? text.lastIndexOf("\n", start - 2) + 1 : 0;
    if (!/^[ \t]*\r?\n$/.test(text.slice(above, start))) break;
    start = above;
  }
  return start;
}

/** `[start, end)` widened to whole lines when nothing else is written on them. */
function ownLines(text: string, start: number, end: number): { start: number; end: number } {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const nl = text.indexOf("\n", end);
  const lineEnd = nl === -1 ? text.length : nl;
  if (text.slice(lineStart, start).trim() !== "" || text.slice(end, lineEnd).trim() !== "") return { start, end };
  return { start: lineStart, end: nl === -1 ? text.length : nl + 1 };
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new UnsupportedSource("overlapping cuts");
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}
