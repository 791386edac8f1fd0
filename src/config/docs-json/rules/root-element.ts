import { ROOT_ELEMENT_ORDER } from "../elements.js";
import type { Rule } from "./rule.js";

const quoted = (keys: readonly string[]): string => keys.map((k) => `"${k}"`).join(", ");

/**
 * Exactly one root navigation element. None is an error; several is a warning naming the one
 * used (precedence `ROOT_ELEMENT_ORDER`) and the ones ignored: real sites carry stale ones.
 */
export const rootElementRule: Rule = {
  codes: ["root-element"],
  check({ model, report }) {
    if (model.navigation === undefined) return; // the schema reports a missing or malformed navigation
    const [used, ...ignored] = model.rootKeys;
    if (used === undefined) {
      report({
        path: "navigation",
        code: "root-element",
        message: `needs one root navigation element: one of ${quoted(ROOT_ELEMENT_ORDER)}`,
      });
      return;
    }
    if (ignored.length > 0) {
      report({
        path: "navigation",
        code: "root-element",
        severity: "warning",
        message: `has several root navigation elements: "${used}" is used, ${quoted(ignored)} ${ignored.length === 1 ? "is" : "are"} ignored`,
      });
    }
  },
};
