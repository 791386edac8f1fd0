/**
 * GNU sed's character escapes (`\n`, `\t`, `\x41`, `\o101`, `\d65`, `\cA`...) at `p[i]` (the
 * character after the backslash): the code point and how many characters follow the backslash.
 */
export function sedEscape(p: string, i: number): { code: number; length: number } | undefined {
  const c = p[i];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };
  if (c !== undefined && simple[c] !== undefined) return { code: simple[c] as number, length: 1 };
  const numeric = (re: RegExp, radix: number) => {
    const m = re.exec(p.slice(i + 1));
    return m === null ? undefined : { code: Number.parseInt(m[0], radix), length: 1 + m[0].length };
  };
  if (c === "x") return numeric(/^[0-9A-Fa-f]{1,2}/, 16);
  if (c === "o") return numeric(/^[0-7]{1,3}/, 8);
  if (c === "d") return numeric(/^\d{1,3}/, 10);
  if (c === "c" && p[i + 1] !== undefined) return { code: (p[i + 1] as string).toUpperCase().charCodeAt(0) ^ 0x40, length: 2 };
  return undefined;
}
