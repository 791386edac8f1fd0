/**
 * GNU sed's character escapes (`\n`, `\t`, `\cA`...) at `p[i]` (the character after the
 * backslash): the code point and how many characters follow the backslash. The numeric ones
 * (`\x41`, `\o101`, `\d65`) are bytes, read before this (commands/sed/byte-escapes.ts).
 */
export function sedEscape(p: string, i: number): { code: number; length: number } | undefined {
  const c = p[i];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };
  if (c !== undefined && simple[c] !== undefined) return { code: simple[c] as number, length: 1 };
  if (c === "c" && p[i + 1] !== undefined) return { code: (p[i + 1] as string).toUpperCase().charCodeAt(0) ^ 0x40, length: 2 };
  return undefined;
}
