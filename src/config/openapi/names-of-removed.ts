import type { Segments } from "./prune-spec.js";

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
  const stack: { node: unknown; at: Segments }[] = [{ node: doc, at: [] }];
  while (stack.length > 0) {
    const { node, at } = stack.pop() as { node: unknown; at: Segments };
    if (typeof node !== "object" || node === null || skip.has(node)) continue;
    if (isObj(node)) {
      // AsyncAPI 3 requirements are scheme objects or `$ref`s, not names.
      if (!(kind.asyncapi && !kind.asyncV2) && Array.isArray(node.security)) {
        node.security.forEach((req, i) => {
          if (isObj(req) && Object.keys(req).some((name) => isRemoved(schemeAt(name)))) out.push([...at, "security", i]);
        });
      }
      if (kind.asyncV2 && Array.isArray(node.servers) && at.length === 2 && at[0] === "channels") {
        node.servers.forEach((s, i) => {
          if (typeof s === "string" && isRemoved(["servers", s])) out.push([...at, "servers", i]);
        });
      }
      if (isObj(node.discriminator) && isObj(node.discriminator.mapping)) {
        for (const [value, target] of Object.entries(node.discriminator.mapping)) {
          if (typeof target !== "string") continue;
          const named = target.startsWith("#/components/schemas/") ? ["components", "schemas", decodePointerToken(target.slice("#/components/schemas/".length))] : !target.includes("/") && !target.includes("#") ? ["components", "schemas", target] : undefined;
          if (named !== undefined && isRemoved(named)) out.push([...at, "discriminator", "mapping", value]);
        }
      }
    }
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, v] = entries[i] as [string | number, unknown];
      if (typeof v === "object" && v !== null) stack.push({ node: v, at: [...at, k] });
    }
  }
  return out;
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
