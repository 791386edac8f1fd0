import { LANGUAGES, codesOf, languageHint, languageOf, preferredCode } from "../../languages.js";
import { childPath } from "../json-path.js";
import { describe } from "../zod-issues.js";
import type { Rule } from "./rule.js";

/** The specification's codes, then the ones only the platform documents, for the message. */
const SPEC_CODES = LANGUAGES.flatMap((l) => (l.spec !== undefined ? [l.spec] : []));
const PLATFORM_CODES = LANGUAGES.flatMap((l) => l.platform);

/**
 * Every `language` is a code of the language table (`src/config/languages.ts`). A code the
 * specification or the platform documents is fine as written (`cn`, `zh`, `ja`, `zh-Hans`); another
 * form of a known language (`ko-KR`, `pt-br`, `EN`, `zh_TW`) is read as that language with a
 * warning naming the code to write; a code the table does not know is an error (the platform
 * refuses it), and the language is still served under the code as written.
 */
export const languageCodesRule: Rule = {
  codes: ["language-code"],
  check({ model, report }) {
    for (const el of model.elements) {
      if (el.kind !== "language" || el.title === undefined) continue;
      const path = childPath(el.path, "language");
      const match = languageOf(el.title);
      if (match === undefined) {
        const hint = languageHint(el.title);
        report({
          path,
          code: "language-code",
          message:
            `must be a supported language code (${SPEC_CODES.join(", ")}; the platform also takes ${PLATFORM_CODES.join(", ")}); ` +
            `got ${describe(el.title)}${hint !== undefined ? ` (did you mean "${hint}"?)` : ""}`,
        });
        continue;
      }
      if (match.form !== "alias") continue;
      const { language } = match;
      const whose = language.spec !== undefined ? "the specification's code" : "the platform's code";
      const also = codesOf(language).length > 1 ? ` (or ${codesOf(language).slice(1).map((c) => `"${c}"`).join(", ")})` : "";
      report({
        path,
        code: "language-code",
        severity: "warning",
        message: `"${el.title}" is read as ${language.name}; ${whose} is "${preferredCode(language)}"${also}`,
      });
    }
  },
};
