import type { SpecSegments as Segments } from "./spec-positions.js";

/** How a document names its parts by key (not by `$ref`). */
export interface NamingKind {
  readonly asyncapi: boolean;
  readonly asyncV2: boolean;
  readonly swagger2: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Where what is kept of a document names a removed part by its key: a security requirement
 * (OpenAPI, Swagger 2.0, AsyncAPI 2: `{<scheme name>: [...]}`) naming a removed scheme, an
 * AsyncAPI 2 channel's `servers` entry naming a removed server, a discriminator mapping value
 * naming a removed schema. `$ref`s are followed elsewhere (`refsInto`); a name is no `$ref`, so
 * before this a scheme or server restricted by a stray rule lost its content but its name stayed
 * in every reader's copy (adversary F6). Each such entry goes whole: a requirement is one
 * alternative (its schemes are needed together), and one naming a scheme the reader may not read
 * is not the reader's to see. `removed` are the removed members; `skip` their values (not
 * entered). Every place an object is written is walked (a YAML alias's copy too: the cut is by
 * place), which the parser's bound on expanded values keeps finite.
 */
export function namesOfRemoved(doc: Obj, removed: readonly Segments[], kind: NamingKind, skip: ReadonlySet<unknown>): Segments[] {
  if (removed.length === 0) return [];
  const gone = removed.map((r) => r.map(String));
  const isRemoved = (target: readonly string[]): boolean => gone.some((g) => g.length <= target.length && g.every((s, i) => s === target[i]));
  const schemeAt = (name: string): string[] => (kind.swagger2 ? ["securityDefinitions", name] : ["components", "securitySchemes", name]);
  const out: Segments[] = [];
  // Each node's path is made only where an entry is found: a spec holds up to
  // `LIMITS.api.maxExpandedValues` values, and a copied path per node cost more than the walk.
  interface At {
    readonly node: unknown;
    readonly key: string | number;
    readonly parent: At | undefined;
  }
  const pathOf = (a: At): (string | number)[] => {
    const keys: (string | number)[] = [];
    for (let x: At | undefined = a; x?.parent !== undefined; x = x.parent) keys.push(x.key);
    return keys.reverse();
  };
  const stack: At[] = [{ node: doc, key: "", parent: undefined }];
  while (stack.length > 0) {
    const a = stack.pop() as At;
    const node = a.node;
    if (typeof node !== "object" || node === null || skip.has(node)) continue;
    if (isObj(node)) {
      // AsyncAPI 3 requirements are scheme objects or `$ref`s, not names.
      if (!(kind.asyncapi && !kind.asyncV2) && Array.isArray(node.security)) {
        node.security.forEach((req, i) => {
          if (isObj(req) && Object.keys(req).some((name) => isRemoved(schemeAt(name)))) out.push([...pathOf(a), "security", i]);
        });
      }
      if (kind.asyncV2 && Array.isArray(node.servers) && a.parent?.key === "channels" && a.parent.parent?.parent === undefined) {
        node.servers.forEach((s, i) => {
          if (typeof s === "string" && isRemoved(["servers", s])) out.push([...pathOf(a), "servers", i]);
        });
      }
      if (isObj(node.discriminator) && isObj(node.discriminator.mapping)) {
        for (const [value, target] of Object.entries(node.discriminator.mapping)) {
          if (typeof target === "string" && isRemoved(mappedSchema(target) ?? [])) out.push([...pathOf(a), "discriminator", "mapping", value]);
        }
      }
    }
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, v] = entries[i] as [string | number, unknown];
      if (typeof v === "object" && v !== null) stack.push({ node: v, key: k, parent: a });
    }
  }
  return out;
}

/** The schema a discriminator mapping value names: `#/components/schemas/<name>`, or a bare name. */
function mappedSchema(target: string): string[] | undefined {
  const prefix = "#/components/schemas/";
  if (target.startsWith(prefix)) return ["components", "schemas", decodePointerToken(target.slice(prefix.length))];
  return !target.includes("/") && !target.includes("#") ? ["components", "schemas", target] : undefined;
}

function decodePointerToken(token: string): string {
  let t = token;
  try {
    t = decodeURIComponent(t);
  } catch {
    // Not percent-encoded: read as written.
  }
  return t.replace(/~1/g, "/").replace(/~0/g, "~");
}
