/**
 * The date forms the feedback filters accept (spec: "ISO 8601 or YYYY-MM-DD"):
 * - `2024-05-01`: UTC midnight of that day;
 * - `2024-05-01T09:30`, `...T09:30:15`, `...T09:30:15.123456`: without a zone, UTC;
 * - any of those with `Z` or an offset (`+02:00`, `+0200`, `+02`, `-05:00`).
 * A space may stand for the `T` (RFC 3339), and a space before a trailing offset is read as
 * `+`: an unencoded `+` in a query string arrives as a space, and `+02:00` is what was meant.
 * Only the extended format is accepted (no `20240501`, week or ordinal dates): those are rare
 * in practice and ambiguous next to numeric timestamps.
 */

export type ParsedDate = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly reason: string };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * Parse a filter date to milliseconds since the epoch, rounded up to the next whole millisecond
 * when it has finer digits. Stored times are whole milliseconds, so rounding up keeps both
 * bounds exact: `t >= x` iff `t >= ceil(x)`, and `t < x` iff `t < ceil(x)`.
 */
export function parseFilterDate(text: string): ParsedDate {
  const d = DATE_ONLY.exec(text);
  if (d !== null) return civil(Number(d[1]), Number(d[2]), Number(d[3]), 0, 0, 0, 0, 0);
  const m = DATE_TIME.exec(text);
  if (m === null) return { ok: false, reason: "not an ISO 8601 date-time (2024-05-01T09:30:00Z) or date (2024-05-01)" };
  const [, y, mo, day, h, min, s, frac, zulu, sign, oh, om] = m;
  let offsetMinutes = 0;
  if (zulu === undefined && sign !== undefined) {
    const hours = Number(oh);
    const minutes = om === undefined ? 0 : Number(om);
    if (hours > 23 || minutes > 59) return { ok: false, reason: `time zone offset ${sign === "-" ? "-" : "+"}${oh}:${om ?? "00"} is out of range` };
    offsetMinutes = (sign === "-" ? -1 : 1) * (hours * 60 + minutes);
  }
  // Fraction digits past milliseconds round up (see above).
  const digits = (frac ?? "").padEnd(3, "0");
  const fracMs = Number(digits.slice(0, 3)) + (/[1-9]/.test(digits.slice(3)) ? 1 : 0);
  return civil(Number(y), Number(mo), Number(day), Number(h), Number(min), s === undefined ? 0 : Number(s), fracMs, offsetMinutes);
}

function civil(y: number, mo: number, d: number, h: number, min: number, s: number, ms: number, offsetMinutes: number): ParsedDate {
  if (mo < 1 || mo > 12) return { ok: false, reason: `month ${pad(mo)} does not exist` };
  if (d < 1 || d > daysInMonth(y, mo)) return { ok: false, reason: `${y}-${pad(mo)} has no day ${pad(d)}` };
  if (h > 23) return { ok: false, reason: `hour ${pad(h)} is out of range (00-23)` };
  if (min > 59) return { ok: false, reason: `minute ${pad(min)} is out of range (00-59)` };
  if (s > 59) return { ok: false, reason: `second ${pad(s)} is out of range (00-59)` };
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear takes the year as written.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, min, s, 0);
  return { ok: true, ms: date.getTime() + ms - offsetMinutes * 60_000 };
}

function daysInMonth(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(mo) ? 30 : 31;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}
