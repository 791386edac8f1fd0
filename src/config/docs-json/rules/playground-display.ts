import type { Rule } from "./rule.js";

/**
 * `api.playground.display: simple` is not in the specification; real sites use it (ollama) and
 * the platform documents it: the endpoint shown with no request builder. It is read as "none"
 * (`api-settings.ts`), and the warning says the value is the platform's, not a mistake (it read
 * "is not one of", which sent authors to change a value the platform documents).
 */
export const playgroundDisplayRule: Rule = {
  codes: ["playground-display"],
  check({ doc, report }) {
    const display = (doc as { api?: { playground?: { display?: unknown } } } | undefined)?.api?.playground?.display;
    if (display !== "simple") return;
    report({
      path: "api.playground.display",
      code: "playground-display",
      severity: "warning",
      message: `"simple" is the hosted platform's value, not one of the specification's ("interactive", "auth", "none"): read as the platform shows it, a copyable endpoint with no playground (as "none")`,
    });
  },
};
