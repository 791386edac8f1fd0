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
  return finiteDataSized(value, maxChars).value;
}

/**
 * A page's text budget that long strings and keys draw on (`SchemaBudget.takeText`'s rule): each
 * costs one per `per` characters, shorter ones are free. Changed as it is drawn on.
 */
export interface TextBudget {
  left: number;
  readonly per: number;
}

/**
 * `finiteData`, with the characters it is written with (strings and keys, one per other value)
 * and whether it was cut. With `text`, long strings and keys also draw on that budget, shared by
 * the page's values (`SchemaBudget.data`); one it cannot pay for reads as `CUT`.
 */
export function finiteDataSized(value: unknown, maxChars: number, text?: TextBudget): { value: unknown; chars: number; cut: boolean } {
  const pay = (s: string): boolean => {
    if (text === undefined) return true;
    const cost = Math.floor(s.length / text.per);
    if (cost > text.left) return false;
    text.left -= cost;
    return true;
  };
  if (typeof value !== "object" || value === null) {
    if (typeof value === "string" && !pay(value)) return { value: CUT, chars: CUT.length, cut: true };
    const v = typeof value === "number" && !Number.isFinite(value) ? null : clipString(value, maxChars);
    return { value: v, chars: typeof value === "string" ? Math.min(value.length, maxChars) : 1, cut: v !== value && v !== null };
  }
  const small = plainSize(value, maxChars, text);
  if (small >= 0) return { value, chars: small, cut: false };
  let left = maxChars;
  let cut = false;
  const open = new Set<object>();
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") {
      if (left <= 0 || !pay(v)) {
        cut = true;
        return CUT;
      }
      if (v.length > left) cut = true;
      const s = v.length <= left ? v : `${v.slice(0, left)}… ${CUT}`;
      left -= v.length;
      return s;
    }
    if (typeof v !== "object" || v === null) {
      left -= 1;
      // As JSON writes them (YAML's `.nan`, `.inf`): the code examples' writers read null.
      return typeof v === "number" && !Number.isFinite(v) ? null : v;
    }
    if (open.has(v)) return CIRCULAR;
    if (left <= 0 || depth >= MAX_DEPTH) {
      cut = true;
      return CUT;
    }
    open.add(v);
    let out: unknown;
    if (Array.isArray(v)) {
      const arr: unknown[] = [];
      for (const item of v) {
        if (left <= 0) {
          cut = true;
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
          cut = true;
          obj["…"] = CUT;
          break;
        }
        if (!pay(key)) {
          cut = true;
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
  const out = copy(value, 0);
  return { value: out, chars: maxChars - Math.max(left, 0), cut };
}

/** A string over the bound, cut; anything else as it is. */
function clipString(value: unknown, maxChars: number): unknown {
  return typeof value === "string" && value.length > maxChars ? `${value.slice(0, maxChars)}… ${CUT}` : value;
}

/**
 * The characters a value is written with when it is a tree (no object reached twice on one path,
 * nor twice at all: a shared one could stand for many copies) of finite numbers within the bounds:
 * then it is written as it is. -1 otherwise. Stops early.
 */
function plainSize(value: object, maxChars: number, text: TextBudget | undefined): number {
  const seen = new Set<object>();
  let left = maxChars;
  let cost = 0;
  const costOf = (s: string): number => (text === undefined ? 0 : Math.floor(s.length / text.per));
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: unknown; depth: number };
    if (typeof v === "string") {
      left -= v.length;
      cost += costOf(v);
    }
    else if (typeof v === "object" && v !== null) {
      if (seen.has(v) || depth >= MAX_DEPTH) return -1;
      seen.add(v);
      for (const key of Object.keys(v)) {
        left -= key.length;
        cost += costOf(key);
        stack.push({ v: (v as Record<string, unknown>)[key], depth: depth + 1 });
      }
    } else if (typeof v === "number" && !Number.isFinite(v)) return -1;
    else left -= 1;
    if (left < 0 || (text !== undefined && cost > text.left)) return -1;
  }
  if (text !== undefined) text.left -= cost;
  return maxChars - left;
}

/** Set a key as data, `__proto__` included (never the object's prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `JSON.stringify` of a spec's data value, made finite first (`finiteData`). */
export function dataJson(value: unknown, indent?: number): string {
  return JSON.stringify(finiteData(value), null, indent) ?? "null";
}
