import { readPageMeta } from "../page-meta.js";
import type { ApiSchemaComponent } from "./model.js";
import { pruneSpec, type Segments } from "./prune-spec.js";
import { metadataPartsOfDocument } from "./restricted-parts.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Who may read each schema of `components.schemas`, decided on the document as written (before
 * it is dereferenced, which rewrites it in place) by the rule the mounted spec follows. A
 * reader's copy of the spec leaves out a component reachable only from parts that reader may not
 * read (`pruneSpec`), so a schema page may show a schema only to readers whose copy keeps it.
 * Reachability from a union of parts is the union of what each part reaches, so trying the
 * reader in no group and a reader in each one group the spec names is enough: a schema kept for
 * the first is open (absent from the result), otherwise readable by readers in the groups whose
 * one-group reader keeps it (possibly none). Most specs restrict nothing: an empty map, nothing pruned.
 */
export function schemaReaders(written: Obj): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  const names = isObj(written.components) && isObj(written.components.schemas) ? Object.keys(written.components.schemas) : [];
  if (names.length === 0) return out;
  const restricted = metadataPartsOfDocument(written, "openapi").flatMap((p) => {
    const meta = readPageMeta(p.metadata);
    return meta.groups !== undefined && meta.public !== true ? [{ part: p.part, groups: meta.groups }] : [];
  });
  if (restricted.length === 0) return out;
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

/** The dereferenced `components.schemas` (`deref`, the document pages are built from), each with who may read it (`schemaReaders`). */
export function readSchemaComponents(deref: Obj, readers: ReadonlyMap<string, readonly string[]>): ApiSchemaComponent[] {
  const schemas = isObj(deref.components) && isObj(deref.components.schemas) ? deref.components.schemas : {};
  return Object.entries(schemas).flatMap(([name, schema]) => {
    if (!isObj(schema)) return [];
    const groups = readers.get(name);
    return [groups !== undefined ? { name, schema, groups } : { name, schema }];
  });
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
