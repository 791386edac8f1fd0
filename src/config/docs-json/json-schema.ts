import { z } from "zod";
import { docsJson } from "./schema.js";

/**
 * The JSON Schema of docs.json (draft 2020-12), generated from the same zod model that validates
 * it, for editors (`svc-mcp schema > docs.schema.json`). Unknown keys are allowed everywhere, as
 * in validation; rules that relate several values (one root element, reserved paths, duplicates)
 * are only checked by `svc-mcp check`.
 */
export function docsJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(docsJson, { target: "draft-2020-12" }) as Record<string, unknown>;
  return renameAnonymousDefs(schema);
}

/**
 * zod names definitions it had to extract for recursion `__schema0`, `__schema1`...; here they are
 * all lists of one element type, so name them after it (`#/$defs/tabList`) for readable editor
 * hovers.
 */
function renameAnonymousDefs(schema: Record<string, unknown>): Record<string, unknown> {
  const defs = schema.$defs as Record<string, Record<string, unknown>> | undefined;
  if (defs === undefined) return schema;
  const renames = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    if (!name.startsWith("__schema")) continue;
    const ref = (def.items as { $ref?: string } | undefined)?.$ref;
    const target = def.type === "array" && typeof ref === "string" ? `${ref.slice(ref.lastIndexOf("/") + 1)}List` : undefined;
    if (target !== undefined && defs[target] === undefined && ![...renames.values()].includes(target)) renames.set(name, target);
  }
  if (renames.size === 0) return schema;
  let text = JSON.stringify(schema);
  for (const [from, to] of renames) text = text.replaceAll(`"#/$defs/${from}"`, `"#/$defs/${to}"`).replaceAll(`"${from}":`, `"${to}":`);
  return JSON.parse(text) as Record<string, unknown>;
}
