import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createOpenapiValidator } from "../../src/config/openapi/validate-openapi.js";
import { compileValidator, declarationFile, validatorFile, validatorSource } from "../../src/config/openapi/validators/generate.js";
import { OPENAPI_VERSIONS } from "../../src/config/openapi/validators/schemas.js";

describe("generated OpenAPI validators", () => {
  it.each(OPENAPI_VERSIONS)("the committed %s validator is what the generator writes today (else: npm run generate:validators)", (version) => {
    expect(readFileSync(declarationFile(version), "utf8")).toContain("declare const validate: ValidateFunction;");
    const committed = readFileSync(validatorFile(version), "utf8");
    // Not toBe: a 250 KB diff helps nobody; the message says what to do.
    expect(committed === validatorSource(version), `${validatorFile(version)} is stale: run npm run generate:validators`).toBe(true);
  });

  const broken: Record<string, unknown> = { info: { title: 3 }, paths: { "/x": { get: { responses: 3, parameters: [{ name: "q", in: "body" }] } } } };
  const title = { pointer: "/info/title", message: "must be string" };
  const responses = { pointer: "/paths/~1x/get/responses", message: "must be object" };
  const inAt = "/paths/~1x/get/parameters/0/in";
  it.each([
    // The 3.0 schema lists one `enum` per parameter kind (a oneOf); 3.1 has one enum.
    ["3.0" as const, "3.0.3", [title, ...["path", "query", "header", "cookie"].map((k) => ({ pointer: inAt, message: `must be one of "${k}"` })), responses]],
    ["3.1" as const, "3.1.0", [title, { pointer: inAt, message: 'must be one of "query", "header", "path", "cookie"' }, responses]],
  ])("%s: the generated validator finds what the run-time compiled one finds", async (version, openapi, expected) => {
    const doc = { openapi, ...broken };
    expect(await createOpenapiValidator().validate(doc, version)).toEqual(expected);
    expect(await createOpenapiValidator(compileValidator).validate(doc, version)).toEqual(expected);
  });
});
