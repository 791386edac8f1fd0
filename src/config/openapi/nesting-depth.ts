/**
 * Where a parsed document first nests arrays and objects deeper than `max` levels (the keys from
 * the root to the first value too many, in document order), or undefined when it does not.
 * Iterative: it must not overflow the stack on the very documents it is there to refuse.
 */
export function firstTooDeep(document: unknown, max: number): readonly string[] | undefined {
  // Parallel stacks of the values to visit, their depth, and the entry of their parent's path.
  const values: unknown[] = [document];
  const depths: number[] = [1];
  const parents: number[] = [-1];
  const keys: string[] = [""];
  /** Path entries, by index: parent entry and key, so that the path is built only when needed. */
  const entryParent: number[] = [];
  const entryKey: string[] = [];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    const parent = parents.pop() as number;
    const key = keys.pop() as string;
    if (typeof value !== "object" || value === null) continue;
    const entry = entryParent.length;
    entryParent.push(parent);
    entryKey.push(key);
    if (depth > max) return pathOf(entry, entryParent, entryKey);
    const childKeys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
    // Pushed last to first, so that the first child is visited first (document order).
    for (let i = childKeys.length - 1; i >= 0; i--) {
      const k = childKeys[i] as string;
      const child = (value as Record<string, unknown>)[k];
      if (typeof child !== "object" || child === null) continue;
      values.push(child);
      depths.push(depth + 1);
      parents.push(entry);
      keys.push(k);
    }
  }
  return undefined;
}

function pathOf(entry: number, entryParent: readonly number[], entryKey: readonly string[]): string[] {
  const out: string[] = [];
  // The root's entry (parent -1) has no key of its own.
  for (let e = entry; entryParent[e] !== -1; e = entryParent[e] as number) out.push(entryKey[e] as string);
  return out.reverse();
}
