import type { ErrorObject, ValidateFunction } from "ajv";
import type { OpenapiVersion } from "./validators/schemas.js";

/** One schema violation, located by its JSON pointer in the document. */
export interface SchemaProblem {
  /** JSON pointer (`/paths/~1users/get/responses`). */
  readonly pointer: string;
  readonly message: string;
}

/**
 * Validates OpenAPI documents against the official 3.0 and 3.1 schemas. The validators are ajv
 * code generated ahead of time (`validators/openapi-<version>.mjs`, `npm run generate:validators`):
 * compiling a schema at run time cost ~200 ms per version and process; importing the generated
 * code costs ~30 ms, on first use of that version. `@readme/openapi-parser`'s `validate()`
 * compiled on every call (600-900 ms for Discord's spec) and reports no instance paths, which we
 * need to skip only the operations a problem sits in.
 */
export interface OpenapiValidator {
  validate(document: unknown, version: OpenapiVersion): Promise<SchemaProblem[]>;
}

/** `load` replaces the generated validators (the bench measures compiling at run time with it). */
export function createOpenapiValidator(load: (version: OpenapiVersion) => ValidateFunction | Promise<ValidateFunction> = loadValidator): OpenapiValidator {
  const loaded = new Map<OpenapiVersion, ValidateFunction | Promise<ValidateFunction>>();
  return {
    async validate(document, version) {
      let entry = loaded.get(version);
      if (entry === undefined) {
        entry = load(version);
        loaded.set(version, entry);
      }
      const fn = await entry;
      if (fn(document)) return [];
      return reduceErrors(fn.errors ?? []);
    },
  };
}

/** The generated validator of a version, imported when first needed. */
async function loadValidator(version: OpenapiVersion): Promise<ValidateFunction> {
  // Literal paths, so that the esbuild bundle includes both modules.
  const module = version === "3.0" ? await import("./validators/openapi-3.0.mjs") : await import("./validators/openapi-3.1.mjs");
  return module.default;
}

/** ajv messages that only echo a failed `oneOf` between a value and a `$ref`: pure noise. */
const NOISE = new Set(["must have required property '$ref'", "must match exactly one schema in oneOf", "must match \"then\" schema", "must match \"else\" schema"]);

/** Keywords whose errors are about an object's own keys, not about one of its values. */
const OWN_KEYS = new Set(["required", "anyOfRequired", "additionalProperties", "unevaluatedProperties", "dependentRequired"]);

/**
 * An error about the document's own keys (`"info" is required`): said beside the errors inside
 * it, which would hide it otherwise, and the document is refused for either. Deeper, a parent's
 * `required` is mostly a `oneOf` branch not taken (a parameter's `schema` or `content`), which
 * ajv's schema paths cannot tell from a plain requirement once `$ref`s are followed.
 */
function ownKeys(e: ErrorObject): boolean {
  return e.instancePath === "" && OWN_KEYS.has(e.keyword);
}

/** Keep the deepest error per location, drop `oneOf` noise, phrase each one for a person. */
function reduceErrors(errors: readonly ErrorObject[]): SchemaProblem[] {
  const kept = anyOfRequired(errors.filter((e) => !NOISE.has(e.message ?? "")));
  const source = kept.length > 0 ? kept : [...errors];
  const out = new Map<string, SchemaProblem>();
  for (const e of source) {
    // An error on a parent is noise when a child of it has a precise one, unless it is about the
    // parent's own keys (a missing "paths" beside a bad "servers"): both are said.
    if (!ownKeys(e) && source.some((o) => o !== e && o.instancePath.startsWith(`${e.instancePath}/`))) continue;
    const message = phrase(e);
    const key = `${e.instancePath}\u0000${message}`;
    if (!out.has(key)) out.set(key, { pointer: e.instancePath, message });
  }
  return [...out.values()];
}

/**
 * An `anyOf` of branches that each require one property (3.1's document: `paths`, `components`
 * or `webhooks`) said once, `must have one of "paths", "components", "webhooks"`, not as three
 * requirements that each look mandatory and the `anyOf` besides.
 */
function anyOfRequired(errors: readonly ErrorObject[]): ErrorObject[] {
  const branch = (e: ErrorObject): string | undefined => (e.keyword === "required" ? /^(.*\/anyOf)\/\d+\/required$/.exec(e.schemaPath)?.[1] : undefined);
  const out: ErrorObject[] = [];
  for (const e of errors) {
    if (branch(e) !== undefined && errors.some((o) => o.keyword === "anyOf" && o.schemaPath === branch(e) && o.instancePath === e.instancePath)) continue;
    if (e.keyword === "anyOf") {
      const missing = errors.filter((o) => branch(o) === e.schemaPath && o.instancePath === e.instancePath).map((o) => JSON.stringify((o.params as { missingProperty?: unknown }).missingProperty));
      if (missing.length > 0) {
        out.push({ ...e, keyword: "anyOfRequired", message: `must have one of ${missing.join(", ")}` });
        continue;
      }
    }
    out.push(e);
  }
  return out;
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
