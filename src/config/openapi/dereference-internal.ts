/**
 * A fast dereferencer for documents whose `$ref`s all point inside the document (`#/...`), which
 * is what almost every real spec is. It gives the object graph `@apidevtools/json-schema-ref-parser`
 * gives (a reference becomes the very object it points to, so cycles become circular objects and
 * repeated references share one object; a reference with sibling keys becomes a new object that
 * merges them), in one in-place pass instead of that library's crawl, which costs 10x more on
 * real specs (spree's four: ~290 ms against ~30 ms; docs/api-reference.md, measurements).
 *
 * Documents it does not handle are left to the full resolver (`needsFullResolver`): references to
 * other files or URLs, and documents where `$id` changes what a `#/...` pointer is relative to.
 */

import { LIMITS } from "../../limits.js";

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null;
}

/** A JSON Reference the fast path resolves: `{"$ref": "#/..."}` or `{"$ref": "#"}`. */
function isLocalRef(v: unknown): v is Obj & { $ref: string } {
  if (!isObject(v) || Array.isArray(v)) return false;
  const ref = (v as Obj).$ref;
  return typeof ref === "string" && (ref === "#" || ref.startsWith("#/"));
}

/**
 * Whether a document needs the full resolver: a `$ref` that is not a `#...` pointer (another
 * file, a URL), or a `$id` / `$schema` that gives schemas their own base (JSON Schema 2020 scoping
 * in OpenAPI 3.1), where `#/...` may point into a schema resource rather than the document.
 */
export function needsFullResolver(document: Obj): boolean {
  if (typeof document.$schema === "string" || typeof document.$id === "string") return true;
  const seen = new Set<object>();
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const v of node) if (isObject(v)) stack.push(v);
      continue;
    }
    const ref = node.$ref;
    if (typeof ref === "string" && ref.length > 0 && !ref.startsWith("#")) return true;
    if (typeof node.$id === "string" && node.$id.length > 0) return true;
    for (const key in node) {
      const v = node[key];
      if (isObject(v)) stack.push(v);
    }
  }
  return false;
}

/** A pointer's percent-encoding decoded; as written when it is not valid. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A problem with one reference (worded as json-schema-ref-parser words it). */
export interface RefProblem {
  /** Where the broken `$ref` sits in the document (keys from the root). */
  readonly at: readonly string[];
  readonly message: string;
}

class MissingPointer extends Error {}

/** A chain of references that comes back to where it started (`"a": {"$ref": "#/a"}`): nothing
 *  to point at. Reported as a pointer that points nowhere is: silently left as a `$ref`, such a
 *  default was printed raw on the page and `check` said nothing. */
class LoopingPointer extends MissingPointer {}

/**
 * A document whose references, once replaced, nest objects deeper than `LIMITS.api.maxResolvedDepth`
 * (a chain of schemas each holding the next): the walk below recurses once per level, and a chain
 * of a few thousand overflowed the stack. The spec is refused with this message.
 */
export class ReferencesTooDeep extends Error {
  constructor(at: readonly string[]) {
    super(`objects nested deeper than ${LIMITS.api.maxResolvedDepth} levels once $refs are replaced (at ${at.join(".")}): not read`);
    this.name = "ReferencesTooDeep";
  }
}

/**
 * Replace every local `$ref` of `document` in place with what it points to. A reference that
 * points nowhere is left as it is and reported. Only call this when `needsFullResolver` is false.
 */
export function dereferenceLocal(document: Obj): { document: Obj; problems: RefProblem[] } {
  const problems: RefProblem[] = [];
  /** Objects whose members have been (or are being) replaced: each is walked once. */
  const walked = new Set<object>();
  /** What each plain (sibling-less) reference resolved to, by decoded pointer. */
  const resolved = new Map<string, unknown>();
  /** Pointers being resolved right now: a chain that comes back to one is left as a `$ref`. */
  const resolving = new Set<string>();
  /** Keys from the root to the object being walked (a reference's target: its pointer), for messages. */
  let stack: string[] = [];

  const pointerTokens = (ref: string): string[] => {
    const pointer = safeDecode(ref.slice(1));
    if (pointer === "") return [];
    return pointer
      .split("/")
      .slice(1)
      .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  };

  /** Follow a pointer through the live document, resolving references met on the way (at `depth`). */
  const follow = (ref: string, tokens: readonly string[], depth: number): unknown => {
    let value: unknown = document;
    for (let i = 0; i < tokens.length; i++) {
      if (isLocalRef(value)) value = resolveRef(value, depth);
      const token = tokens[i] as string;
      if (!isObject(value)) throw new MissingPointer(`Missing $ref pointer "${refHash(ref)}". Token "${token}" does not exist.`);
      const next = (value as Obj)[token];
      if (next === undefined) {
        // A key that itself holds slashes (`/users/{id}` under `paths`), split by the pointer.
        let found = false;
        for (let j = tokens.length - 1; j > i; j--) {
          const joined = tokens.slice(i, j + 1).join("/");
          if ((value as Obj)[joined] !== undefined) {
            value = (value as Obj)[joined];
            i = j;
            found = true;
            break;
          }
        }
        if (found) continue;
        throw new MissingPointer(`Missing $ref pointer "${refHash(ref)}". Token "${token}" does not exist.`);
      }
      value = next;
    }
    if (isLocalRef(value)) value = resolveRef(value, depth);
    return value;
  };

  /** The value a reference stands for (the target, or a merge with its siblings), `depth` deep. */
  const resolveRef = (refObj: Obj & { $ref: string }, depth: number): unknown => {
    const ref = refObj.$ref;
    const tokens = pointerTokens(ref);
    const key = tokens.join("/");
    const extended = Object.keys(refObj).length > 1;
    if (!extended && resolved.has(key)) return resolved.get(key);
    if (resolving.has(key)) throw new LoopingPointer(`$ref pointer "${refHash(ref)}" comes back to itself through $refs alone: nothing to point at.`);
    resolving.add(key);
    let target: unknown;
    try {
      target = follow(ref, tokens, depth);
    } finally {
      resolving.delete(key);
    }
    if (isObject(target)) {
      const saved = stack;
      stack = [...tokens];
      walk(target, depth);
      stack = saved;
    }
    if (!extended) {
      resolved.set(key, target);
      return target;
    }
    if (!isObject(target) || Array.isArray(target)) return target;
    const merged = mergeExtended(refObj, target);
    walk(merged, depth);
    return merged;
  };

  /** Replace the references among an object's members, then walk in; `depth`: as pages see it. */
  const walk = (node: object, depth: number): void => {
    if (walked.has(node)) return;
    if (depth > LIMITS.api.maxResolvedDepth) throw new ReferencesTooDeep(stack);
    walked.add(node);
    const obj = node as Obj;
    const keys = Array.isArray(node) ? undefined : Object.keys(obj);
    const n = keys === undefined ? (node as unknown[]).length : keys.length;
    for (let i = 0; i < n; i++) {
      const k = keys === undefined ? i : (keys[i] as string);
      const v = (obj as Record<string | number, unknown>)[k];
      if (!isObject(v)) continue;
      if (isLocalRef(v)) {
        let value: unknown;
        try {
          value = resolveRef(v, depth + 1);
        } catch (error) {
          if (!(error instanceof MissingPointer)) throw error;
          problems.push({ at: [...stack, String(k)], message: error.message });
          walkRefSiblings(v, depth + 1);
          continue;
        }
        if (value !== v) (obj as Record<string | number, unknown>)[k] = value;
      } else {
        stack.push(String(k));
        walk(v, depth + 1);
        stack.pop();
      }
    }
  };

  /** A broken reference stays; its sibling keys may still hold references of their own. */
  const walkRefSiblings = (refObj: Obj, depth: number): void => {
    for (const [k, v] of Object.entries(refObj)) if (k !== "$ref" && isObject(v)) walk(v, depth + 1);
  };

  walk(document, 1);
  return { document, problems };
}

function refHash(ref: string): string {
  return safeDecode(ref);
}

/**
 * A reference with sibling keys (`{"$ref": ..., "description": ...}`): a new object with the
 * siblings first, then the target's other keys; where both hold an object, the two merge (the
 * siblings win). This is json-schema-ref-parser's rule, kept so that pages read the same.
 */
function mergeExtended(refObj: Obj, target: Obj): Obj {
  const merged: Obj = {};
  for (const key of Object.keys(refObj)) if (key !== "$ref") define(merged, key, refObj[key]);
  for (const key of Object.keys(target)) {
    if (!Object.hasOwn(merged, key)) define(merged, key, target[key]);
    else if (isObject(merged[key]) && isObject(target[key])) define(merged, key, deepMerge(target[key], merged[key]));
  }
  return merged;
}

function deepMerge(target: unknown, source: unknown): unknown {
  if (!isObject(target) || !isObject(source)) return source;
  if (Array.isArray(source)) return clone(source);
  const output = clone(target) as Obj;
  for (const key of Object.keys(source)) {
    const value = (source as Obj)[key];
    let mergedValue: unknown;
    if (Array.isArray(value)) mergedValue = clone(value);
    else if (isObject(value)) mergedValue = deepMerge(Object.hasOwn(target, key) ? (target as Obj)[key] : undefined, value);
    else mergedValue = value;
    define(output, key, mergedValue);
  }
  return output;
}

function clone(value: object): object {
  const out: Obj | unknown[] = Array.isArray(value) ? new Array<unknown>(value.length) : {};
  for (const key of Object.keys(value)) define(out as Obj, key, (value as Obj)[key]);
  return out;
}

/** Set a key as data (a `__proto__` key from JSON stays a key, never a prototype). */
function define(target: Obj, key: string, value: unknown): void {
  Object.defineProperty(target, key, { configurable: true, enumerable: true, writable: true, value });
}
