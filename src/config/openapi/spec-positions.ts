import { yamlRoot } from "../text-cut/block-source.js";
import { flowCollection } from "../text-cut/flow-source.js";
import { type SourceCollection, UnsupportedSource } from "../text-cut/source-nodes.js";

/** A 1-based line and column (UTF-16 code units, as editors and docs.json findings count them). */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** Keys and indices from a document's root (`["paths", "/a", "get"]`). */
export type SpecSegments = readonly (string | number)[];

/**
 * Where values of a spec's text are written, by their keys from the root: what lets `check` say
 * `api.yaml:12:9` for a finding about a spec, as it does for docs.json. Read with the text
 * cutter's scanner (`text-cut/`), which reads JSON and block or flow YAML by lines and brackets:
 * a 1 MB spec's root in tens of milliseconds, each collection on the way only when first asked
 * for, so a spec with no findings costs nothing. A member it cannot follow (YAML anchors, tags,
 * several documents) gives the deepest place it could reach, or none: a finding then has no
 * position, never a wrong one.
 */
export function specLocator(text: string): (at: SpecSegments) => TextPosition | undefined {
  let root: SourceCollection | null | undefined;
  let lineStarts: number[] | undefined;
  const rootOf = (): SourceCollection | null => {
    if (root !== undefined) return root;
    const body = text.trimStart();
    try {
      root = body.startsWith("{") ? flowCollection(text, text.length - body.length, false) : yamlRoot(text);
    } catch (error) {
      if (!(error instanceof UnsupportedSource)) throw error;
      root = null;
    }
    return root;
  };
  const position = (offset: number): TextPosition => {
    if (lineStarts === undefined) {
      lineStarts = [0];
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (lineStarts[lo] as number) + 1 };
  };
  return (at) => {
    // The document itself (a problem such as `"info" is required`): where it starts.
    if (at.length === 0) return position(text.length - text.trimStart().length);
    let node = rootOf();
    let offset: number | undefined;
    for (const [i, seg] of at.entries()) {
      if (node === null) break;
      // A key written twice: the last one is the value parsers read.
      const member = node.kind === "map" ? node.members.findLast((m) => m.key === String(seg)) : node.members[Number(seg)];
      if (member === undefined) break;
      offset = member.at;
      if (i === at.length - 1) break;
      try {
        node = member.value();
      } catch (error) {
        if (!(error instanceof UnsupportedSource)) throw error;
        node = null;
      }
    }
    return offset === undefined ? undefined : position(offset);
  };
}

/** A JSON pointer's segments (`/paths/~1a/get` -> `["paths", "/a", "get"]`). */
export function pointerSegments(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}
