import type { LoadedApiSpec } from "./spec-load-result.js";
import { readExtension, readOperations } from "./operations.js";
import { parseDocument } from "./parse-document.js";
import { refSegments, type Segments } from "./prune-spec.js";
import { HTTP_METHODS } from "./model.js";
import { readPageMeta, UNMATCHABLE_GROUP } from "../page-meta.js";
import { appendAll } from "../../arrays.js";

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
    if (spec.strayParts !== undefined) appendAll(out, spec.strayParts);
    return out;
  }
  for (const op of spec.operations) {
    const metadata = op.extension?.metadata;
    if (metadata === undefined) continue;
    out.push({ part: op.kind === "webhook" ? ["webhooks", op.path] : ["paths", op.path, op.method.toLowerCase()], metadata });
  }
  if (spec.strayParts !== undefined) appendAll(out, spec.strayParts);
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
  const out = pagePartsOfDocument(document, kind);
  appendAll(out, strayMetadataParts(document, kind));
  return out;
}

/** The parts with `metadata` that pages are made from (`metadataPartsOfDocument` without the stray ones). */
export function pagePartsOfDocument(document: Record<string, unknown>, kind: "openapi" | "asyncapi"): MetadataPart[] {
  if (kind === "openapi") {
    // A path item written as a `$ref` (to `components.pathItems`) is read where it points.
    const followed: Record<string, unknown> = { ...document };
    for (const section of ["paths", "webhooks"]) {
      const items = document[section];
      if (isObj(items)) followed[section] = Object.fromEntries(Object.entries(items).map(([k, v]) => [k, followInternal(document, v)]));
    }
    return metadataParts({ format: "openapi", source: "", version: "", title: "", servers: [], operations: readOperations(followed, []), schemas: [] });
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

/**
 * `x-svc`/`x-mint` `metadata` that restricts (`groups`, not `public: true`) written where no page
 * is made from it: an operation in a `callbacks` entry (an operation's, or `components.callbacks`),
 * one in `components.pathItems` that no path names, a webhook's method after its first, an
 * AsyncAPI message or component. The hosted platform ignores such a rule; here it fails closed
 * where it can be applied: every page leaves the object out (`cutRefsIntoRestricted`), and each
 * reader's spec file leaves it out for readers outside its groups (`pruneSpec` deletes it where
 * it is written). An object a YAML alias writes again is left out at each place it is written;
 * a container met again whose inside holds such a rule goes whole, restricted to no reader.
 */
export function strayMetadataParts(document: Record<string, unknown>, kind: "openapi" | "asyncapi"): MetadataPart[] {
  const known = knownPartValues(document, kind);
  const out: MetadataPart[] = [];
  const holds = new Map<object, boolean>();
  const where: (string | number)[] = [];
  const nobody = { groups: [UNMATCHABLE_GROUP] };
  const visit = (node: unknown): boolean => {
    if (typeof node !== "object" || node === null) return false;
    const met = holds.get(node);
    if (met !== undefined) {
      // Written again (a YAML alias): what it holds goes here too.
      if (met && where.length > 0) out.push({ part: [...where], metadata: ownRule(node) ?? nobody });
      return met;
    }
    holds.set(node, false);
    let found = false;
    const rule = where.length > 0 && !known.has(node) ? ownRule(node) : undefined;
    if (rule !== undefined) {
      out.push({ part: [...where], metadata: rule });
      found = true;
    }
    if (where.length < MAX_STRAY_DEPTH) {
      const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
      for (const [k, v] of entries) {
        if (typeof v !== "object" || v === null) continue;
        where.push(k);
        // Inside a stray part, the part already goes whole.
        if (visit(v) && rule === undefined) found = true;
        where.pop();
      }
    }
    holds.set(node, found);
    return found;
  };
  visit(document);
  return out;
}

/** Deeper than any spec writes an operation; the parser caps nesting well below. */
const MAX_STRAY_DEPTH = 64;

/** The restricting `metadata` of an object's own `x-svc`/`x-mint`, if any. */
function ownRule(node: object): Readonly<Record<string, unknown>> | undefined {
  if (Array.isArray(node)) return undefined;
  const metadata = readExtension(node as Record<string, unknown>)?.metadata;
  if (metadata === undefined) return undefined;
  const meta = readPageMeta(metadata);
  return meta.groups !== undefined && meta.public !== true ? metadata : undefined;
}

/**
 * The objects whose rule is a page's (or its path item's): OpenAPI path items and their
 * operations, webhooks and their first method (internal `$ref`s to `components.pathItems`
 * followed), AsyncAPI channels and operations (2.x `publish`/`subscribe`).
 */
function knownPartValues(document: Record<string, unknown>, kind: "openapi" | "asyncapi"): Set<unknown> {
  const known = new Set<unknown>();
  if (kind === "openapi") {
    for (const section of ["paths", "webhooks"] as const) {
      const items = document[section];
      if (!isObj(items)) continue;
      for (const written of Object.values(items)) {
        known.add(written);
        const item = followInternal(document, written);
        if (!isObj(item)) continue;
        known.add(item);
        for (const m of HTTP_METHODS.map((x) => x.toLowerCase())) {
          if (!isObj(item[m])) continue;
          known.add(item[m]);
          if (section === "webhooks") break;
        }
      }
    }
    return known;
  }
  const v2 = String(document.asyncapi).startsWith("2");
  for (const ch of Object.values(isObj(document.channels) ? document.channels : {})) {
    known.add(ch);
    if (v2 && isObj(ch)) for (const action of ["publish", "subscribe"]) if (isObj(ch[action])) known.add(ch[action]);
  }
  if (!v2) for (const op of Object.values(isObj(document.operations) ? document.operations : {})) known.add(op);
  return known;
}

/** A `$ref` chain inside the document followed (a few hops); the value as is otherwise. */
function followInternal(document: Record<string, unknown>, value: unknown): unknown {
  let v = value;
  for (let hops = 0; hops < 8 && isObj(v) && typeof v.$ref === "string"; hops++) {
    const target = refSegments(v.$ref);
    if (target === undefined) return v;
    let node: unknown = document;
    for (const s of target) node = isObj(node) ? node[s] : Array.isArray(node) ? node[Number(s)] : undefined;
    v = node;
  }
  return v;
}
