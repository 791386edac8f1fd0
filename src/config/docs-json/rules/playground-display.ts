import type { Rule } from "./rule.js";

/** `api.playground.display: simple` is not in the specification; real sites use it. */
export const playgroundDisplayRule: Rule = {
  codes: ["playground-display"],
  check({ doc, report }) {
    const display = (doc as { api?: { playground?: { display?: unknown } } } | undefined)?.api?.playground?.display;
    if (display !== "simple") return;
    report({
      path: "api.playground.display",
      code: "playground-display",
      severity: "warning",
      message: `"simple" is not one of "interactive", "auth", "none"; the playground is shown as "interactive"`,
    });
  },
};
