import { readPageMeta, UNMATCHABLE_GROUP } from "../page-meta.js";
import { API_CODES } from "./api-codes.js";
import type { SpecWarning } from "./spec-warning.js";
import { applyDeletions, refSegments, refsInto, type Segments } from "./prune-spec.js";
import { everyPartOfDocument, type MetadataPart, pagePartsOfDocument, strayMetadataParts } from "./restricted-parts.js";
import { appendAll } from "../../arrays.js";
import { isDataValue } from "./data-values.js";
import { followInternal } from "../asyncapi/async-parts.js";
import { lookalikeKeys } from "../rule-key-fold.js";
import { EXTENSION_KEYS } from "./operations.js";
import { nearMissWarnings } from "./near-miss-rule.js";
import { namesOfRemoved } from "./names-of-removed.js";
import { emptiedSecurityLists, markSecurityNotShown } from "./security-not-shown.js";

/**
 * What a spec's restricted parts (`x-svc`/`x-mint` `metadata.groups` on an operation, webhook or
 * AsyncAPI channel or operation) mean before the spec is dereferenced, for the pages generated
 * from it. Text written inside a restricted part belongs to that part's readers, and the pages
 * of other parts are one file for all of their readers: a `$ref` from outside a restricted part
 * into it (a public operation's response written as a pointer into a restricted one's) would
 * copy restricted text into a page other readers read, so it is left out of the pages, with a
 * warning. The mounted spec file leaves it out too, for the readers who may not read the part
 * (`pruneSpec`).
 *
 * The same holds for a part marked `public: true` pointing into one that is not: where signing
 * in is required (`auth: full`), the public part's page is read by anonymous readers and the
 * other part's text is not theirs. The spec is read once for every auth setting, which can
 * change without a reload, so such a `$ref` is left out of the public part's page whatever the
 * setting is (a part of a site that never requires sign-in loses a copy its readers could also
 * read on the other part's page).
 */
export function cutRefsIntoRestricted(document: Record<string, unknown>, kind: "openapi" | "asyncapi"): { document: Record<string, unknown>; warnings: SpecWarning[]; stray: MetadataPart[] } {
  if (!mentionsExtension(document)) return { document, warnings: [], stray: [] };
  const stray = strayMetadataParts(document, kind);
  const parts = [...pagePartsOfDocument(document, kind), ...stray];
  const warnings = [...looseGroupsWarnings(document), ...parts.flatMap(unreadableRule)];
  for (const p of stray) {
    warnings.push({
      message: `x-svc metadata.groups at ${p.part.join(".")} is not on an operation, webhook or channel (no page is made from it): left out of every page, and out of the spec file for readers outside its groups`,
      code: API_CODES.strayRule,
    });
  }
  const restricted = parts.filter((p) => restricts(p.metadata)).map((p) => p.part);
  if (kind === "asyncapi") appendAll(restricted, operationsOn(document, restricted));
  const skip = new Set(restricted.map((p) => valueAt(document, p)));
  const holders = restricted.length === 0 ? [] : refsInto(document, restricted, skip);
  for (const h of holders) {
    const ref = (valueAt(document, h) as { $ref: string }).$ref;
    warnings.push({
      message: `$ref at ${h.join(".")} points into ${ref}, a part restricted by x-svc metadata.groups: left out of the pages (their readers may not read it)`,
      code: API_CODES.restrictedRef,
    });
  }
  const fromPublic = refsFromPublicParts(document, kind, skip).filter((h) => !holders.some((o) => o.length <= h.length && o.every((s, i) => s === h[i])));
  for (const h of fromPublic) {
    const ref = (valueAt(document, h) as { $ref: string }).$ref;
    warnings.push({
      message: `$ref at ${h.join(".")} points into ${ref}, a part not marked public: left out of the pages of the public part (where signing in is required, its anonymous readers may not read it)`,
      code: API_CODES.restrictedRef,
    });
  }
  // A stray rule's object is on no page, for any reader (fail closed), nor is its name where it
  // is named by key (a security requirement, an AsyncAPI 2 channel's server).
  const strayParts = stray.map((p) => p.part);
  const naming = { asyncapi: kind === "asyncapi", asyncV2: kind === "asyncapi" && String(document.asyncapi).startsWith("2"), swagger2: false };
  const cut = [...holders, ...fromPublic, ...strayParts, ...namesOfRemoved(document, strayParts, naming, new Set(strayParts.map((p) => valueAt(document, p))))];
  if (cut.length === 0) return { document, warnings, stray };
  // A `security` list that loses every requirement says so (`security-not-shown.ts`): left
  // empty it would read as public, gone as the document's.
  const notShown = emptiedSecurityLists(document, cut);
  const value = applyDeletions(document, [...cut, ...notShown]) as Record<string, unknown>;
  markSecurityNotShown(value, notShown);
  return { document: value, warnings, stray };
}

/** `$ref`s inside a part marked `public: true` into a part that is not (`skip`: restricted parts, not entered). */
function refsFromPublicParts(document: Record<string, unknown>, kind: "openapi" | "asyncapi", skip: ReadonlySet<unknown>): Segments[] {
  const all = everyPartOfDocument(document, kind);
  const isPublic = (p: { metadata?: Readonly<Record<string, unknown>> }): boolean => p.metadata !== undefined && readPageMeta(p.metadata).public === true;
  const open = all.filter(isPublic);
  const closed = all.filter((p) => !isPublic(p)).map((p) => p.part);
  if (open.length === 0 || closed.length === 0) return [];
  const out: Segments[] = [];
  for (const p of open) {
    const value = valueAt(document, p.part);
    if (typeof value !== "object" || value === null || skip.has(value)) continue;
    const within = closed.filter((c) => !p.part.every((s, i) => s === c[i]) || c.length <= p.part.length);
    for (const h of refsInto(value as Record<string, unknown>, within, skip)) out.push([...p.part, ...h]);
  }
  return out;
}

/** Whether a part's `metadata` restricts it (as its page's front matter would). */
function restricts(metadata: Readonly<Record<string, unknown>>): boolean {
  const meta = readPageMeta(metadata);
  return meta.groups !== undefined && meta.public !== true;
}

/**
 * A rule that cannot be read restricts its part to no reader (fail closed, as on a page); the
 * author hears why.
 */
function unreadableRule(p: MetadataPart): SpecWarning[] {
  // As a page's front matter is read: a `groups` key that is there but names no group (null,
  // `[]`, `""`, a wrong type) restricts to no reader.
  const unreadable = readPageMeta(p.metadata).groups?.includes(UNMATCHABLE_GROUP) === true;
  if (!unreadable) return [];
  return [
    {
      message: `x-svc metadata.groups of ${p.part.join(".")} cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed`,
      code: API_CODES.unreadableRule,
    },
  ];
}

/**
 * An `x-svc`/`x-mint` object with `groups` beside `metadata` instead of in it: read as a rule
 * (`readExtension`), where the hosted platform reads none and shows the part to everyone; the
 * author hears where it belongs. Each object once, in document order.
 */
function looseGroupsWarnings(document: Record<string, unknown>): SpecWarning[] {
  const out: SpecWarning[] = [];
  // A walk with a stack (a spec may be deeper than the call stack), each node's path made only
  // where one is found: a spec holds up to `LIMITS.api.maxExpandedValues` values.
  interface At {
    readonly node: unknown;
    readonly key: string;
    readonly parent: At | undefined;
  }
  const keysOf = (at: At): string[] => {
    const keys: string[] = [];
    for (let a: At | undefined = at; a?.parent !== undefined; a = a.parent) keys.push(a.key);
    return keys.reverse();
  };
  const pathOf = (at: At): string => keysOf(at).join(".");
  // The key an object is under; none for the document.
  const keyOf = (a: At | undefined): string | undefined => (a?.parent === undefined ? undefined : a.key);
  const stack: At[] = [{ node: document, key: "", parent: undefined }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const at = stack.pop() as At;
    const node = at.node;
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    const entries = Object.entries(node);
    if (!Array.isArray(node)) {
      for (const key of ["x-mint", "x-svc"]) {
        const ext = (node as Record<string, unknown>)[key];
        if (typeof ext !== "object" || ext === null || Array.isArray(ext) || !Object.hasOwn(ext, "groups")) continue;
        out.push({
          message: `${key} of ${pathOf(at)} has groups beside metadata, where the hosted platform reads no rule: read as ${key} metadata.groups (a reader must pass both); write it under metadata`,
          code: API_CODES.unreadableRule,
        });
      }
      if (mentionsOwnExtension(node)) appendAll(out, nearMissWarnings(node as Record<string, unknown>, keysOf(at)));
    }
    // Pushed last first, so they are walked in document order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, value] = entries[i] as [string, unknown];
      // An example's `x-svc` is data, read as no rule (`strayMetadataParts`): nothing to warn of.
      if (typeof value === "object" && value !== null && !isDataValue(Array.isArray(node) ? Number(key) : key, value, [keyOf(at), keyOf(at.parent), keyOf(at.parent?.parent)])) stack.push({ node: value, key, parent: at });
    }
  }
  return out;
}

/** AsyncAPI 3 operations on a restricted channel (`channel: {$ref: "#/channels/<id>"}`): they are part of it. */
function operationsOn(document: Record<string, unknown>, restricted: readonly Segments[]): Segments[] {
  const channels = new Set(restricted.filter((p) => p[0] === "channels" && p.length === 2).map((p) => String(p[1])));
  const ops = document.operations;
  if (channels.size === 0 || typeof ops !== "object" || ops === null) return [];
  const out: Segments[] = [];
  for (const [id, written] of Object.entries(ops)) {
    // An operation written in `components.operations` is read where its `$ref` leads.
    const op = followInternal(document, written);
    const ref = (op as { channel?: { $ref?: unknown } } | null)?.channel?.$ref;
    const target = typeof ref === "string" ? refSegments(ref) : undefined;
    if (target?.length === 2 && target[0] === "channels" && channels.has(target[1] as string)) out.push(["operations", id]);
  }
  return out;
}

function mentionsExtension(document: Record<string, unknown>): boolean {
  // Most specs restrict nothing: a cheap look before walking the document.
  const stack: unknown[] = [document];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node) && mentionsOwnExtension(node)) return true;
    for (const v of Object.values(node)) if (typeof v === "object" && v !== null) stack.push(v);
  }
  return false;
}

/** Whether an object has an `x-svc`/`x-mint` key of its own, or a near-miss spelling of one. */
function mentionsOwnExtension(node: object): boolean {
  return Object.hasOwn(node, "x-svc") || Object.hasOwn(node, "x-mint") || lookalikeKeys(node, EXTENSION_KEYS).length > 0;
}

function valueAt(document: unknown, segments: Segments): unknown {
  let node = document;
  for (const s of segments) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[String(s)];
  }
  return node;
}
