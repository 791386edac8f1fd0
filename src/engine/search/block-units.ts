import { normalizeNewlines, normalParts, type SplitSection } from "./sections.js";

/** A block of a section whose parts are units of their own: a long table's rows, a reference
 *  list's items. Offsets are into the body with line endings normalised. */
export interface Block {
  readonly start: number;
  readonly end: number;
  readonly units: readonly { readonly start: number; readonly end: number }[];
}

/**
 * `sections` with the parts of each block `blocksIn` finds split out as sections of their own,
 * keeping the section's heading and anchor (a search hit opens the heading); the section's other
 * text stays one unit, and the heading keeps a unit even when all its text is blocks (it names
 * them).
 */
export function withBlockUnits(body: string, sections: readonly SplitSection[], blocksIn: (normal: string, start: number, end: number) => Block[]): SplitSection[] {
  return blockUnitsOf(normalizeNewlines(body), sections, blocksIn);
}

/** `withBlockUnits` of a body whose line endings are normalised already (`normal`). */
export function blockUnitsOf(normal: string, sections: readonly SplitSection[], blocksIn: (normal: string, start: number, end: number) => Block[]): SplitSection[] {
  const out: SplitSection[] = [];
  for (const s of sections) {
    const blocks = blocksIn(normal, s.start, s.end);
    if (blocks.length === 0) {
      out.push(s);
      continue;
    }
    let from = s.start;
    let kept = false;
    const rest = (to: number): void => {
      const parts = normalParts(normal, from, Math.max(from, to));
      if (parts.text !== "" || (!kept && to >= s.end)) out.push({ ...s, ...parts, start: from, end: Math.max(from, to) });
      kept ||= parts.text !== "";
    };
    for (const b of blocks) {
      rest(b.start);
      for (const u of b.units) {
        const parts = normalParts(normal, u.start, u.end);
        if (parts.text !== "") out.push({ ...s, ...parts, start: u.start, end: u.end });
      }
      from = b.end;
    }
    rest(s.end);
  }
  return out;
}
