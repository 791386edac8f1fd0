import type { LoadedApiSpec } from "./spec-load-result.js";
import { readExtension, readOperations } from "./operations.js";
import { parseDocument } from "./parse-document.js";
import type { Segments } from "./prune-spec.js";

/**
 * The parts of an API description that carry page front matter of their own (`x-svc` or
 * `x-mint` `metadata`: `groups`, `public`...): OpenAPI operations and webhooks, AsyncAPI
 * channels and operations. Who may read each is the reader rule of its page; the mounted spec
 * file leaves out, for each reader, the parts that reader may not read (see `pruneSpec`).
 */
export interface MetadataPart {
  /**
   * `["paths", path, method]`, `["webhooks", name]`, `["channels", id]`, an AsyncAPI 3
   * `["operations", id]` or an AsyncAPI 2 `["channels", id, "publish" | "subscribe"]`.
   */
  readonly part: Segments;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** The parts of a loaded spec with `metadata`. */
export function metadataParts(spec: LoadedApiSpec): MetadataPart[] {
  const out: MetadataPart[] = [];
  if (spec.format === "asyncapi") {
    const v2 = spec.version.startsWith("2");
    for (const ch of spec.channels) {
      const metadata = ch.extension?.metadata;
      if (metadata !== undefined) out.push({ part: ["channels", ch.id], metadata });
      for (const op of ch.operations) {
        const opMetadata = op.extension?.metadata;
        if (opMetadata !== undefined) out.push({ part: v2 ? ["channels", ch.id, op.action] : ["operations", op.id], metadata: opMetadata });
      }
    }
    return out;
  }
  for (const op of spec.operations) {
    const metadata = op.extension?.metadata;
    if (metadata === undefined) continue;
    out.push({ part: op.kind === "webhook" ? ["webhooks", op.path] : ["paths", op.path, op.method.toLowerCase()], metadata });
  }
  return out;
}

/** Whether a spec text may hold such parts at all (most hold none: nothing more to read). */
export function mayHaveMetadata(text: string): boolean {
  return text.includes("x-svc") || text.includes("x-mint");
}

/**
 * The parts with `metadata` of a spec text the API reference did not load (invalid, or loading
 * off), read from the document as written; `undefined` when the text cannot be parsed (the
 * caller then restricts the whole file: what it holds cannot be told apart).
 */
export function metadataPartsOfText(text: string): MetadataPart[] | undefined {
  const parsed = parseDocument(text);
  if (!parsed.ok) return undefined;
  return metadataPartsOfDocument(parsed.document, parsed.type.kind === "asyncapi" ? "asyncapi" : "openapi");
}

/**
 * The parts with `metadata` of a document as written (before its `$ref`s are followed): the
 * loader asks before dereferencing, where an AsyncAPI 3 operation's `channel` is still a `$ref`.
 */
export function metadataPartsOfDocument(document: Record<string, unknown>, kind: "openapi" | "asyncapi"): MetadataPart[] {
  if (kind === "openapi") {
    return metadataParts({ format: "openapi", source: "", version: "", title: "", servers: [], operations: readOperations(document, []), schemas: [] });
  }
  const out: MetadataPart[] = [];
  const add = (part: Segments, value: unknown): void => {
    const metadata = isObj(value) ? readExtension(value)?.metadata : undefined;
    if (metadata !== undefined) out.push({ part, metadata });
  };
  const v2 = String(document.asyncapi).startsWith("2");
  for (const [id, ch] of Object.entries(isObj(document.channels) ? document.channels : {})) {
    add(["channels", id], ch);
    if (v2 && isObj(ch)) for (const action of ["publish", "subscribe"]) add(["channels", id, action], ch[action]);
  }
  if (!v2) for (const [id, op] of Object.entries(isObj(document.operations) ? document.operations : {})) add(["operations", id], op);
  return out;
}

/**
 * Every part of a document as written, with its `metadata` where it has one: the parts a rule
 * can open (`public: true`) as well as those it restricts.
 */
export function everyPartOfDocument(document: Record<string, unknown>, kind: "openapi" | "asyncapi"): { readonly part: Segments; readonly metadata?: Readonly<Record<string, unknown>> }[] {
  const out: { part: Segments; metadata?: Readonly<Record<string, unknown>> }[] = [];
  const add = (part: Segments, value: unknown): void => {
    const metadata = isObj(value) ? readExtension(value)?.metadata : undefined;
    out.push(metadata === undefined ? { part } : { part, metadata });
  };
  if (kind === "openapi") {
    for (const op of readOperations(document, [])) {
      const part: Segments = op.kind === "webhook" ? ["webhooks", op.path] : ["paths", op.path, op.method.toLowerCase()];
      out.push(op.extension?.metadata === undefined ? { part } : { part, metadata: op.extension.metadata });
    }
    return out;
  }
  const v2 = String(document.asyncapi).startsWith("2");
  for (const [id, ch] of Object.entries(isObj(document.channels) ? document.channels : {})) {
    add(["channels", id], ch);
    if (v2 && isObj(ch)) for (const action of ["publish", "subscribe"]) if (isObj(ch[action])) add(["channels", id, action], ch[action]);
  }
  if (!v2) for (const [id, op] of Object.entries(isObj(document.operations) ? document.operations : {})) add(["operations", id], op);
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
