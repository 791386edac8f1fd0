import { childPath } from "../json-path.js";
import type { Rule } from "./rule.js";

/**
 * `expanded` only means something on nested groups; elsewhere it is ignored (a warning). On a
 * top-level group, `expanded: true` says what happens anyway (real sites write it): only
 * `false`, which does not collapse it, is worth a warning.
 */
export const expandedRule: Rule = {
  codes: ["expanded"],
  check({ model, report }) {
    for (const el of model.elements) {
      if (el.value.expanded === undefined) continue;
      const path = childPath(el.path, "expanded");
      if (el.kind !== "group") {
        report({ path, at: "key", code: "expanded", severity: "warning", message: `has no effect: only nested groups expand or collapse` });
      } else if (el.groupDepth === 1 && el.value.expanded !== true) {
        report({ path, at: "key", code: "expanded", severity: "warning", message: `has no effect: top-level groups always expand` });
      }
    }
  },
};
