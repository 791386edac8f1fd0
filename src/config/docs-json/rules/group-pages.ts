import type { Rule } from "./rule.js";

/** A group needs `pages`, unless it sets `openapi`/`asyncapi` (then every operation is generated). */
export const groupPagesRule: Rule = {
  codes: ["required"],
  check({ model, report }) {
    for (const el of model.elements) {
      if (el.kind !== "group" || el.value.pages !== undefined || el.unknownContainer !== undefined) continue;
      if (el.value.openapi !== undefined || el.value.asyncapi !== undefined) continue;
      report({ path: el.path, code: "required", message: `"pages" is required (or "openapi", to generate the pages from a spec)` });
    }
  },
};
