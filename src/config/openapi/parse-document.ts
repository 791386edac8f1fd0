import { CORE_SCHEMA, load as loadYaml } from "js-yaml";
import { LIMITS } from "../../limits.js";
import { expandedSize } from "../expanded-size.js";
import { firstTooDeep } from "./nesting-depth.js";
import { isStackOverflow } from "../stack-overflow.js";

/** What kind of API description a parsed document is. */
export type DocumentKind =
  | { readonly kind: "openapi"; readonly version: "3.0" | "3.1"; readonly raw: string }
  | { readonly kind: "swagger"; readonly raw: string }
  | { readonly kind: "asyncapi"; readonly version: "2" | "3"; readonly raw: string }
  /** `versioned`: it names a version (`openapi: 2.5`), so it is an API description, one not read. */
  | { readonly kind: "unsupported"; readonly message: string; readonly versioned?: true };

export type ParsedDocument =
  | { readonly ok: true; readonly document: Record<string, unknown>; readonly type: DocumentKind; readonly warning?: string }
  /** `versioned`: the text was read, as an object naming an API version, and refused for its size
   *  or depth: an API description all the same (the site mounts its file, adversary round 59 F1). */
  | { readonly ok: false; readonly message: string; readonly line?: number; readonly overLimit?: true; readonly versioned?: true };

/** Parse JSON or YAML text (JSON first when it looks like JSON: ten times faster on big specs).
 *  A document nested deeper than `LIMITS.api.maxSpecDepth` is refused here, so that nothing
 *  after the parse (validators, `$ref` resolvers, writers) recurses deeper than that. */
export function parseDocument(text: string): ParsedDocument {
  let value: unknown;
  let warning: string | undefined;
  let viaYaml = !text.trimStart().startsWith("{");
  try {
    if (!viaYaml) {
      try {
        value = JSON.parse(text);
      } catch (error) {
        // Not strict JSON (a trailing comma, as aryn's deployed spec has: `"vision",\n ],`): read
        // as YAML, whose flow style is JSON's with such slips allowed, as YAML-based spec readers
        // (the hosted platform's among them) read a .json spec; say so. Unreadable as YAML too:
        // JSON's own words, as for any broken JSON.
        try {
          value = loadYaml(text, { schema: CORE_SCHEMA, json: true });
        } catch (yamlError) {
          if (isStackOverflow(yamlError)) throw yamlError;
          throw error;
        }
        viaYaml = true;
        warning = `not strict JSON (${firstLine((error as Error).message)}); read as YAML, which accepts it`;
      }
    } else {
      // js-yaml, not `yaml`: 5-7x faster on real multi-megabyte specs (spree's admin.yaml: 0.3 s
      // vs 2 s), same values. The YAML 1.2 core schema keeps dates as strings (as JSON has them);
      // `json: true` lets a duplicated key override (real specs have them) instead of failing.
      value = loadYaml(text, { schema: CORE_SCHEMA, json: true });
    }
  } catch (error) {
    // js-yaml composes recursively: `[[[[...` a few thousand deep overflows the stack.
    if (isStackOverflow(error)) return { ok: false, message: tooDeepMessage(undefined) };
    const err = error as { message?: string; reason?: string; mark?: { line: number } };
    const line = err.mark === undefined ? undefined : err.mark.line + 1;
    const message = `cannot parse: ${firstLine(err.message ?? String(error))}`;
    return line === undefined ? { ok: false, message } : { ok: false, message, line };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: "not an API description: the document must be an object" };
  }
  // JSON text makes a tree; YAML aliases make one object shared by every place that names it,
  // which every walk below (the depth check first) would read once per place: counted before.
  const document = value as Record<string, unknown>;
  const versioned = namesVersion(document) ? ({ versioned: true } as const) : {};
  if (viaYaml) {
    const size = expandedSize(value, LIMITS.api.maxExpandedValues);
    if (size.over) return { ok: false, message: tooLargeMessage(size.at), overLimit: true, ...versioned };
  }
  const tooDeep = firstTooDeep(value, LIMITS.api.maxSpecDepth);
  if (tooDeep !== undefined) return { ok: false, message: tooDeepMessage(tooDeep), ...versioned };
  return { ok: true, document, type: documentKind(document), ...(warning !== undefined ? { warning } : {}) };
}

/** Why a spec nested too deep is refused, and where (the keys to the first level too many). */
function tooDeepMessage(at: readonly string[] | undefined): string {
  const where = at === undefined ? "" : ` (at ${at.join(".")})`;
  return `arrays and objects nested deeper than ${LIMITS.api.maxSpecDepth} levels${where}: not read`;
}

/** Why a spec that expands past `LIMITS.api.maxExpandedValues` is refused, and where it went over
 *  (the keys to the value being counted then). */
export function tooLargeMessage(at: readonly string[]): string {
  const where = at.length === 0 ? "" : ` (at ${at.join(".")})`;
  return `more than ${LIMITS.api.maxExpandedValues} values once YAML aliases and $refs are copied out where they are used${where}: not read`;
}

/** Tell OpenAPI 3.0/3.1, Swagger 2.0 and AsyncAPI 2/3 apart by their version fields. */
export function documentKind(doc: Record<string, unknown>): DocumentKind {
  const openapi = versionString(doc.openapi);
  if (openapi !== undefined) {
    if (/^3\.0(\.\d+)?$/.test(openapi)) return { kind: "openapi", version: "3.0", raw: openapi };
    if (/^3\.1(\.\d+)?$/.test(openapi)) return { kind: "openapi", version: "3.1", raw: openapi };
    return { kind: "unsupported", message: `OpenAPI version ${openapi} is not supported (supported: 3.0 and 3.1)`, versioned: true };
  }
  const swagger = versionString(doc.swagger);
  if (swagger !== undefined) return { kind: "swagger", raw: swagger };
  const asyncapi = versionString(doc.asyncapi);
  if (asyncapi !== undefined) {
    if (/^2\.\d+(\.\d+)?$/.test(asyncapi)) return { kind: "asyncapi", version: "2", raw: asyncapi };
    if (/^3\.\d+(\.\d+)?$/.test(asyncapi)) return { kind: "asyncapi", version: "3", raw: asyncapi };
    return { kind: "unsupported", message: `AsyncAPI version ${asyncapi} is not supported (supported: 2.x and 3.x)`, versioned: true };
  }
  return { kind: "unsupported", message: `not an API description: no "openapi", "swagger" or "asyncapi" version field` };
}

/** Whether a document names an OpenAPI, Swagger or AsyncAPI version, whichever. */
function namesVersion(doc: Record<string, unknown>): boolean {
  return versionString(doc.openapi) !== undefined || versionString(doc.swagger) !== undefined || versionString(doc.asyncapi) !== undefined;
}

function versionString(v: unknown): string | undefined {
  if (typeof v === "string") return v.trim();
  // `openapi: 3.0` unquoted in YAML is a number.
  if (typeof v === "number") return String(v);
  return undefined;
}

function firstLine(s: string): string {
  const i = s.indexOf("\n");
  return i === -1 ? s : s.slice(0, i);
}
