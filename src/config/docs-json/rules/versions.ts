import { sameLanguage } from "../../languages.js";
import { childPath } from "../json-path.js";
import type { ElementNode } from "../nav-model.js";
import type { Rule } from "./rule.js";

/** Elements of one kind that share a parent array (the versions of one language, say). */
function siblingsOf(elements: readonly ElementNode[], kind: ElementNode["kind"]): ElementNode[][] {
  const byArray = new Map<string, ElementNode[]>();
  for (const el of elements) {
    if (el.kind !== kind) continue;
    const array = el.path.slice(0, el.path.lastIndexOf("["));
    const list = byArray.get(array) ?? [];
    list.push(el);
    byArray.set(array, list);
  }
  return [...byArray.values()];
}

/**
 * At most one `default: true` among sibling versions; no version or language twice in one list
 * (two codes of one language, `zh` and `cn`, count as one). Each is a warning: the platform shows
 * the site, the first default is the default, and a version or language listed twice is one
 * version or language whose pages are those of both listings.
 */
export const versionsRule: Rule = {
  codes: ["default-version", "duplicate-version", "duplicate-language"],
  check({ model, report }) {
    for (const versions of siblingsOf(model.elements, "version")) {
      const first = versions.find((v) => v.value.default === true);
      for (const v of versions) {
        if (v.value.default === true && v !== first && first !== undefined) {
          report({
            path: childPath(v.path, "default"),
            code: "default-version",
            severity: "warning",
            message: `only one version can be the default; ${first.path} already sets "default": true, and is the default`,
          });
        }
      }
    }
    for (const kind of ["version", "language"] as const) {
      const same = kind === "language" ? sameLanguage : (a: string, b: string) => a === b;
      for (const list of siblingsOf(model.elements, kind)) {
        const seen: ElementNode[] = [];
        for (const el of list) {
          if (el.title === undefined) continue;
          const before = seen.find((s) => same(s.title as string, el.title as string));
          if (before === undefined) {
            seen.push(el);
            continue;
          }
          const what = before.title === el.title ? `${kind} "${el.title}" is listed twice` : `language "${el.title}" is the same language as "${before.title}"`;
          report({ path: childPath(el.path, kind), code: `duplicate-${kind}`, severity: "warning", message: `${what} (first at ${before.path})` });
        }
      }
    }
  },
};
