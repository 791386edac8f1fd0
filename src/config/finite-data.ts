import { LIMITS } from "../limits.js";

/**
 * A spec's data value (an `example`, a `default`, an `enum` entry, an `x-svc.metadata` field) as
 * a finite tree every JSON and YAML writer can write. Once `$ref`s are replaced such a value may
 * point back up itself (`loop: {$ref: '#/.../example'}`), or stand, through shared references, for
 * gigabytes of text (14 levels of two references to the one below, ending in a 100,000-character
 * string: a 101 KB spec); writing either took every command down. A copy is made for writing:
 * the spec itself is never changed, since the same objects are schemas elsewhere (a `$ref` from
 * an example to a recursive schema must not cut the schema). A reference back to one of its own
 * ancestors reads as `CIRCULAR`; past `maxChars` characters (strings and keys), the rest reads as
 * `CUT`. Values that need neither come back as they are, uncopied.
 */

/** What a data value's reference back up itself reads as. */
export const CIRCULAR = "(circular $ref)";
/** What the rest of a data value reads as once it is over the size bound. */
export const CUT = "(cut: value too large)";

/** Levels a data value keeps: deeper ones read as `CUT` (real examples nest a handful). */
const MAX_DEPTH = 64;

export function finiteData(value: unknown, maxChars: number = LIMITS.api.maxDataChars): unknown {
  if (typeof value !== "object" || value === null) return clipString(value, maxChars);
  if (isPlainAndSmall(value, maxChars)) return value;
  let left = maxChars;
  const open = new Set<object>();
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") {
      if (left <= 0) return CUT;
      const s = v.length <= left ? v : `${v.slice(0, left)}… ${CUT}`;
      left -= v.length;
      return s;
    }
    if (typeof v !== "object" || v === null) {
      left -= 1;
      return v;
    }
    if (open.has(v)) return CIRCULAR;
    if (left <= 0 || depth >= MAX_DEPTH) return CUT;
    open.add(v);
    let out: unknown;
    if (Array.isArray(v)) {
      const arr: unknown[] = [];
      for (const item of v) {
        if (left <= 0) {
          arr.push(CUT);
          break;
        }
        arr.push(copy(item, depth + 1));
      }
      out = arr;
    } else {
      const obj: Record<string, unknown> = {};
      for (const key of Object.keys(v)) {
        if (left <= 0) {
          obj["…"] = CUT;
          break;
        }
        left -= key.length;
        define(obj, key, copy((v as Record<string, unknown>)[key], depth + 1));
      }
      out = obj;
    }
    open.delete(v);
    return out;
  };
  return copy(value, 0);
}

/** A string over the bound, cut; anything else as it is. */
function clipString(value: unknown, maxChars: number): unknown {
  return typeof value === "string" && value.length > maxChars ? `${value.slice(0, maxChars)}… ${CUT}` : value;
}

/**
 * Whether a value is a tree (no object reached twice on one path, nor twice at all: a shared one
 * could stand for many copies) within the bounds: then it is written as it is. Stops early.
 */
function isPlainAndSmall(value: object, maxChars: number): boolean {
  const seen = new Set<object>();
  let left = maxChars;
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: unknown; depth: number };
    if (typeof v === "string") left -= v.length;
    else if (typeof v === "object" && v !== null) {
      if (seen.has(v) || depth >= MAX_DEPTH) return false;
      seen.add(v);
      for (const key of Object.keys(v)) {
        left -= key.length;
        stack.push({ v: (v as Record<string, unknown>)[key], depth: depth + 1 });
      }
    } else left -= 1;
    if (left < 0) return false;
  }
  return true;
}

/** Set a key as data, `__proto__` included (never the object's prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `JSON.stringify` of a spec's data value, made finite first (`finiteData`). */
export function dataJson(value: unknown, indent?: number): string {
  return JSON.stringify(finiteData(value), null, indent) ?? "null";
}
