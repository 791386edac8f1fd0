import { createHash } from "node:crypto";
import type { RandomIds } from "../random-id.js";

/**
 * Admin API keys: `svc_` + a 12-character id + a 32-character secret, 48 characters in all:
 *   svc_k7h2m9q4x1ab3Rj9...
 * - The id (lowercase base32, 60 bits) names the key in `keys list` and `keys revoke`, and finds
 *   its row; it is not secret (it is the start of every request's key).
 * - The secret (base62, ~190 bits) is never stored: the store keeps SHA-256 of the whole key.
 *   A salted slow hash is for guessable passwords; a 190-bit random secret cannot be guessed,
 *   and a fast hash keeps verification off the request's critical path.
 */
export const KEY_PREFIX = "svc_";
export const KEY_ID_CHARS = 12;
const SECRET_CHARS = 32;
const KEY_RE = new RegExp(`^${KEY_PREFIX}([a-z2-7]{${KEY_ID_CHARS}})[0-9A-Za-z]{${SECRET_CHARS}}$`);

/** A fresh key and its id. */
export function generateKey(random: RandomIds): { key: string; id: string } {
  const id = random.base32(KEY_ID_CHARS);
  return { key: `${KEY_PREFIX}${id}${random.base62(SECRET_CHARS)}`, id };
}

/** The id inside a well-formed key; undefined when the text cannot be one of our keys. */
export function keyIdOf(key: string): string | undefined {
  return KEY_RE.exec(key)?.[1];
}

/** What the store keeps instead of the key. */
export function hashKey(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}
