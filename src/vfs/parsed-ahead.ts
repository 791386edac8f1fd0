import { parseFrontMatter } from "../config/frontmatter.js";
import type { FrontMatterData } from "../config/frontmatter.js";
import { titleFromBody } from "../config/page-meta.js";
import { bodyStartIn } from "./held-text.js";

/**
 * A page text's front matter parsed by the thread that read its bytes (`page-read-worker.ts`),
 * for a text the load holds as its UTF-8 bytes (`AheadRead.held`): the load's thread then neither
 * decodes the text nor parses it (issue 22: decoding and gray-matter were ~7% of that thread's
 * cold start at 50,000 distinct pages). What `ParsedTexts.parse` makes of the decoded text,
 * less what it reads of the page's keys (`readPageMeta`, left to the load).
 */
export interface ParsedAhead {
  readonly data: FrontMatterData;
  readonly bodyLine: number;
  /** Where the body starts in the text (`bodyStartIn`), in UTF-16 units and in bytes. */
  readonly bodyStart: number;
  readonly bodyAt: number;
  /** `titleFromBody` of the body. */
  readonly bodyTitle: string | undefined;
}

/**
 * The parse of a text of UTF-8 `bytes`, when the load may take it as it comes across threads:
 * front matter that parsed, with a body `bodyStartIn` finds, and data of values a structured
 * clone gives back as they are (plain objects, arrays, dates and primitives; not `!!binary`'s
 * Buffer, which would arrive as a Uint8Array). Anything else is undefined: the load parses it
 * itself, with the same answer as before.
 */
export function parseAhead(bytes: Buffer): ParsedAhead | undefined {
  const whole = bytes.toString("utf8");
  const parsed = parseFrontMatter(whole);
  if (!parsed.ok || !clonesAsItIs(parsed.data)) return undefined;
  const bodyStart = bodyStartIn(whole, parsed.body);
  if (bodyStart < 0) return undefined;
  return { data: parsed.data, bodyLine: parsed.bodyLine, bodyStart, bodyAt: Buffer.byteLength(whole.slice(0, bodyStart), "utf8"), bodyTitle: titleFromBody(parsed.body) };
}

/** Whether a structured clone of `value` is equal to it, prototypes included. Each object is
 *  looked at once (YAML aliases share them). */
function clonesAsItIs(value: unknown): boolean {
  const seen = new Set<object>();
  const todo: unknown[] = [value];
  while (todo.length > 0) {
    const v = todo.pop();
    if (v === null || v === undefined || typeof v === "string" || typeof v === "number" || typeof v === "boolean") continue;
    if (typeof v !== "object") return false;
    if (seen.has(v)) continue;
    seen.add(v);
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto === Date.prototype) continue;
    if (proto !== Object.prototype && proto !== Array.prototype) return false;
    // Own keys only: a symbol key or a property that is not a plain value is not cloned as it is.
    if (Object.getOwnPropertySymbols(v).length > 0) return false;
    for (const key of Object.getOwnPropertyNames(v)) {
      if (key === "__proto__") return false;
      const d = Object.getOwnPropertyDescriptor(v, key) as PropertyDescriptor;
      if (!("value" in d) || d.enumerable !== true) {
        if (Array.isArray(v) && key === "length") continue;
        return false;
      }
      todo.push(d.value);
    }
  }
  return true;
}
