import type { Page } from "./page.js";
import type { StoredText } from "./stored-text.js";

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

/** Where a key made by `bodyKeyOfBytes` keeps its body's bytes (not enumerable). */
const BYTES = Symbol("body bytes");

/** A new key for a body held as `bytes` (UTF-8, in memory never changed): what `ParsedTexts`
 *  gives every page of equal body bytes. `mayImport`: its `mayHaveImportLine`, when known. */
export function bodyKeyOfBytes(bytes: StoredText, mayImport?: boolean): object {
  const key = Object.defineProperty({}, BYTES, { value: bytes });
  if (mayImport !== undefined) rememberMayImport(key, mayImport);
  return key;
}

/** Where a key made by `bodyKeyOfBytes` keeps its body's `mayHaveImportLine` once known (not enumerable). */
const MAY_IMPORT = Symbol("body may import");

/** The `mayHaveImportLine` of the body a key stands for, when known (`rememberMayImport`): asked
 *  of each body twice during a cold build (as the load offers it for analysis, and as the index
 *  reads it), from its reading thread's scan or the first answer (issue 22). */
export function knownMayImport(key: object): boolean | undefined {
  return (key as { [MAY_IMPORT]?: boolean })[MAY_IMPORT];
}

/** Keep the `mayHaveImportLine` of the bytes of a key made by `bodyKeyOfBytes` (they never change). */
export function rememberMayImport(key: object, mayImport: boolean): boolean {
  Object.defineProperty(key, MAY_IMPORT, { value: mayImport });
  return mayImport;
}

/** The bytes of the body a key stands for, when it knows them (`bodyKeyOfBytes`): the body is
 *  exactly these bytes decoded. Lets the index's build test a body for imports and send it to
 *  an analysis worker without decoding it on its own thread (issue 22). */
export function bodyBytesOf(key: BodyKey): StoredText | undefined {
  return typeof key === "object" ? (key as { [BYTES]?: StoredText })[BYTES] : undefined;
}
