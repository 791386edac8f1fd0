import type { Page } from "../../vfs/page.js";

/** Whether search treats a page as an endpoint's (generated from a spec, or naming an operation
 *  in its front matter): analysed without reference-list items, ranked by its own prior. Known
 *  from the page alone, so the load can tell it when it offers a body for analysis. */
export function isApiPage(page: Page): boolean {
  return page.generated || (typeof page.meta.openapi === "string" && page.meta.openapi.trim() !== "");
}
