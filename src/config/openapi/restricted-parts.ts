import type { LoadedApiSpec } from "./spec-load-result.js";
import { EXTENSION_KEYS, readExtension, readOperations } from "./operations.js";
import { mayMentionKey } from "../rule-key-fold.js";
import { parseDocument } from "./parse-document.js";
import type { Segments } from "./prune-spec.js";
import { HTTP_METHODS } from "./model.js";
import { readPageMeta, UNMATCHABLE_GROUP } from "../page-meta.js";
import { appendAll } from "../../arrays.js";
import { isDataValue } from "./data-values.js";
import { asyncPartValues, followInternal } from "../asyncapi/async-parts.js";

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
  // Near-miss spellings (`X-SVC`, a zero-width character inside) are read as the rule too.
  return mayMentionKey(text, EXTENSION_KEYS);
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
  for (const { part, rule } of asyncPartValues(document)) if (rule?.metadata !== undefined) out.push({ part, metadata: rule.metadata });
  return out;
}

/**
 * Every part of a document as written, with its `metadata` where it has one: the parts a rule
 * can open (`public: true`) as well as those it restricts.
 */
export function everyPartOfDocument(document: Record<string, unknown>, kind: "openapi" | "asyncapi"): { readonly part: Segments; readonly metadata?: Readonly<Record<string, unknown>> }[] {
  const out: { part: Segments; metadata?: Readonly<Record<string, unknown>> }[] = [];
  if (kind === "openapi") {
    for (const op of readOperations(document, [])) {
      const part: Segments = op.kind === "webhook" ? ["webhooks", op.path] : ["paths", op.path, op.method.toLowerCase()];
      out.push(op.extension?.metadata === undefined ? { part } : { part, metadata: op.extension.metadata });
    }
    return out;
  }
  for (const { part, rule } of asyncPartValues(document)) out.push(rule?.metadata === undefined ? { part } : { part, metadata: rule.metadata });
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
        // An example's `x-svc` is data shown as written, no rule.
        if (isDataValue(k, v, [where.at(-1), where.at(-2), where.at(-3)])) continue;
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
  // A channel or operation written in `components` (a `$ref` followed) is the part, and so is a
  // trait an operation applies: its rule is the operation's (`asyncOperationRule`).
  for (const { written, value, traits } of asyncPartValues(document)) {
    known.add(written);
    known.add(value);
    for (const t of traits) known.add(t);
  }
  return known;
}
