/**
 * A JSON request body's text, decoded by the charset its Content-Type declares (issue 25: a body
 * declared `application/json; charset=utf-16` was read as UTF-8, and its NULs made it invalid
 * JSON). UTF-8 (the default, RFC 8259) and UTF-16 in either byte order are read; any other
 * charset is refused, never guessed at. Shared by every reader of a JSON body.
 */
export type DecodedBody =
  | { readonly ok: true; readonly text: string }
  /** A charset this server does not read (answered 415), named as declared. */
  | { readonly ok: false; readonly problem: "unsupported"; readonly charset: string }
  /** Bytes that are not text in the declared charset (answered 400). */
  | { readonly ok: false; readonly problem: "malformed"; readonly encoding: "UTF-8" | "UTF-16" };

/** The charsets read, by their lower-case label, as TextDecoder's encoding names. */
const CHARSETS: ReadonlyMap<string, "utf-8" | "utf-16le" | "utf-16be" | "utf-16"> = new Map([
  ["utf-8", "utf-8"],
  ["utf8", "utf-8"],
  ["utf-16", "utf-16"],
  ["utf-16le", "utf-16le"],
  ["utf-16be", "utf-16be"],
]);

/** The `charset` parameter of a Content-Type, lower case, or undefined when there is none. */
export function declaredCharset(contentType: string | null | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^\s;]*))/i.exec(contentType ?? "");
  if (m === null) return undefined;
  return (m[1] ?? m[2] ?? "").toLowerCase();
}

/** What a refusal says of a charset this server does not read. */
export function unsupportedCharsetMessage(charset: string): string {
  return `charset "${charset}" is not supported; send the body as UTF-8 (or UTF-16)`;
}

/**
 * Decode `bytes` by the charset `contentType` declares (UTF-8 when none). `utf-16` without a
 * byte-order mark is little-endian, as TextDecoder and every browser read it; a mark picks the
 * order and is dropped, as is UTF-8's.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null | undefined): DecodedBody {
  const charset = declaredCharset(contentType);
  const known = charset === undefined ? "utf-8" : CHARSETS.get(charset);
  if (known === undefined) return { ok: false, problem: "unsupported", charset: charset as string };
  const encoding = known === "utf-16" ? (bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-16le") : known;
  try {
    // A decoder per body: `fatal` decoders keep no state between calls, but this costs nothing next to a request.
    return { ok: true, text: new TextDecoder(encoding, { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, problem: "malformed", encoding: encoding === "utf-8" ? "UTF-8" : "UTF-16" };
  }
}
