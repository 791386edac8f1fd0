/**
 * C's printf conversions of a double (`%f %F %e %E %g %G %a %A` with flags, width and
 * precision), as glibc writes them: the decimal digits are exact (the double's exact binary
 * value scaled by BigInt arithmetic) and an exact half rounds to even, as glibc's default
 * rounding does; JavaScript's toFixed rounds a half up (2.5 to 3, where glibc prints 2). `%a`
 * is written as glibc writes a long double (`0x8p-3` for 1: the first hex digit holds four bits
 * of the 64-bit significand), since GNU seq, its user here, formats long doubles; every double
 * is a long double, so that text is exact too.
 */

/** One conversion: `%[flags][width][.precision]conversion`. */
export interface FloatSpec {
  readonly flags: string;
  readonly width: number;
  /** undefined when the format gives none (6 for f/e/g; the shortest exact for a). */
  readonly precision: number | undefined;
  /** One of f F e E g G a A. */
  readonly conversion: string;
}

/** The exact value of |x| (finite) as m * 2^e. */
function exactParts(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const exponent = (hi >>> 20) & 0x7ff;
  const m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return exponent === 0 ? { m, e: -1074 } : { m: m | (1n << 52n), e: exponent - 1075 };
}

/** round-half-even(|x| * 10^shift), exactly. */
function scaled(x: number, shift: number): bigint {
  const { m, e } = exactParts(x);
  let num = m;
  let den = 1n;
  if (e >= 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  const q = num / den;
  const twice = 2n * (num - q * den);
  return twice > den || (twice === den && (q & 1n) === 1n) ? q + 1n : q;
}

/** |x| in %f form with `precision` digits after the point. */
function fixed(x: number, precision: number, alt: boolean): string {
  const digits = scaled(x, precision).toString().padStart(precision + 1, "0");
  const whole = digits.slice(0, digits.length - precision);
  const fraction = digits.slice(digits.length - precision);
  return precision > 0 || alt ? `${whole}.${fraction}` : whole;
}

/** |x|'s decimal exponent and `precision + 1` significant digits, rounded (0 for 0). */
function significant(x: number, precision: number): { digits: string; exponent: number } {
  if (x === 0) return { digits: "0".repeat(precision + 1), exponent: 0 };
  let exponent = Math.floor(Math.log10(Math.abs(x)));
  const low = 10n ** BigInt(precision);
  const high = low * 10n;
  for (;;) {
    const n = scaled(x, precision - exponent);
    if (n >= high) exponent++;
    else if (n < low) exponent--;
    else return { digits: n.toString(), exponent };
  }
}

/** |x| in %e form. */
function scientific(x: number, precision: number, alt: boolean): string {
  const { digits, exponent } = significant(x, precision);
  const mantissa = precision > 0 || alt ? `${digits[0] as string}.${digits.slice(1)}` : (digits[0] as string);
  return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/** |x| in %g form: %e when the exponent is below -4 or at least the precision, else %f; trailing zeros cut unless `#`. */
function general(x: number, precision: number, alt: boolean): string {
  const p = precision === 0 ? 1 : precision;
  const { exponent } = significant(x, p - 1);
  const text = p > exponent && exponent >= -4 ? fixed(x, p - 1 - exponent, alt) : scientific(x, p - 1, alt);
  if (alt) return text;
  const at = text.indexOf("e");
  const mantissa = at === -1 ? text : text.slice(0, at);
  const rest = at === -1 ? "" : text.slice(at);
  return (mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa) + rest;
}

/** |x| in %a form, as glibc writes a long double. */
function hexFloat(x: number, precision: number | undefined, alt: boolean): string {
  if (x === 0) return `0x0${precision !== undefined && precision > 0 ? `.${"0".repeat(precision)}` : alt ? "." : ""}p+0`;
  const parts = exactParts(x);
  let e = parts.e;
  // The 64-bit significand with its top bit set, as a long double holds it.
  let significand = parts.m << 11n;
  while ((significand & (1n << 63n)) === 0n) {
    significand <<= 1n;
    e--;
  }
  let first = significand >> 60n;
  let fraction = significand & ((1n << 60n) - 1n);
  let digits = 15;
  if (precision !== undefined && precision < 15) {
    const drop = BigInt(4 * (15 - precision));
    const kept = fraction >> drop;
    const rest = fraction & ((1n << drop) - 1n);
    const half = 1n << (drop - 1n);
    fraction = rest > half || (rest === half && (kept & 1n) === 1n) ? kept + 1n : kept;
    if (fraction >> BigInt(4 * precision) !== 0n) {
      fraction &= (1n << BigInt(4 * precision)) - 1n;
      first += 1n;
    }
    digits = precision;
  }
  let hex = digits === 0 ? "" : fraction.toString(16).padStart(digits, "0");
  if (precision === undefined) hex = hex.replace(/0+$/, "");
  else if (precision > 15) hex += "0".repeat(precision - 15);
  const exponent = e + 49;
  return `0x${first.toString(16)}${hex !== "" || alt ? `.${hex}` : ""}p${exponent < 0 ? "-" : "+"}${Math.abs(exponent)}`;
}

/** x as C's printf writes it under `spec`. */
export function formatFloat(x: number, spec: FloatSpec): string {
  const upper = spec.conversion === spec.conversion.toUpperCase();
  const kind = spec.conversion.toLowerCase();
  const alt = spec.flags.includes("#");
  const negative = x < 0 || Object.is(x, -0);
  const sign = negative ? "-" : spec.flags.includes("+") ? "+" : spec.flags.includes(" ") ? " " : "";
  let body: string;
  const finite = Number.isFinite(x);
  if (Number.isNaN(x)) body = "nan";
  else if (!finite) body = "inf";
  else if (kind === "f") body = fixed(x, spec.precision ?? 6, alt);
  else if (kind === "e") body = scientific(x, spec.precision ?? 6, alt);
  else if (kind === "g") body = general(x, spec.precision ?? 6, alt);
  else body = hexFloat(x, spec.precision, alt);
  if (upper) body = body.toUpperCase();
  const length = sign.length + body.length;
  if (length >= spec.width) return sign + body;
  const pad = spec.width - length;
  if (spec.flags.includes("-")) return sign + body + " ".repeat(pad);
  if (spec.flags.includes("0") && finite) {
    // Zeros go after the sign and a hex float's 0x.
    const prefix = kind === "a" ? body.slice(0, 2) : "";
    return sign + prefix + "0".repeat(pad) + body.slice(prefix.length);
  }
  return " ".repeat(pad) + sign + body;
}
