import { sameLanguage } from "../languages.js";

/**
 * The code each language is placed under: the first code the site writes for it. A site that
 * lists one language twice under two codes (`cn` and `zh`, which the platform documents side by
 * side, or `en` and `EN`) has one language, as one listed twice under one code has: a filter by
 * any of its codes selects the pages of both listings, and messages name it once. `check` warns
 * about the second listing (`duplicate-language`).
 */
export class LanguageCodes {
  private readonly codes: string[] = [];

  /** The code `code`'s language is placed under: the first written of its codes. */
  placed(code: string): string {
    const first = this.codes.find((c) => c === code) ?? this.codes.find((c) => sameLanguage(c, code));
    if (first !== undefined) return first;
    this.codes.push(code);
    return code;
  }
}
