import { LIMITS } from "./limits.js";

/** The bound a JSON text is past: its nesting of arrays and objects, or its count of values. */
export interface JsonComplexity {
  readonly reason: "json_depth" | "json_values";
  readonly limit: number;
}

/** The bounds one reader applies (`LIMITS.clientJson`, or the depth alone where nobody else waits). */
export interface JsonBounds {
  readonly maxDepth: number;
  readonly maxValues: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Whether JSON text nests arrays and objects deeper than `bounds.maxDepth`, or holds more than
 * `bounds.maxValues` values (member names not counted); undefined when it is within both. Read on
 * the text before `JSON.parse`, in one pass over its characters without recursion or allocation
 * beyond a byte per level (adversary round 60 F2/F3: a body nested 30,000 deep overflowed the
 * stack of the schemas that walk the parsed value), so that such a body costs a scan and is
 * refused before any object is built. It does not validate: text that is not JSON may be counted
 * oddly, and is left to `JSON.parse` to refuse when it is within the bounds.
 */
export function jsonComplexity(text: string, bounds: JsonBounds = LIMITS.clientJson): JsonComplexity | undefined {
  const { maxDepth, maxValues } = bounds;
  /** Per open level, 1 when it is an object (after its `,` comes a member name, not a value). */
  const inObject = new Uint8Array(maxDepth + 1);
  let depth = 0;
  let values = 0;
  let inScalar = false;
  let expectName = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      inScalar = false;
      if (expectName) expectName = false;
      else if (++values > maxValues) return { reason: "json_values", limit: maxValues };
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      inScalar = false;
      if (++depth > maxDepth) return { reason: "json_depth", limit: maxDepth };
      if (++values > maxValues) return { reason: "json_values", limit: maxValues };
      inObject[depth] = c === OPEN_BRACE ? 1 : 0;
      expectName = c === OPEN_BRACE;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      inScalar = false;
      expectName = false;
      if (depth > 0) depth--;
    } else if (c === COMMA) {
      inScalar = false;
      expectName = inObject[depth] === 1;
    } else if (c === COLON || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      inScalar = false;
    } else if (!inScalar) {
      // The first character of a number or of true, false, null.
      inScalar = true;
      if (++values > maxValues) return { reason: "json_values", limit: maxValues };
    }
  }
  return undefined;
}

/** What a refusal says of `problem`, after "the body" or "the line". */
export function jsonComplexityMessage(problem: JsonComplexity): string {
  return problem.reason === "json_depth"
    ? `nests arrays and objects more than ${problem.limit} levels deep`
    : `holds more than ${problem.limit} JSON values`;
}
