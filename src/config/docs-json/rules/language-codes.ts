import { childPath } from "../json-path.js";
import { KNOWN_LANGUAGE_CODES, LANGUAGE_TAG_RE } from "../schema.js";
import { languageHint } from "../zod-issues.js";
import type { Rule } from "./rule.js";

/**
 * A language code outside the known lists but shaped like one (`el`, `es-419`) is a warning, not
 * an error: the platform adds languages over time, and the site is served (and searched by that
 * code) as written. Codes of any other shape are the schema's error.
 */
export const languageCodesRule: Rule = {
  codes: ["language-code"],
  check({ model, report }) {
    for (const el of model.elements) {
      if (el.kind !== "language" || el.title === undefined) continue;
      if (KNOWN_LANGUAGE_CODES.includes(el.title) || !LANGUAGE_TAG_RE.test(el.title)) continue;
      const hint = languageHint(el.title);
      report({
        path: childPath(el.path, "language"),
        code: "language-code",
        severity: "warning",
        message: `"${el.title}" is not a language code the platform lists${hint !== undefined ? ` (did you mean "${hint}"?)` : ""}; its pages are served and searched under "${el.title}"`,
      });
    }
  },
};
