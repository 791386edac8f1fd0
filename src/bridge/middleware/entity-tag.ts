/**
 * HTTP validators for a document whose bytes are one reader's: a strong ETag from the SHA-256 of
 * exactly the bytes served, and `If-None-Match` answered with 304. `private, no-cache`: a
 * client keeps its copy and asks again each time (the reader's groups or the site may have
 * changed), and no shared cache keeps one reader's copy for another; `Vary: Authorization`
 * says the bytes depend on the token.
 */
export function entityTag(sha256Hex: string): string {
  return `"sha256-${sha256Hex}"`;
}

/** Whether an `If-None-Match` header (a list, `*`, weak tags compared weakly, RFC 9110 13.1.2) matches `tag`. */
export function matchesIfNoneMatch(header: string | null | undefined, tag: string): boolean {
  if (header === null || header === undefined) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === tag);
}

/** The headers of a reader's document beside its ETag. */
export const REVALIDATE_HEADERS: Readonly<Record<string, string>> = { "Cache-Control": "private, no-cache", Vary: "Authorization" };
