/**
 * GNU's version order (gnulib's filevercmp, which `sort -V` uses in coreutils 9.1): Debian's
 * comparison of version strings over the bytes, after names' suffixes (`.tar.gz`) are set aside
 * for a first pass. Letters sort before other characters, `~` before everything, even the end;
 * digit runs compare as numbers. The simpler natural order in `format.ts` (`versionCompare`)
 * differs where a line holds spaces, signs or punctuation (issue 25).
 */

const DIGIT = (c: number): boolean => c >= 48 && c <= 57;
const ALPHA = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Length of `s` without its longest suffix matching `(\.[A-Za-z~][A-Za-z0-9~]*)*$`. */
function prefixLength(s: Uint8Array): number {
  const n = s.length;
  let prefix = 0;
  for (let i = 0; i < n; ) {
    i++;
    prefix = i;
    while (i + 1 < n && s[i] === 0x2e && (ALPHA(s[i + 1] as number) || s[i + 1] === 0x7e)) {
      for (i += 2; i < n && (ALPHA(s[i] as number) || DIGIT(s[i] as number) || s[i] === 0x7e); i++);
    }
  }
  return prefix;
}

/** A byte's weight in the non-digit parts: the end -1, `~` -2, digits 0, letters themselves, others after letters. */
function order(s: Uint8Array, pos: number, len: number): number {
  if (pos === len) return -1;
  const c = s[pos] as number;
  if (DIGIT(c)) return 0;
  if (ALPHA(c)) return c;
  if (c === 0x7e) return -2;
  return c + 256;
}

/** dpkg's verrevcmp over the first `aLen` and `bLen` bytes. */
function verrevcmp(a: Uint8Array, aLen: number, b: Uint8Array, bLen: number): number {
  let i = 0;
  let j = 0;
  while (i < aLen || j < bLen) {
    let firstDiff = 0;
    while ((i < aLen && !DIGIT(a[i] as number)) || (j < bLen && !DIGIT(b[j] as number))) {
      const x = order(a, i, aLen);
      const y = order(b, j, bLen);
      if (x !== y) return x - y;
      i++;
      j++;
    }
    while (i < aLen && a[i] === 0x30) i++;
    while (j < bLen && b[j] === 0x30) j++;
    while (i < aLen && j < bLen && DIGIT(a[i] as number) && DIGIT(b[j] as number)) {
      if (firstDiff === 0) firstDiff = (a[i] as number) - (b[j] as number);
      i++;
      j++;
    }
    if (i < aLen && DIGIT(a[i] as number)) return 1;
    if (j < bLen && DIGIT(b[j] as number)) return -1;
    if (firstDiff !== 0) return firstDiff;
  }
  return 0;
}

/** GNU `sort -V`'s comparison of two keys (negative, zero or positive). */
export function fileVersionCompare(x: string, y: string): number {
  const a = Buffer.from(x, "utf8");
  const b = Buffer.from(y, "utf8");
  if (a.length === 0) return b.length === 0 ? 0 : -1;
  if (b.length === 0) return 1;
  // "." first, then "..", then other names with a leading dot, then the rest.
  if (a[0] === 0x2e) {
    if (b[0] !== 0x2e) return -1;
    const aDot = a.length === 1;
    const bDot = b.length === 1;
    if (aDot) return bDot ? 0 : -1;
    if (bDot) return 1;
    const aDotDot = a[1] === 0x2e && a.length === 2;
    const bDotDot = b[1] === 0x2e && b.length === 2;
    if (aDotDot) return bDotDot ? 0 : -1;
    if (bDotDot) return 1;
  } else if (b[0] === 0x2e) return 1;
  const aPrefix = prefixLength(a);
  const bPrefix = prefixLength(b);
  const result = verrevcmp(a, aPrefix, b, bPrefix);
  if (result !== 0 || (aPrefix === a.length && bPrefix === b.length)) return result;
  return verrevcmp(a, a.length, b, b.length);
}
