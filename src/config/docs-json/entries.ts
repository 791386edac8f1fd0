import { parseOperationEntry } from "../openapi/entry.js";
import type { NavContext } from "./nav-model.js";
import type { SpecSource } from "./spec-source.js";

/**
 * How a navigation entry string is understood. `svc-mcp check` and the navigation builder ask a
 * `ResolveEntry` hook, so the OpenAPI engine can plug real operation matching in; the default
 * below decides from the entry's shape alone.
 */

/** What an entry sits under: the nearest `openapi` / `asyncapi` (own or inherited) of its element. */
export interface EntryScope {
  readonly openapi: readonly SpecSource[];
  readonly asyncapi: readonly SpecSource[];
  /** JSON path of the entry (`navigation.tabs[1].groups[2].pages[0]`). */
  readonly path: string;
}

/** The scope of an entry (or of anything else written under an element with this context). */
export function entryScope(context: NavContext, path: string): EntryScope {
  return { openapi: context.openapi?.sources ?? [], asyncapi: context.asyncapi?.sources ?? [], path };
}

export type EntryResolution =
  /** An API operation, no file needed. `page` is its generated page and `title` names it in
   *  `svc-mcp nav`, when the API reference knows them. */
  | { readonly kind: "operation"; readonly title?: string; readonly spec?: string; readonly page?: string }
  /** A page path: the file must exist. `hint` is added to the message when it does not;
   *  `reported` says another part (the API reference) already reported a missing file. */
  | { readonly kind: "file"; readonly hint?: string; readonly reported?: boolean }
  /** Written as an operation but matching none: an error (unless a file of that name exists). */
  | { readonly kind: "unmatched"; readonly hint: string };

export type ResolveEntry = (entry: string, scope: EntryScope) => EntryResolution;

/**
 * The default hook: an uppercase `METHOD /path` entry under an element with an own or inherited
 * `openapi` is an operation (trusted without opening the spec); without one it matches nothing;
 * anything else is a page path. A lowercase method is a page path whose missing file is
 * explained (matching is case-sensitive).
 */
export const defaultResolveEntry: ResolveEntry = (entry, scope) => {
  const op = parseOperationEntry(entry);
  if (op === undefined) return { kind: "file" };
  if (op.method !== op.method.toUpperCase()) {
    const fixed = `${op.file !== undefined ? `${op.file} ` : ""}${op.method.toUpperCase()} ${op.path}`;
    return { kind: "file", hint: `an API operation needs an uppercase method: "${fixed}"` };
  }
  if (scope.openapi.length > 0 || (op.method === "WEBHOOK" && scope.asyncapi.length > 0)) return { kind: "operation" };
  return { kind: "unmatched", hint: `no "openapi" on this element or above it, so no API page is generated for it` };
};
