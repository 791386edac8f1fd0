/**
 * The number C's `strtold` reads at the start of a text, as GNU `sort -g` reads a key: leading
 * white space, a sign, then a decimal number with an optional exponent, a hexadecimal one
 * (`0x1A`, `0x1p4`: hex digits, an optional binary exponent), `inf`/`infinity` or `nan`/`nan(...)`
 * in any case. `undefined` when no number starts the text (a conversion error, which `sort -g`
 * puts first). JavaScript's `parseFloat` reads no hexadecimal, `inf` or `nan`, so `sort -g` put
 * `0x1A` at 0 and `nan` after `-inf` (adversary round 12, F6).
 */
const NUMBER = /^[ \t\n\v\f\r]*([+-]?)(?:0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP]([+-]?[0-9]+))?|(inf(?:inity)?)|nan(?:\(([0-9A-Za-z_]*)\))?|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))/i;

/** A NaN as read: its sign and payload order NaNs among themselves (`compareGeneralNumeric`). */
interface ReadNaN {
  readonly negative: boolean;
  /** The long double's 64-bit significand: the quiet bit and the `nan(...)` payload. */
  readonly significand: bigint;
}

export function strtold(text: string): number | ReadNaN | undefined {
  const m = NUMBER.exec(text);
  if (m === null) return undefined;
  const sign = m[1] === "-" ? -1 : 1;
  if (m[2] !== undefined) return sign * hexValue(m[2], m[3]);
  if (m[4] !== undefined) return sign * Infinity;
  if (m[6] === undefined) return { negative: sign < 0, significand: 0xc000000000000000n | (nanPayload(m[5]) & 0x3fffffffffffffffn) };
  const value = Number(m[6]);
  // Past a double's range but within a long double's (1e400): larger than any double, not infinite.
  return sign * (value === Infinity ? Number.MAX_VALUE : value);
}

/** `nan(chars)`'s payload as glibc reads it (`strtoull` in base 0; 0 unless all of it is a number). */
function nanPayload(chars: string | undefined): bigint {
  if (chars === undefined || chars === "") return 0n;
  const m = /^(?:0[xX]([0-9a-fA-F]+)|0([0-7]*)|([1-9][0-9]*))$/.exec(chars);
  if (m === null) return 0n;
  const n = m[1] !== undefined ? BigInt(`0x${m[1]}`) : m[2] !== undefined ? (m[2] === "" ? 0n : BigInt(`0o${m[2]}`)) : BigInt(m[3] as string);
  return n & 0xffffffffffffffffn;
}

/** A hexadecimal mantissa (`1A`, `1.8`, `.8`) times 2 to the power `exponent`. */
function hexValue(mantissa: string, exponent: string | undefined): number {
  const [whole = "", fraction = ""] = mantissa.split(".");
  let value = 0;
  for (const digit of whole + fraction) value = value * 16 + Number.parseInt(digit, 16);
  return value * 2 ** (Number(exponent ?? "0") - 4 * fraction.length);
}

/**
 * GNU `sort -g`'s order of two keys (`general_numcompare`): conversion errors first, then NaNs,
 * then numbers in order (-0 equals +0); 0 for equals, which the caller breaks by the whole line.
 */
export function compareGeneralNumeric(a: string, b: string): number {
  const x = strtold(a);
  const y = strtold(b);
  if (x === undefined) return y === undefined ? 0 : -1;
  if (y === undefined) return 1;
  if (typeof x !== "number") return typeof y !== "number" ? compareNaNs(x, y) : -1;
  if (typeof y !== "number") return 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** NaNs by their bytes as x86-64 lays out a long double (coreutils' `nan_compare` is a `memcmp`):
 *  the significand's bytes from the lowest, then the sign. */
function compareNaNs(x: ReadNaN, y: ReadNaN): number {
  for (let shift = 0n; shift < 64n; shift += 8n) {
    const d = Number((x.significand >> shift) & 0xffn) - Number((y.significand >> shift) & 0xffn);
    if (d !== 0) return Math.sign(d);
  }
  return x.negative === y.negative ? 0 : x.negative ? 1 : -1;
}
