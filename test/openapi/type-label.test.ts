import { describe, expect, it } from "vitest";
import { typeLabel } from "../../src/config/openapi/schema-fields.js";

describe("typeLabel", () => {
  it("puts null last, after the other type's format and items (OpenAPI 3.1 type lists and 3.0 nullable alike)", () => {
    const labels = [
      { type: ["integer", "null"], format: "int32" },
      { type: "integer", format: "int32", nullable: true },
      { type: ["array", "null"], items: { type: "string" } },
      { type: ["string", "integer"] },
      { type: ["null"] },
      { type: "string", format: "date-time" },
    ].map((s) => typeLabel(s));
    expect(labels).toEqual(["integer<int32> | null", "integer<int32> | null", "array of string | null", "string | integer", "null", "string<date-time>"]);
  });
});
