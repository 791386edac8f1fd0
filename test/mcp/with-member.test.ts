import { describe, expect, it } from "vitest";
import { withMember } from "../../src/objects.js";

/** Issue 23: `withMember` stands for `{ ...object, [key]: value }` on the hot path; the JSON of both is the same. */
describe("withMember", () => {
  it("copies the members in their order, the new one last or in its place", () => {
    const result = { _meta: { a: 1 }, content: [{ type: "text", text: "x" }], structuredContent: { results: [] } };
    const cases: [object, string, unknown][] = [
      [result, "resultType", "complete"],
      [{ ...result, resultType: undefined }, "resultType", "complete"],
      [{ b: 1, a: 2, 1: "one" }, "a", 3],
      [{}, "k", { deep: [1] }],
      [Object.freeze({ x: 1 }), "y", 2],
      [JSON.parse('{"a":1,"__proto__":{"x":1}}') as object, "b", 2],
      [JSON.parse('{"a":1,"__proto__":{"x":1}}') as object, "__proto__", 3],
    ];
    for (const [object, key, value] of cases) {
      const made = withMember(object, key, value);
      const literal = { ...object, [key]: value };
      expect(JSON.stringify(made)).toBe(JSON.stringify(literal));
      expect(Object.keys(made)).toEqual(Object.keys(literal));
      expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
      expect(made).not.toBe(object);
    }
  });
});
