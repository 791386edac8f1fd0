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

/** At most one `default: true` among sibling versions; no version or language twice in one list. */
export const versionsRule: Rule = {
  codes: ["default-version", "duplicate-version", "duplicate-language"],
  check({ model, report }) {
    for (const versions of siblingsOf(model.elements, "version")) {
      const first = versions.find((v) => v.value.default === true);
      for (const v of versions) {
        if (v.value.default === true && v !== first && first !== undefined) {
          report({ path: childPath(v.path, "default"), code: "default-version", message: `only one version can be the default; ${first.path} already sets "default": true` });
        }
      }
    }
    for (const kind of ["version", "language"] as const) {
      for (const list of siblingsOf(model.elements, kind)) {
        const seen = new Map<string, ElementNode>();
        for (const el of list) {
          if (el.title === undefined) continue;
          const before = seen.get(el.title);
          if (before === undefined) {
            seen.set(el.title, el);
            continue;
          }
          report({ path: childPath(el.path, kind), code: `duplicate-${kind}`, message: `${kind} "${el.title}" is listed twice (first at ${before.path})` });
        }
      }
    }
  },
};
