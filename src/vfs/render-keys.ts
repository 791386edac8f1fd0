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
    return digest([id, "operation", String(at), context.pagePath, JSON.stringify(context.settings) ?? "", JSON.stringify(context.playground) ?? "", JSON.stringify(context.metadata) ?? "", String(schemaNodes)]);
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

function digest(parts: readonly string[]): string {
  const hash = createHash("sha256");
  // Each part's length first: no two lists of parts run together into the same bytes.
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex");
}
