import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * A random token from the OS CSPRNG: `prefix` then `length` base62 characters (no `-` or `_`,
 * so a double-click selects it whole). The prefix says what a leaked string is (`mcpat_` is an
 * access token) so secret scanners and people can tell. 40 characters carry 238 bits.
 */
export function randomToken(prefix: string, length = 40): string {
  let out = prefix;
  while (out.length < prefix.length + length) {
    for (const b of randomBytes(length)) {
      // 248 = 4 * 62: redraw the top bytes so every character is equally likely.
      if (b < 248 && out.length < prefix.length + length) out += BASE62[b % 62];
    }
  }
  return out;
}

/**
 * SHA-256 of a machine-generated secret (token, client secret). These carry 238 random bits, so
 * a fast hash is enough: nobody can guess them offline, and verifying stays microseconds per
 * request. Passwords, which people choose, use scrypt instead.
 */
export function hashSecret(secret: string): Buffer {
  return createHash("sha256").update(secret, "utf8").digest();
}

/** Whether `secret` hashes to `expected`, in constant time. */
export function secretMatches(secret: string, expected: Buffer): boolean {
  const actual = hashSecret(secret);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** scrypt's cost parameters: CPU/memory cost `N` (a power of two), block size `r`, parallelism `p`. */
export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * scrypt cost for passwords: N = 2^15, r = 8, p = 1 uses 32 MiB and ~50-100 ms per check; the
 * parameters are stored with each hash so they can be raised later without breaking old ones.
 */
export const PASSWORD_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const SCRYPT = { keyLength: 32, saltLength: 16 } as const;

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem: 128 * N * r bytes plus headroom, or Node refuses N = 2^15.
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * `scrypt$N$r$p$<salt b64>$<key b64>`: a password hash that carries its own parameters. `cost`
 * is lowered only by tests (a sign-in lockout test checks 20 wrong passwords).
 */
export async function hashPassword(password: string, cost: ScryptCost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await scryptAsync(password, salt, cost.N, cost.r, cost.p, SCRYPT.keyLength);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

/** Whether `password` matches a stored scrypt hash (constant-time compare). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4] ?? "", "base64");
  const expected = Buffer.from(parts[5] ?? "", "base64");
  const actual = await scryptAsync(password, salt, N, r, p, expected.length);
  return timingSafeEqual(actual, expected);
}

/** PKCE S256 (RFC 7636 4.2): BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const actual = Buffer.from(createHash("sha256").update(verifier, "ascii").digest("base64url"));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
