/**
 * How many values a parsed spec holds once it is read as a tree: each YAML alias copied out where
 * it is used and each `$ref` replaced by what it points to. Every reader after the
 * parse walks the document that way somewhere (the validators, the depth check, the YAML and JSON
 * writers of the spec text, example values, pages), so a few hundred bytes of nested aliases
 * ("billion laughs": ten levels of nine references) or of schemas each referencing the one below
 * nine times stand for billions of values, and walking them stalled the server until V8 gave up
 * (issue 25). js-yaml keeps an alias as one shared object, and the resolvers make each `$ref` the
 * object it points to, so the count is linear here: each object's size is computed once and reused
 * wherever it is shared. Counted on the parsed YAML (aliases) and again once `$ref`s are replaced
 * (`load-api-spec.ts`), other files' included.
 *
 * A reference back to an object being counted (a recursive schema) counts one value: the readers
 * stop at a cycle too. Iterative: it must not overflow the stack on the documents it refuses.
 */

function isObject(v: unknown): v is object {
  return typeof v === "object" && v !== null;
}

/** The count, or where it first went over `max` (the keys from the root to that value). */
export type ExpandedSize = { readonly over: false; readonly size: number } | { readonly over: true; readonly at: readonly string[] };

interface Frame {
  readonly node: object;
  /** Keys to visit (an array's indices as strings). */
  readonly keys: readonly string[];
  next: number;
  size: number;
  /** The key this frame's node sits under in its parent. */
  readonly key: string;
}

/**
 * Count the values of `document` read as a tree, stopping as soon as there are more than `max`.
 * With `charsPerValue`, a string also counts one value per that many characters: a long text
 * repeated by aliases is as costly to read out as as many small values (front matter).
 */
export function expandedSize(document: object, max: number, charsPerValue?: number): ExpandedSize {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const frames: Frame[] = [];
  const enter = (node: object, key: string): void => {
    open.add(node);
    frames.push({ node, keys: Object.keys(node), next: 0, size: 1, key });
  };
  const where = (): string[] => frames.slice(1).map((f) => f.key);
  enter(document, "");
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as Frame;
    if (frame.size > max) return { over: true, at: where() };
    let child: unknown;
    let key: string;
    if (frame.next < frame.keys.length) {
      key = frame.keys[frame.next] as string;
      child = (frame.node as Record<string, unknown>)[key];
    } else {
      frames.pop();
      open.delete(frame.node);
      sizes.set(frame.node, frame.size);
      const parent = frames[frames.length - 1];
      if (parent !== undefined) parent.size += frame.size;
      continue;
    }
    frame.next++;
    if (!isObject(child)) {
      frame.size += charsPerValue !== undefined && typeof child === "string" ? 1 + Math.floor(child.length / charsPerValue) : 1;
      continue;
    }
    const known = sizes.get(child);
    if (known !== undefined) frame.size += known;
    else if (open.has(child)) frame.size += 1;
    else enter(child, key);
  }
  const size = sizes.get(document) as number;
  return size > max ? { over: true, at: [] } : { over: false, size };
}
