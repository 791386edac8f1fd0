import type { Rule } from "./rule.js";

/**
 * `api.playground.display: simple` is not in the specification; real sites use it (ollama) and
 * the platform documents it: the endpoint shown with no request builder. It is read as "none"
 * (`api-settings.ts`), so the warning says that, not "interactive" (which it said before while
 * the pages showed no playground).
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
      message: `"simple" is not one of "interactive", "auth", "none"; it is read as "none": the endpoint is shown without a playground`,
    });
  },
};
