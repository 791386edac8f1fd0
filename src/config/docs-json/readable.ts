import { parsePath } from "./json-path.js";

/**
 * docs.json as the service reads it: `$ref`s resolved, and every value that cannot be read left
 * out, so that one mistake degrades only its own part (docs/docs-json.md, "What a problem
 * costs"). The value is JSON as written otherwise: readers take each part defensively.
 */
export type ReadableDocsJson = Readonly<Record<string, unknown>>;

type Container = Record<PropertyKey, unknown> | unknown[];

/**
 * `value` without the values at `paths` (JSON paths as diagnostics print them). An object key is
 * removed (the setting takes its default); an array item becomes `undefined` rather than being
 * spliced out, so the JSON paths of its siblings, which diagnostics, positions and the API
 * reference's entries name, stay what they are. `value` is not changed: containers on the way
 * are copied. The root itself cannot be left out: undefined then.
 */
export function withoutValues(value: unknown, paths: readonly string[]): unknown {
  let root = value;
  const copied = new WeakSet<object>();
  const own = (c: Container): Container => {
    if (copied.has(c)) return c;
    const copy: Container = Array.isArray(c) ? c.slice() : { ...c };
    copied.add(copy);
    return copy;
  };
  for (const path of paths) {
    const segments = parsePath(path);
    if (segments.length === 0) return undefined;
    if (!isContainer(root)) return root;
    root = own(root);
    let parent = root as Container;
    for (let i = 0; i < segments.length - 1; i++) {
      const key = segments[i] as PropertyKey;
      const next = (parent as Record<PropertyKey, unknown>)[key];
      if (!isContainer(next)) {
        parent = undefined as unknown as Container;
        break;
      }
      const mine = own(next);
      setOwn(parent, key, mine);
      parent = mine;
    }
    if (parent === undefined) continue; // already left out with an ancestor
    const last = segments.at(-1) as PropertyKey;
    if (Array.isArray(parent)) {
      if (typeof last === "number" && last < parent.length) parent[last] = undefined;
    } else {
      delete parent[last];
    }
  }
  return root;
}

/** Assign as data (a key named `__proto__`, which JSON may hold, must not set a prototype). */
function setOwn(target: Container, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isContainer(v: unknown): v is Container {
  return typeof v === "object" && v !== null;
}
