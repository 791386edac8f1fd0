import { pageSchemaBudget } from "../config/openapi/schema-budget.js";
import { type Access, accessClass } from "./access.js";

/**
 * The schema budget of each page a spec makes (generated pages and references appended to
 * authors' pages): the spec's bound (`LIMITS.api.maxSpecSchemaNodes`) shared among the pages of
 * the spec that the page's readers read, the pages of its access class (`accessClass`).
 *
 * The share was the bound over all the spec's operations, restricted ones counted, and a cut page
 * states its budget: an anonymous reader of a cut page could work out how many operations they
 * may not read, and adding a restricted one changed public pages' text (security row 145). Counted
 * per class, a page's budget follows from pages its readers read, and nothing else.
 *
 * The bound then holds per class: a spec whose pages fall into many classes takes up to
 * `maxPageSchemaNodes` a page, 2.5 times the `minPageSchemaNodes` a page of one large class gets.
 */
export class SchemaShares {
  private readonly counts = new Map<string, number>();

  /** Counts a page of `source` whose readers are those of `access`. */
  add(source: string, access: Access): void {
    const key = shareKey(source, access);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** The schema nodes a page of `source` read by the readers of `access` shows at most. */
  nodes(source: string, access: Access): number {
    return pageSchemaBudget(this.counts.get(shareKey(source, access)) ?? 1).max;
  }
}

function shareKey(source: string, access: Access): string {
  return `${source}\u0000${accessClass(access)}`;
}
