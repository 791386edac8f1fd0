import { randomFillSync } from "node:crypto";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Random identifiers from the OS CSPRNG. Bytes are drawn from a pooled buffer: one system call
 * per few hundred ids matters when seeding a million rows.
 */
export class RandomIds {
  private pool = Buffer.alloc(4096);
  private offset = this.pool.length;

  /** `n` characters of lowercase RFC 4648 base32 (5 bits each; readable, case-insensitive). */
  base32(n: number): string {
    let out = "";
    for (let i = 0; i < n; i++) out += BASE32[this.byte() & 31];
    return out;
  }

  /** `n` base32 characters of a non-negative integer, big-endian and zero-padded, so that
   *  strings of equal length sort like the numbers. */
  static base32Of(value: number, n: number): string {
    let out = "";
    let v = Math.floor(value);
    for (let i = 0; i < n; i++) {
      out = BASE32[v % 32]! + out;
      v = Math.floor(v / 32);
    }
    return out;
  }

  /** `n` characters of base62 (no `-` or `_`, so a double-click selects the whole token).
   *  Bytes >= 248 are redrawn so every character is equally likely. */
  base62(n: number): string {
    let out = "";
    while (out.length < n) {
      const b = this.byte();
      if (b < 248) out += BASE62[b % 62];
    }
    return out;
  }

  private byte(): number {
    if (this.offset >= this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    return this.pool[this.offset++]!;
  }
}
