import { canonicalUrlRule } from "./canonical-url.js";
import { childTypesRule } from "./child-types.js";
import { duplicatePagesRule } from "./duplicate-pages.js";
import { expandedRule } from "./expanded.js";
import { groupPagesRule } from "./group-pages.js";
import { languageCodesRule } from "./language-codes.js";
import { pageFilesRule } from "./page-files.js";
import { playgroundDisplayRule } from "./playground-display.js";
import { reservedPathsRule } from "./reserved-paths.js";
import type { Rule } from "./rule.js";
import { rootElementRule } from "./root-element.js";
import { versionsRule } from "./versions.js";

/** Every docs.json rule beyond the schema, in the order they run. */
export const RULES: readonly Rule[] = [
  rootElementRule,
  childTypesRule,
  groupPagesRule,
  expandedRule,
  reservedPathsRule,
  versionsRule,
  languageCodesRule,
  duplicatePagesRule,
  playgroundDisplayRule,
  canonicalUrlRule,
  pageFilesRule,
];
