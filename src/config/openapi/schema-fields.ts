import { LIMITS } from "../../limits.js";
import type { JsonSchema } from "./model.js";
import { SchemaBudget } from "./schema-budget.js";

/** One row of a parameter/body/response table: a (possibly nested) field of a schema. */
export interface SchemaField {
  /** Dotted path from the top (`user.address.city`); also the field's anchor on the page. */
  readonly name: string;
  readonly depth: number;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  readonly deprecated: boolean;
  /** Extra facts: `enum: a, b`, `default: 10`, `format: uuid`, `one of: A | B`. */
  readonly notes: readonly string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Merge `allOf` parts into one schema (properties and required lists unite). `within`: the
 *  schemas being merged around this one: a part that is one of them (`A: {allOf: [$ref A]}`,
 *  a circular object once dereferenced) adds nothing and is skipped, where it recursed forever.
 *  `nodes`: the page's budget (`SchemaBudget`), one node a part. */
export function mergeAllOf(schema: JsonSchema, within: unknown[] = [], budget: { left: number } = { left: LIMITS.api.maxAllOfParts }, nodes: SchemaBudget = ownBudget()): JsonSchema {
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: Obj = { ...schema };
  delete merged.allOf;
  const props: Obj = isObj(schema.properties) ? { ...schema.properties } : {};
  const required = new Set<string>(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  within.push(schema);
  for (const part of schema.allOf) {
    if (!isObj(part) || within.includes(part)) continue;
    // Schemas that are each other's parts are cut only where one comes back on its own path:
    // nine, each `allOf` all nine, made every path among them (9! merges) for one label (issue 25).
    if (budget.left <= 0 || !nodes.take()) break;
    budget.left--;
    const p = mergeAllOf(part, within, budget, nodes);
    for (const [k, v] of Object.entries(p)) {
      // Each property defined, not assigned: one named `__proto__` is a property like any other.
      if (k === "properties" && isObj(v)) for (const name of Object.keys(v)) Object.defineProperty(props, name, { value: v[name], enumerable: true, writable: true, configurable: true });
      else if (k === "required" && Array.isArray(v)) v.forEach((r) => typeof r === "string" && required.add(r));
      else if (merged[k] === undefined) merged[k] = v;
    }
  }
  within.pop();
  if (Object.keys(props).length > 0) merged.properties = props;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/** A short type label: `string`, `integer<int64>`, `array of object`, `string | null`.
 *  `within`: the arrays whose items are being labelled (`I: {items: $ref I}` is circular once
 *  dereferenced, and recursed forever: `array of … (recursive)` now). Past the page's budget
 *  (`nodes`) a label reads `…`. */
export function typeLabel(schema: JsonSchema | undefined, within: readonly unknown[] = [], nodes: SchemaBudget = ownBudget()): string {
  if (schema === undefined) return "any";
  if (!nodes.take()) return "…";
  const s = mergeAllOf(schema, [], undefined, nodes);
  let t: string;
  // OpenAPI 3.1 writes nullable as a type list (`[integer, "null"]`): the format and items
  // belong to the other type, so `null` goes last (`integer<int32> | null`).
  const types = Array.isArray(s.type) ? s.type.filter((x) => x !== "null") : undefined;
  const nullable = s.nullable === true || (Array.isArray(s.type) && s.type.includes("null") && (types?.length ?? 0) > 0);
  if (types !== undefined) t = types.length > 0 ? types.join(" | ") : "null";
  else if (typeof s.type === "string") t = s.type;
  else if (isObj(s.properties)) t = "object";
  else if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) t = "one of";
  else if (s.const !== undefined) t = typeof s.const;
  else t = "any";
  if (t === "array") {
    const items = s.items;
    if (!isObj(items)) t = "array";
    else t = items === schema || within.includes(items) ? "array of … (recursive)" : `array of ${typeLabel(items as JsonSchema, [...within, schema], nodes)}`;
  }
  if (typeof s.format === "string" && !t.startsWith("array")) t = `${t}<${s.format}>`;
  if (nullable) t = `${t} | null`;
  return t;
}

/**
 * Flatten a schema into rows, depth-first. Nested object fields carry their parent path
 * (`user.email`), array items continue the path of the array (`tags.name`). Bounded by
 * `LIMITS.api.maxSchemaDepth` and `maxSchemaFields`; circular schemas stop where they loop. Past
 * the page's budget (`nodes`, one node a field) the list ends there, `truncated`.
 */
export function schemaFields(schema: JsonSchema | undefined, prefix = "", nodes: SchemaBudget = ownBudget()): { fields: SchemaField[]; truncated: boolean } {
  const fields: SchemaField[] = [];
  let truncated = false;
  const seen: unknown[] = [];
  const walk = (s: JsonSchema, path: string, depth: number): void => {
    const m = mergeAllOf(s, [], undefined, nodes);
    let obj = m;
    if (typeLabel(m, [], nodes).startsWith("array") && isObj(m.items)) obj = mergeAllOf(m.items as JsonSchema, [], undefined, nodes);
    const props = isObj(obj.properties) ? obj.properties : undefined;
    if (props === undefined) return;
    if (seen.includes(obj)) return;
    if (depth >= LIMITS.api.maxSchemaDepth) {
      truncated = true;
      return;
    }
    seen.push(obj);
    const required = new Set(Array.isArray(obj.required) ? (obj.required as string[]) : []);
    for (const [name, raw] of Object.entries(props)) {
      if (!isObj(raw)) continue;
      const full = path === "" ? name : `${path}.${name}`;
      // The row writes its dotted name, and a body field its anchor too: a 30,000-character
      // property name (a YAML alias) repeated on every nesting level is text like a description.
      if (fields.length >= LIMITS.api.maxSchemaFields || !nodes.take() || !nodes.takeText(full) || !nodes.takeText(full)) {
        truncated = true;
        break;
      }
      const child = mergeAllOf(raw, [], undefined, nodes);
      fields.push(row(child, full, depth, required.has(name), nodes));
      walk(child, full, depth + 1);
    }
    seen.pop();
  };
  if (schema !== undefined) walk(schema, prefix, 0);
  return { fields, truncated };
}

/**
 * The row one schema makes on its own, without its nested fields (a parameter's type and notes):
 * what `schemaFields` gives for a single property holding it. Undefined when it is not an object.
 */
export function fieldOf(schema: unknown, nodes: SchemaBudget = ownBudget()): SchemaField | undefined {
  return isObj(schema) ? row(mergeAllOf(schema, [], undefined, nodes), "", 0, false, nodes) : undefined;
}

/** The budget of a walk asked for outside a page (a test, one label): a page's whole budget. */
function ownBudget(): SchemaBudget {
  return new SchemaBudget(LIMITS.api.maxPageSchemaNodes);
}

function row(s: JsonSchema, name: string, depth: number, required: boolean, nodes: SchemaBudget): SchemaField {
  const notes: string[] = [];
  // Text is charged to the page's budget as it is written (`takeText`): left out past it.
  const written = (text: string): string | undefined => (nodes.takeText(text) ? text : undefined);
  if (Array.isArray(s.enum)) {
    const values: string[] = [];
    for (const v of s.enum.slice(0, LIMITS.api.maxEnumValuesShown)) {
      const text = written(JSON.stringify(nodes.data(v)) ?? "null");
      if (text === undefined) break;
      values.push(text);
    }
    const note = written(`one of: ${values.join(", ")}${values.length < s.enum.length ? ", …" : ""}`);
    if (values.length > 0 && note !== undefined) notes.push(note);
  }
  const defaultText = s.default !== undefined ? written(JSON.stringify(nodes.data(s.default)) ?? "null") : undefined;
  if (defaultText !== undefined) notes.push(`default: ${defaultText}`);
  if (typeof s.minimum === "number") notes.push(`minimum: ${s.minimum}`);
  if (typeof s.maximum === "number") notes.push(`maximum: ${s.maximum}`);
  if (typeof s.maxLength === "number") notes.push(`max length: ${s.maxLength}`);
  if (typeof s.pattern === "string" && nodes.takeText(s.pattern)) notes.push(`pattern: \`${s.pattern}\``);
  const variants = (Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : []).filter(isObj);
  if (variants.length > 0) {
    // A variant's title is text as a description is (one long title shared by every variant).
    const shown = variants.slice(0, LIMITS.api.maxSchemaVariants).map((v) => (typeof v.title === "string" && nodes.takeText(v.title) ? v.title : typeLabel(v, [], nodes)));
    const more = variants.length > shown.length ? ` (+${variants.length - shown.length} more)` : "";
    notes.push(`one of: ${shown.join(" | ")}${more}`);
  }
  if (s.readOnly === true) notes.push("read-only");
  const description = typeof s.description === "string" && s.description.trim() !== "" ? written(s.description.trim()) : undefined;
  return {
    name,
    depth,
    type: typeLabel(s, [], nodes),
    required,
    ...(description !== undefined ? { description } : {}),
    deprecated: s.deprecated === true,
    notes,
  };
}
