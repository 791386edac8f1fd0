/**
 * JSON paths as diagnostics print them: `navigation.tabs[0].groups[2]`, `seo.metatags["og:locale"]`.
 * The root is the empty string. Paths are plain strings so that positions can be kept in a Map
 * and looked up from zod issue paths and from the navigation walker alike.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** The path of `key` (an object key or an array index) inside the value at `parent`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return parent === "" ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** Format a path given as segments (a zod issue path). */
export function formatPath(segments: readonly PropertyKey[]): string {
  let path = "";
  for (const s of segments) path = childPath(path, typeof s === "number" ? s : String(s));
  return path;
}

/** The value at a segment path inside a parsed JSON value, or undefined. */
export function valueAt(root: unknown, segments: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const s of segments) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[s];
  }
  return v;
}

/** The segments of a path as `childPath` writes it (`a.b[2]["og:x"]` -> `a`, `b`, 2, `og:x`). */
export function parsePath(path: string): PropertyKey[] {
  const out: PropertyKey[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === "[") {
      if (path[i + 1] === '"') {
        // A JSON string: find its closing quote (escaped quotes are skipped).
        let j = i + 2;
        while (j < path.length && path[j] !== '"') j += path[j] === "\\" ? 2 : 1;
        out.push(JSON.parse(path.slice(i + 1, j + 1)) as string);
        i = j + 2;
      } else {
        const j = path.indexOf("]", i);
        out.push(Number(path.slice(i + 1, j)));
        i = j + 1;
      }
      continue;
    }
    if (path[i] === ".") i++;
    let j = i;
    while (j < path.length && path[j] !== "." && path[j] !== "[") j++;
    out.push(path.slice(i, j));
    i = j;
  }
  return out;
}

/** `a.b[2].c` -> `a.b[2]` -> `a.b` -> `a` -> ``. */
export function parentPath(path: string): string {
  if (path.endsWith("]")) {
    // Either `[3]` or `["key"]` (the key may itself hold brackets: scan from the quote).
    const quoted = path.endsWith('"]') ? path.lastIndexOf('["') : -1;
    return path.slice(0, quoted !== -1 ? quoted : path.lastIndexOf("["));
  }
  const dot = path.lastIndexOf(".");
  const bracket = path.lastIndexOf("]");
  if (dot > bracket) return path.slice(0, dot);
  return bracket === -1 ? "" : path.slice(0, bracket + 1);
}
