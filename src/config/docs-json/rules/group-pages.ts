import { childPath } from "../json-path.js";
import type { Rule } from "./rule.js";

/**
 * A group without `pages` (and no `openapi`/`asyncapi` to generate them) is a warning: the
 * specification requires `pages`, but real sites leave a placeholder group ("Coming soon") and the
 * platform renders it with nothing in it, as `nav` does. `isDefaultOpen`, a key real sites still
 * write on groups, is not a docs.json key: the platform ignores it, as we do (`expanded` is the
 * key that opens a nested group).
 */
export const groupPagesRule: Rule = {
  codes: ["group-pages", "is-default-open"],
  check({ model, report }) {
    for (const el of model.elements) {
      if (el.kind !== "group") continue;
      if ((el.value as { isDefaultOpen?: unknown }).isDefaultOpen !== undefined) {
        report({
          path: childPath(el.path, "isDefaultOpen"),
          at: "key",
          code: "is-default-open",
          severity: "warning",
          message: `is not a docs.json key and has no effect ("expanded": true opens a nested group)`,
        });
      }
      if (el.value.pages !== undefined || el.unknownContainer !== undefined) continue;
      // Without a title (missing, or not a string) the group is left out with an error
      // (`"group" is required`): it is not shown at all, so not shown empty either.
      if (el.title === undefined) continue;
      if (el.value.openapi !== undefined || el.value.asyncapi !== undefined) continue;
      report({ path: el.path, code: "group-pages", severity: "warning", message: `has no "pages" (or "openapi" to generate them): the group is shown empty` });
    }
  },
};
