import { FIELDS_PER_UNIT } from "./fields.js";

/**
 * The one place that knows how a posting's field frequencies are packed: the unit's frequency
 * in each of its `FIELDS_PER_UNIT` fields, `TF_BITS` bits each, in one small integer (a V8 SMI).
 * One number instead of three per posting halves the work of building the index; ranking reads
 * them only through `weightedTf` and `fieldTf`.
 */

/** Bits per field frequency. */
export const TF_BITS = 10;
/** Frequencies above this count the same: BM25 saturates long before. */
export const MAX_TF = (1 << TF_BITS) - 1;

// The packed value must stay a non-negative SMI (31 bits).
if (TF_BITS * FIELDS_PER_UNIT > 30) throw new Error("packed postings overflow a small integer");

/** Pack a unit's three field frequencies (capped at MAX_TF). */
export function packTf(a: number, b: number, c: number): number {
  return Math.min(a, MAX_TF) | (Math.min(b, MAX_TF) << TF_BITS) | (Math.min(c, MAX_TF) << (2 * TF_BITS));
}

/** The frequency in field `field` (0-based, schema order) of a packed posting. */
export function fieldTf(packed: number, field: number): number {
  return (packed >>> (field * TF_BITS)) & MAX_TF;
}

/** sum over fields of frequency x `scale[offset + field]`: a unit's field-weighted, length-
 *  normalised frequency for BM25F. Unrolled: it runs once per posting per query. */
export function weightedTf(packed: number, scale: Float64Array, offset: number): number {
  return (
    (packed & MAX_TF) * (scale[offset] as number) +
    ((packed >>> TF_BITS) & MAX_TF) * (scale[offset + 1] as number) +
    (packed >>> (2 * TF_BITS)) * (scale[offset + 2] as number)
  );
}

/**
 * A page's frequencies summed over its sections can pass `MAX_TF`: three fields of 17 bits each
 * in one double (exact up to 2^53), read through `weightedWideTf` (and `wideFieldTf`).
 */
export const WIDE = 2 ** 17;
export const WIDE2 = WIDE * WIDE;
const WIDE_MAX = WIDE - 1;

/** Pack three summed field frequencies (capped at 2^17 - 1, far past BM25's saturation). */
export function packWideTf(a: number, b: number, c: number): number {
  return Math.min(a, WIDE_MAX) + Math.min(b, WIDE_MAX) * WIDE + Math.min(c, WIDE_MAX) * WIDE * WIDE;
}

/** The summed frequency in field `field` of a wide packed value. */
export function wideFieldTf(packed: number, field: number): number {
  return Math.floor(packed / WIDE ** field) % WIDE;
}

/** 1 / WIDE and 1 / WIDE^2: multiplying by a power of two is exact, as dividing is, and several
 *  times faster (this runs twice per summed posting per query). */
export const PER_WIDE = 2 ** -17;
export const PER_WIDE2 = 2 ** -34;

/** `weightedTf` of a wide packed value. */
export function weightedWideTf(packed: number, scale: Float64Array, offset: number): number {
  const c = Math.floor(packed * PER_WIDE2);
  const rest = packed - c * WIDE2;
  const b = Math.floor(rest * PER_WIDE);
  const a = rest - b * WIDE;
  return a * (scale[offset] as number) + b * (scale[offset + 1] as number) + c * (scale[offset + 2] as number);
}

/**
 * The three sums of a summed-frequency posting's value (`PostingPool.sumValue`): packed as a
 * section posting's (`packTf`) when each fits, else `-(index + 1)` into the pool's `overflow`
 * of `packWideTf` values. Given to `to`, not returned as an array: it runs per posting.
 */
export function sumFields<T>(value: number, overflow: Float64Array, to: (a: number, b: number, c: number) => T): T {
  if (value >= 0) return to(value & MAX_TF, (value >>> TF_BITS) & MAX_TF, value >>> (2 * TF_BITS));
  const packed = overflow[-value - 1] as number;
  const c = Math.floor(packed * PER_WIDE2);
  const rest = packed - c * WIDE2;
  const b = Math.floor(rest * PER_WIDE);
  return to(rest - b * WIDE, b, c);
}

/** `weightedTf` of a summed-frequency posting's value (`sumFields`): the same sum, term by term, as `weightedWideTf` of its wide form. */
export function weightedSumTf(value: number, overflow: Float64Array, scale: Float64Array, offset: number): number {
  return value >= 0 ? weightedTf(value, scale, offset) : weightedWideTf(overflow[-value - 1] as number, scale, offset);
}
