import { LIMITS } from "../../limits.js";
import { mergeAllOf } from "./schema-fields.js";
import type { JsonSchema } from "./model.js";
import { SchemaBudget } from "./schema-budget.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export interface ExampleOptions {
  /** `api.examples.prefill`: use the spec's examples and defaults; otherwise type placeholders. */
  readonly prefill: boolean;
  /** `api.examples.defaults: required`: only required properties. */
  readonly requiredOnly: boolean;
}

/**
 * A value for a schema, for code examples and response samples. With `prefill`, the spec's
 * `example`, `examples`, `default`, `const` or first `enum` value is used when there is one;
 * otherwise (and always without `prefill`) a placeholder of the right type: `"<string>"`, `123`.
 * `nodes`: the page's budget (`SchemaBudget`), one node a value, shared with the page's other
 * examples and field lists.
 */
export function exampleValue(schema: JsonSchema | undefined, opts: ExampleOptions, nodes: SchemaBudget = new SchemaBudget(LIMITS.api.maxPageSchemaNodes)): unknown {
  return valueOf(schema, opts, 0, [], { left: LIMITS.api.maxExampleValues }, nodes);
}

/**
 * `budget`: values this example may still make. Schemas that reach each other (ten schemas each
 * with a property of every other) are cut only where one comes back on its own path, so an
 * example of depth 8 could make every path among them: 4.7 KB of such schemas made one page take
 * minutes and gigabytes (issue 25). Past the budget, or the page's (`nodes`), objects and arrays
 * come out empty.
 */
function valueOf(schema: JsonSchema | undefined, opts: ExampleOptions, depth: number, seen: unknown[], budget: { left: number }, nodes: SchemaBudget): unknown {
  budget.left--;
  if (!nodes.take()) budget.left = 0;
  if (schema === undefined) return opts.prefill ? {} : "<value>";
  const s = mergeAllOf(schema, [], undefined, nodes);
  if (opts.prefill) {
    if (s.example !== undefined) return s.example;
    if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
    if (s.default !== undefined) return s.default;
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  }
  const variants = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  // The first variant, once: a schema that is (or leads back to) its own first variant
  // (`O: {oneOf: [$ref O]}`, circular once dereferenced) recursed forever at the same depth.
  const first = variants?.[0];
  if (isObj(first) && !seen.includes(first)) return valueOf({ ...s, oneOf: undefined, anyOf: undefined, ...first } as JsonSchema, opts, depth, [...seen, first], budget, nodes);
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== "null") as string | undefined) : (s.type as string | undefined);
  if (type === "object" || (type === undefined && isObj(s.properties))) {
    if (seen.includes(s) || depth > 8 || budget.left <= 0) return {};
    const out: Obj = {};
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const props = isObj(s.properties) ? s.properties : {};
    for (const [name, p] of Object.entries(props)) {
      if (!isObj(p) || p.readOnly === true) continue;
      if (opts.requiredOnly && !required.has(name)) continue;
      // The key is written as the example's text (a 30,000-character name on every level).
      if (budget.left <= 0 || !nodes.takeText(name)) break;
      // Defined, not assigned: a property named `__proto__` is a key of the example like any other.
      Object.defineProperty(out, name, { value: valueOf(p, opts, depth + 1, [...seen, s], budget, nodes), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (type === "array") {
    if (depth > 8 || budget.left <= 0) return [];
    return [valueOf(isObj(s.items) ? (s.items as JsonSchema) : undefined, opts, depth + 1, [...seen, s], budget, nodes)];
  }
  if (type === "integer") return 123;
  if (type === "number") return 123.45;
  if (type === "boolean") return true;
  if (type === "null") return null;
  if (type === "string" || type === undefined) {
    switch (s.format) {
      case "date-time":
        return opts.prefill ? "2024-01-01T00:00:00Z" : "<date-time>";
      case "date":
        return opts.prefill ? "2024-01-01" : "<date>";
      case "email":
        return opts.prefill ? "user@example.com" : "<email>";
      case "uuid":
        return opts.prefill ? "3fa85f64-5717-4562-b3fc-2c963f66afa6" : "<uuid>";
      case "uri":
      case "url":
        return opts.prefill ? "https://example.com" : "<uri>";
      case "binary":
        return "<file>";
      default:
        return "<string>";
    }
  }
  return "<value>";
}
