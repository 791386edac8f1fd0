import type { ApiSchemaComponent } from "./model.js";
import { pruneSpec, type Segments } from "./prune-spec.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A part of a spec restricted to readers in one of `groups` (its `x-svc` rule, or the rule of
 *  an MDX page documenting it: a reader must pass every entry naming the part). */
export interface RestrictedPart {
  readonly part: Segments;
  readonly groups: readonly string[];
}

/**
 * Who may read each schema of `components.schemas` in their copy of the spec, on the document as
 * written and the parts restricted in it, by the rule the mounted spec follows: a reader's copy
 * leaves out a component reachable only from parts that reader may not read (`pruneSpec`), so a
 * schema page may show a schema only to readers whose copy keeps it. Reachability from a union
 * of parts is the union of what each part reaches, so trying the reader in no group and a
 * reader in each one group named is enough: a schema kept for the first is open (absent from the
 * result), otherwise readable by readers in the groups whose one-group reader keeps it (possibly
 * none).
 */
export function schemaReaders(written: Obj, restricted: readonly RestrictedPart[]): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  const names = isObj(written.components) && isObj(written.components.schemas) ? Object.keys(written.components.schemas) : [];
  if (names.length === 0 || restricted.length === 0) return out;
  const keptFor = (groups: readonly string[]): Set<string> => {
    const removed: Segments[] = restricted.filter((r) => !r.groups.some((g) => groups.includes(g))).map((r) => r.part);
    const pruned = pruneSpec(written, removed).value;
    return new Set(isObj(pruned.components) && isObj(pruned.components.schemas) ? Object.keys(pruned.components.schemas) : []);
  };
  const open = keptFor([]);
  const byGroup = [...new Set(restricted.flatMap((r) => r.groups))].sort().map((g) => [g, keptFor([g])] as const);
  for (const name of names) if (!open.has(name)) out.set(name, byGroup.filter(([, kept]) => kept.has(name)).map(([g]) => g));
  return out;
}

/** The dereferenced `components.schemas` (the document pages are built from), in order. */
export function readSchemaComponents(deref: Obj): ApiSchemaComponent[] {
  const schemas = isObj(deref.components) && isObj(deref.components.schemas) ? deref.components.schemas : {};
  return Object.entries(schemas).flatMap(([name, schema]) => (isObj(schema) ? [{ name, schema }] : []));
}

/** A front matter `openapi-schema` value read: `[<spec file>] <schema name>`. */
export interface SchemaReference {
  readonly raw: string;
  readonly file?: string;
  readonly name: string;
}

/** The key form OpenAPI allows for components (`^[a-zA-Z0-9.\-_]+$`). */
const COMPONENT_KEY = /^[A-Za-z0-9._-]+$/;

/**
 * Read `openapi-schema: OrderItem` or `openapi-schema: en-schema.json OrderItem` (the hosted
 * platform's two forms). Undefined for anything else (three words, a name OpenAPI does not
 * allow as a component key).
 */
export function parseSchemaReference(value: string): SchemaReference | undefined {
  const parts = value.trim().split(/\s+/);
  if (parts.length < 1 || parts.length > 2 || parts[0] === "") return undefined;
  const name = parts.at(-1) as string;
  if (!COMPONENT_KEY.test(name)) return undefined;
  return parts.length === 2 ? { raw: value, file: parts[0] as string, name } : { raw: value, name };
}
