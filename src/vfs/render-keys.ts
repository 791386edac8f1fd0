import { createHash } from "node:crypto";
import type { AsyncChannel, AsyncSpec } from "../config/asyncapi/model.js";
import type { ApiOperation, ApiSpec } from "../config/openapi/model.js";
import type { SpecLoadResult } from "../config/openapi/spec-load-result.js";

/** What a load read a spec from (`ApiCache.specs`): where, its text, and what its `$ref`s read. */
interface SpecRead {
  readonly stamp: string;
  readonly text?: string;
  readonly result: SpecLoadResult;
}

/**
 * The keys of one load's generated pages (`Page.renderKey`): a SHA-256 of everything a page's
 * body is rendered from, so that two pages with one key render one body. The search index knows
 * a cached page by it (`pageInputsSum`), and a warm start then renders no body just to compare
 * it (spree: 706 bodies at every start, ~250 ms, with nothing changed). The spec counts by what
 * it was read from: its text, where it was read, each file its `$ref`s read with its text, and
 * who might read them (`refDecisions`); the code that renders is the cache's own (a cache is per
 * code version). A spec with no text at hand (a remote one) or kept serving for a text it
 * refused gives no key: its pages are known by their rendered body only.
 */
export class RenderKeys {
  private readonly specs = new Map<string, string | undefined>();
  private readonly positions = new Map<object, Map<object, number>>();

  constructor(private readonly reads: ReadonlyMap<string, SpecRead>) {}

  /** An operation's page: its spec, its place in it, and the render's context. */
  operation(spec: ApiSpec, op: ApiOperation, context: { readonly pagePath: string; readonly settings: unknown; readonly playground: unknown; readonly metadata: unknown }, schemaNodes: number): string | undefined {
    const id = this.specId(spec.source);
    const at = this.position(spec, spec.operations, op);
    if (id === undefined || at === undefined) return undefined;
    const values = [context.settings, context.playground, context.metadata].map(keyJson);
    // A value that cannot be written out in full (a spec's data value whose `$ref` points back
    // into it, or one references make gigabytes long) gives no key: the page is known by its body.
    if (values.some((v) => v === undefined)) return undefined;
    return digest([id, "operation", String(at), context.pagePath, ...(values as string[]), String(schemaNodes)]);
  }

  /** A channel's page: its spec, its place in it, and its schema budget. */
  channel(spec: AsyncSpec, channel: AsyncChannel, pagePath: string, schemaNodes: number): string | undefined {
    const id = this.specId(spec.source);
    const at = this.position(spec, spec.channels, channel);
    if (id === undefined || at === undefined) return undefined;
    return digest([id, "channel", String(at), pagePath, String(schemaNodes)]);
  }

  private specId(source: string): string | undefined {
    if (this.specs.has(source)) return this.specs.get(source);
    const read = this.reads.get(source);
    let id: string | undefined;
    if (read !== undefined && read.text !== undefined && read.result.ok && read.result.refused === undefined) {
      const refs = (read.result.refFiles ?? []).flatMap((f) => [f.rel, f.real ?? "", f.text ?? "\u0000none"]);
      id = digest([source, read.stamp, read.text, ...refs, JSON.stringify(read.result.refDecisions ?? [])]);
    }
    this.specs.set(source, id);
    return id;
  }

  private position<T extends object>(spec: object, list: readonly T[], item: T): number | undefined {
    let positions = this.positions.get(spec);
    if (positions === undefined) this.positions.set(spec, (positions = new Map(list.map((x, i) => [x, i]))));
    return positions.get(item);
  }
}

/** The most characters of one value a key writes out (`keyJson`). */
const KEY_JSON_CHARS = 1 << 20;
/** The deepest nesting a key writes out: deeper (a data value nested thousands deep) gives none. */
const KEY_JSON_DEPTH = 256;

/**
 * A value as JSON for a key, or undefined where it cannot be written out whole within
 * `KEY_JSON_CHARS` and `KEY_JSON_DEPTH`: a cycle (a spec's data value reaching itself through `$ref`), or shared
 * parts repeated past the bound. Written by hand, depth first, so that neither a cycle nor
 * gigabytes of repetition are ever built as a string (`JSON.stringify` threw on both).
 */
export function keyJson(value: unknown): string | undefined {
  const out: string[] = [];
  let chars = 0;
  const open = new Set<object>();
  const put = (text: string): boolean => {
    chars += text.length;
    out.push(text);
    return chars <= KEY_JSON_CHARS;
  };
  const write = (v: unknown, depth = 0): boolean => {
    if (depth > KEY_JSON_DEPTH) return false;
    if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string") return put(JSON.stringify(v));
    if (typeof v !== "object") return put("null");
    if (open.has(v)) return false;
    open.add(v);
    let ok: boolean;
    if (Array.isArray(v)) {
      ok = put("[");
      for (let i = 0; ok && i < v.length; i++) ok = (i === 0 || put(",")) && write(v[i], depth + 1);
      ok = ok && put("]");
    } else {
      ok = put("{");
      let first = true;
      for (const [k, item] of Object.entries(v)) {
        if (!ok) break;
        if (item === undefined || typeof item === "function") continue;
        ok = (first || put(",")) && put(JSON.stringify(k)) && put(":") && write(item, depth + 1);
        first = false;
      }
      ok = ok && put("}");
    }
    open.delete(v);
    return ok;
  };
  return write(value) ? out.join("") : undefined;
}

function digest(parts: readonly string[]): string {
  const hash = createHash("sha256");
  // Each part's length first: no two lists of parts run together into the same bytes.
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex");
}
