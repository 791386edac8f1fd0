/**
 * JSON written straight into UTF-8 bytes: the text `JSON.stringify` gives for a plain value (the
 * same bytes, escapes and member order), encoded as it is written into one buffer kept between
 * calls, with no string of the whole made. A direct tool call's answer was its result's
 * `JSON.stringify` (a string of ~25 KB a search, two-byte as the text has `›` and `…`, built in
 * parts and flattened), measured by `Buffer.byteLength` (which flattened it again) and then
 * encoded: ~50 KB of young generation a call under distinct questions, a fifth of what a call
 * allocated (issue 23). Now a call's answer leaves one buffer of its bytes (`copy`), outside the
 * JavaScript heap.
 *
 * Only what a tool result holds is written here: plain objects and arrays, strings, numbers,
 * booleans, null, and objects with `toJSON` (a `Date`); anything else (a boxed primitive, a
 * class instance, a bigint, a value nested past `MAX_DEPTH`, which may be a cycle) is written by
 * `JSON.stringify` itself, which gives its text or throws its own error.
 */
export class Utf8Json {
  private buf: Buffer<ArrayBuffer> = Buffer.allocUnsafeSlow(64 * 1024);
  private at = 0;

  /** Start a new text. */
  reset(): void {
    this.at = 0;
  }

  /** How many bytes were written since `reset`. */
  get length(): number {
    return this.at;
  }

  /** Bytes written since `reset` (from `from` on), copied into a buffer of their own (the writer's is reused). */
  copy(from = 0): Buffer<ArrayBuffer> {
    const out = Buffer.allocUnsafe(this.at - from);
    this.buf.copy(out, 0, from, this.at);
    return out;
  }

  /** Bytes already encoded (a kept form of a value's JSON). */
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  /** Text known to be ASCII and to need no escape (the answer's own punctuation and member names). */
  ascii(s: string): void {
    this.room(s.length);
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
    this.at = at;
  }

  /** `JSON.stringify(value)`'s text; `value` must be one it writes (not undefined, a function or a symbol). */
  value(value: unknown): void {
    this.write(value, "", 0, value);
  }

  private write(value: unknown, key: string, depth: number, top: unknown): void {
    if (typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function") {
      value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
    }
    switch (typeof value) {
      case "string":
        this.string(value);
        return;
      case "number":
        this.ascii(Number.isFinite(value) ? String(value) : "null");
        return;
      case "boolean":
        this.ascii(value ? "true" : "false");
        return;
      case "object":
        if (value === null) {
          this.ascii("null");
          return;
        }
        if (depth >= MAX_DEPTH) break;
        if (Array.isArray(value)) {
          this.byte(0x5b);
          for (let i = 0; i < value.length; i++) {
            if (i > 0) this.byte(0x2c);
            const item: unknown = value[i];
            if (skipped(item)) this.ascii("null");
            else this.write(item, String(i), depth + 1, top);
          }
          this.byte(0x5d);
          return;
        }
        if (!plain(value)) break;
        {
          this.byte(0x7b);
          let first = true;
          for (const k of Object.keys(value)) {
            const member = (value as Record<string, unknown>)[k];
            if (skipped(member)) continue;
            if (!first) this.byte(0x2c);
            first = false;
            this.string(k);
            this.byte(0x3a);
            this.write(member, k, depth + 1, top);
          }
          this.byte(0x7d);
          return;
        }
      default:
        break;
    }
    // What this writer does not write itself: `JSON.stringify`'s text of it, or its error (a
    // bigint). Past `MAX_DEPTH` the whole value is given to it first, so that a cycle throws the
    // error it would have.
    if (depth >= MAX_DEPTH) JSON.stringify(top);
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) throw new TypeError("a value JSON leaves out was given to be written");
    this.utf8(text);
  }

  /** A JSON string: quoted, escaped as `JSON.stringify` escapes (lone surrogates as `\udXXX`), UTF-8. */
  private string(s: string): void {
    // At most 6 bytes a UTF-16 unit (`\u001f`), and the quotes.
    this.room(6 * s.length + 2);
    const buf = this.buf;
    let at = this.at;
    buf[at++] = 0x22;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
          buf[at++] = c;
          continue;
        }
        buf[at++] = 0x5c;
        const short = SHORT_ESCAPES[c];
        if (short !== undefined) buf[at++] = short;
        else at = hex4(buf, at, c);
      } else if (c < 0x800) {
        buf[at++] = 0xc0 | (c >> 6);
        buf[at++] = 0x80 | (c & 0x3f);
      } else if (c < 0xd800 || c > 0xdfff) {
        buf[at++] = 0xe0 | (c >> 12);
        buf[at++] = 0x80 | ((c >> 6) & 0x3f);
        buf[at++] = 0x80 | (c & 0x3f);
      } else {
        const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          buf[at++] = 0xf0 | (c >> 18);
          buf[at++] = 0x80 | ((c >> 12) & 0x3f);
          buf[at++] = 0x80 | ((c >> 6) & 0x3f);
          buf[at++] = 0x80 | (c & 0x3f);
        } else {
          // A lone surrogate: `JSON.stringify` writes it as an escape (well-formed JSON.stringify).
          buf[at++] = 0x5c;
          at = hex4(buf, at, c);
        }
      }
    }
    buf[at++] = 0x22;
    this.at = at;
  }

  /** Text `JSON.stringify` wrote, as UTF-8 (it holds no lone surrogate). */
  private utf8(text: string): void {
    this.room(3 * text.length);
    this.at += this.buf.write(text, this.at, "utf8");
  }

  private byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  /** Room for `n` more bytes. */
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.at + n, 2 * this.buf.length));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }
}

/** Deeper than any tool result; a value past it is given to `JSON.stringify` whole (a cycle throws there). */
const MAX_DEPTH = 256;

/** `\b \t \n \f \r \" \\`: the escapes `JSON.stringify` writes short (as bytes of the letter after `\`). */
const SHORT_ESCAPES: (number | undefined)[] = [];
SHORT_ESCAPES[0x08] = 0x62;
SHORT_ESCAPES[0x09] = 0x74;
SHORT_ESCAPES[0x0a] = 0x6e;
SHORT_ESCAPES[0x0c] = 0x66;
SHORT_ESCAPES[0x0d] = 0x72;
SHORT_ESCAPES[0x22] = 0x22;
SHORT_ESCAPES[0x5c] = 0x5c;

const HEX = "0123456789abcdef";

/** `uXXXX` of `c` in lowercase hex (the `\` written before), at `at`; the next place. */
function hex4(buf: Buffer, at: number, c: number): number {
  buf[at++] = 0x75;
  buf[at++] = HEX.charCodeAt((c >> 12) & 0xf);
  buf[at++] = HEX.charCodeAt((c >> 8) & 0xf);
  buf[at++] = HEX.charCodeAt((c >> 4) & 0xf);
  buf[at++] = HEX.charCodeAt(c & 0xf);
  return at;
}

/** A member `JSON.stringify` leaves out of an object (and writes as null in an array). */
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === "function" || typeof v === "symbol";
}

/** An object `JSON.stringify` writes as its own enumerable members: one made by a literal (or with no prototype). */
function plain(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
