import type { Page } from "./page.js";

/**
 * What tells one page body from another without reading it: the body itself, or for a page whose
 * text is held as bytes (`held-text.ts`) an object that every page of equal body bytes shares
 * (`ParsedTexts`). The search index keys what it makes per distinct body by it (issue 22): keyed
 * by the body strings, its maps held every body of a 50,000-page site read back into a string
 * at once during the build.
 */
export type BodyKey = string | object;

/** The key of a page's `BodyKey` (not enumerable: a page compares equal to a plain one, and a
 *  page made from it by a spread, with a body of its own, does not take it). */
const KEY = Symbol("body key");

/** `page` with `key` as its body's key. */
export function withBodyKey<P extends Page>(page: P, key: object): P {
  return Object.defineProperty(page, KEY, { value: key });
}

/** The key of a page's body (see `BodyKey`). */
export function bodyKeyOf(page: Page): BodyKey {
  return (page as { [KEY]?: object })[KEY] ?? page.body;
}
