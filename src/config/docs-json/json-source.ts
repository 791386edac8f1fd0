import { LIMITS } from "../../limits.js";
import { childPath } from "./json-path.js";

/** Where a JSON value starts: repository-relative file, 1-based line and column. */
export interface Position {
  readonly file: string;
  readonly line: number;
  /** 1-based, in UTF-16 code units (a tab counts as one column, as editors and compilers do). */
  readonly column: number;
}

/** A JSON text parsed with the position of every value, keyed by JSON path (root is ""). */
export interface JsonSource {
  readonly file: string;
  readonly value: unknown;
  readonly positions: ReadonlyMap<string, Position>;
  /** Positions of object keys (`navigation.tabs` -> where `"tabs"` is written), for findings
   *  about a key rather than its value. */
  readonly keyPositions: ReadonlyMap<string, Position>;
  /** Keys written twice in one object (the last one wins, as in `JSON.parse`). */
  readonly duplicateKeys: readonly { readonly path: string; readonly position: Position }[];
  /** Levels of arrays and objects inside one another (0 for a scalar), so that a `$ref` which
   *  would nest the resolved document too deep is refused before it is copied. */
  readonly depth: number;
  /** Values nested deeper than the parse reads (`LIMITS.config.maxJsonDepth`): checked as JSON,
   *  not built, `null` in their place. Real sites never nest so deep; a stray deep value under a
   *  key nobody reads must not make the whole file unreadable, as `JSON.parse` and the hosted
   *  platform read it. */
  readonly tooDeep: readonly { readonly path: string; readonly position: Position }[];
}

export type JsonParseResult =
  | { readonly ok: true; readonly source: JsonSource }
  | { readonly ok: false; readonly message: string; readonly position: Position };

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * Parse strict JSON (RFC 8259), recording where every value starts. Values are the same as
 * `JSON.parse` gives (including `__proto__` as a plain key). A syntax error is a result with
 * its line and column, never an exception.
 */
export function parseJsonSource(text: string, file: string, maxDepth: number = LIMITS.config.maxJsonDepth): JsonParseResult {
  const parser = new Parser(text, file, maxDepth);
  try {
    return { ok: true, source: parser.parseDocument() };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { ok: false, message: error.message, position: parser.positionAt(error.offset) };
  }
}

/** A backslash or a control character: the span needs the slow, escape-aware path. */
const PLAIN_STRING_BREAKER = /[\\\u0000-\u001f]/;

class Parser {
  private i = 0;
  /** Offset of the last comma read, to point a trailing-comma error at the comma itself. */
  private lastComma = 0;
  private readonly positions = new Map<string, Position>();
  private readonly keyPositions = new Map<string, Position>();
  private readonly duplicateKeys: { path: string; position: Position }[] = [];
  /** Offsets of line starts, filled lazily as the parser moves forward. */
  private line = 1;
  private lineStart = 0;
  private scanned = 0;
  /** Arrays and objects open around the value being read. */
  private depth = 0;
  private deepest = 0;
  private readonly tooDeep: { path: string; position: Position }[] = [];

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly maxDepth: number,
  ) {
    // A UTF-8 byte order mark is not part of the JSON text (editors on Windows write one).
    if (text.charCodeAt(0) === 0xfeff) {
      this.i = 1;
      this.scanned = 1;
      this.lineStart = 1;
    }
  }

  parseDocument(): JsonSource {
    this.skipWs();
    if (this.i >= this.text.length) throw new JsonSyntaxError("the file is empty (expected a JSON value)", this.i);
    const value = this.parseValue("");
    this.skipWs();
    if (this.i < this.text.length) throw new JsonSyntaxError(`unexpected ${this.describe(this.i)} after the end of the JSON value`, this.i);
    return {
      file: this.file,
      value,
      positions: this.positions,
      keyPositions: this.keyPositions,
      duplicateKeys: this.duplicateKeys,
      depth: this.deepest,
      tooDeep: this.tooDeep,
    };
  }

  /** Line and column of an offset. Offsets only move forward during a parse, except for errors. */
  positionAt(offset: number): Position {
    if (offset < this.scanned) {
      this.line = 1;
      this.lineStart = this.text.charCodeAt(0) === 0xfeff ? 1 : 0;
      this.scanned = this.lineStart;
    }
    const text = this.text;
    for (let k = this.scanned; k < offset && k < text.length; k++) {
      const c = text.charCodeAt(k);
      // A line ends at LF, CRLF or a lone CR (an old Mac file), as editors count lines.
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(k + 1) !== 0x0a)) {
        this.line++;
        this.lineStart = k + 1;
      }
    }
    this.scanned = Math.max(this.scanned, Math.min(offset, text.length));
    return { file: this.file, line: this.line, column: offset - this.lineStart + 1 };
  }

  private parseValue(path: string): unknown {
    const start = this.i;
    this.positions.set(path, this.positionAt(start));
    const c = this.text.charCodeAt(start);
    if (c === 0x7b || c === 0x5b) {
      // The parser recurses once per level (and so do the walkers after it): a value that opens
      // one level too many is checked without recursing and not built, reported where it starts.
      if (this.depth >= this.maxDepth) {
        this.tooDeep.push({ path, position: this.positionAt(start) });
        this.skipValue();
        return null;
      }
      this.depth++;
      if (this.depth > this.deepest) this.deepest = this.depth;
      const value = c === 0x7b ? this.parseObject(path) : this.parseArray(path);
      this.depth--;
      return value;
    }
    if (c === 0x22) return this.parseString();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
    if (this.text.startsWith("true", start)) return this.literal(4, true);
    if (this.text.startsWith("false", start)) return this.literal(5, false);
    if (this.text.startsWith("null", start)) return this.literal(4, null);
    throw new JsonSyntaxError(`unexpected ${this.describe(start)} (expected a value)`, start);
  }

  private literal<T>(length: number, value: T): T {
    this.i += length;
    return value;
  }

  private parseObject(path: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.i++; // {
    this.skipWs();
    if (this.text.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipWs();
      const keyStart = this.i;
      if (this.text.charCodeAt(keyStart) !== 0x22) {
        if (this.text.charCodeAt(keyStart) === 0x7d && seen.size > 0) {
          throw new JsonSyntaxError(`trailing comma before "}"`, this.lastComma);
        }
        throw new JsonSyntaxError(`unexpected ${this.describe(keyStart)} (expected a property name in double quotes)`, keyStart);
      }
      const key = this.parseString();
      const keyPath = childPath(path, key);
      const keyPos = this.positionAt(keyStart);
      if (seen.has(key)) this.duplicateKeys.push({ path: keyPath, position: keyPos });
      seen.add(key);
      this.keyPositions.set(keyPath, keyPos);
      this.skipWs();
      if (this.text.charCodeAt(this.i) !== 0x3a) throw new JsonSyntaxError(`unexpected ${this.describe(this.i)} (expected ":" after a property name)`, this.i);
      this.i++;
      this.skipWs();
      const value = this.parseValue(keyPath);
      // defineProperty: a "__proto__" key must become a plain property, as JSON.parse does.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.skipWs();
      const c = this.text.charCodeAt(this.i);
      if (c === 0x2c) {
        this.lastComma = this.i++;
        continue;
      }
      if (c === 0x7d) {
        this.i++;
        return out;
      }
      throw new JsonSyntaxError(`unexpected ${this.describe(this.i)} (expected "," or "}" after a property value)`, this.i);
    }
  }

  private parseArray(path: string): unknown[] {
    const out: unknown[] = [];
    this.i++; // [
    this.skipWs();
    if (this.text.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.text.charCodeAt(this.i) === 0x5d) throw new JsonSyntaxError(`trailing comma before "]"`, this.lastComma);
      out.push(this.parseValue(childPath(path, out.length)));
      this.skipWs();
      const c = this.text.charCodeAt(this.i);
      if (c === 0x2c) {
        this.lastComma = this.i++;
        continue;
      }
      if (c === 0x5d) {
        this.i++;
        return out;
      }
      throw new JsonSyntaxError(`unexpected ${this.describe(this.i)} (expected "," or "]" after an array element)`, this.i);
    }
  }

  /**
   * Check the value at the cursor as `parseValue` would, with the same errors, and step over it
   * without building it: a loop over an explicit stack of the closers expected, so any depth is
   * read in constant stack.
   */
  private skipValue(): void {
    const closers: number[] = [];
    for (;;) {
      // A value starts here.
      this.skipWs();
      const c = this.text.charCodeAt(this.i);
      if (c === 0x7b || c === 0x5b) {
        const close = c === 0x7b ? 0x7d : 0x5d;
        this.i++;
        this.skipWs();
        if (this.text.charCodeAt(this.i) !== close) {
          closers.push(close);
          if (close === 0x7d) this.skipKey(false);
          continue;
        }
        this.i++;
      } else if (c === 0x22) this.parseString();
      else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) this.parseNumber();
      else if (this.text.startsWith("true", this.i)) this.i += 4;
      else if (this.text.startsWith("false", this.i)) this.i += 5;
      else if (this.text.startsWith("null", this.i)) this.i += 4;
      else throw new JsonSyntaxError(`unexpected ${this.describe(this.i)} (expected a value)`, this.i);
      // After a value: close what it ends, or go on to the next element.
      for (;;) {
        const close = closers.at(-1);
        if (close === undefined) return;
        this.skipWs();
        const next = this.text.charCodeAt(this.i);
        if (next === 0x2c) {
          this.lastComma = this.i++;
          this.skipWs();
          if (close === 0x7d) this.skipKey(true);
          else if (this.text.charCodeAt(this.i) === 0x5d) throw new JsonSyntaxError(`trailing comma before "]"`, this.lastComma);
          break;
        }
        if (next !== close) {
          const expected = close === 0x7d ? `"," or "}" after a property value` : `"," or "]" after an array element`;
          throw new JsonSyntaxError(`unexpected ${this.describe(this.i)} (expected ${expected})`, this.i);
        }
        this.i++;
        closers.pop();
      }
    }
  }

  /** A property name and its colon, inside an object `skipValue` reads. */
  private skipKey(afterComma: boolean): void {
    const keyStart = this.i;
    if (this.text.charCodeAt(keyStart) !== 0x22) {
      if (this.text.charCodeAt(keyStart) === 0x7d && afterComma) throw new JsonSyntaxError(`trailing comma before "}"`, this.lastComma);
      throw new JsonSyntaxError(`unexpected ${this.describe(keyStart)} (expected a property name in double quotes)`, keyStart);
    }
    this.parseString();
    this.skipWs();
    if (this.text.charCodeAt(this.i) !== 0x3a) throw new JsonSyntaxError(`unexpected ${this.describe(this.i)} (expected ":" after a property name)`, this.i);
    this.i++;
  }

  private parseString(): string {
    const text = this.text;
    const start = this.i;
    // Fast path: most strings hold no escape; find the closing quote and check the span once.
    const close = text.indexOf('"', start + 1);
    if (close !== -1) {
      const span = text.slice(start + 1, close);
      if (!PLAIN_STRING_BREAKER.test(span)) {
        this.i = close + 1;
        return span;
      }
    }
    let k = start + 1;
    let out = "";
    let chunk = k;
    for (;;) {
      if (k >= text.length) throw new JsonSyntaxError("unterminated string", start);
      const c = text.charCodeAt(k);
      if (c === 0x22) break;
      if (c < 0x20) throw new JsonSyntaxError(c === 0x0a ? "unterminated string (a line break inside a string must be written \\n)" : "control character in a string (escape it)", k);
      if (c === 0x5c) {
        out += text.slice(chunk, k);
        const e = text[k + 1];
        switch (e) {
          case '"': out += '"'; break;
          case "\\": out += "\\"; break;
          case "/": out += "/"; break;
          case "b": out += "\b"; break;
          case "f": out += "\f"; break;
          case "n": out += "\n"; break;
          case "r": out += "\r"; break;
          case "t": out += "\t"; break;
          case "u": {
            const hex = text.slice(k + 2, k + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError("invalid \\u escape in a string (expected four hex digits)", k);
            out += String.fromCharCode(Number.parseInt(hex, 16));
            k += 4;
            break;
          }
          default:
            throw new JsonSyntaxError(`invalid escape "\\${e ?? ""}" in a string`, k);
        }
        k += 2;
        chunk = k;
        continue;
      }
      k++;
    }
    out += text.slice(chunk, k);
    this.i = k + 1;
    return out;
  }

  private parseNumber(): number {
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = this.i;
    const match = m.exec(this.text);
    if (match === null || match[0] === "-") throw new JsonSyntaxError(`invalid number`, this.i);
    this.i += match[0].length;
    const next = this.text.charCodeAt(this.i);
    if ((next >= 0x30 && next <= 0x39) || next === 0x2e) throw new JsonSyntaxError(`invalid number`, this.i);
    return Number(match[0]);
  }

  private skipWs(): void {
    const text = this.text;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        this.i++;
        continue;
      }
      if (c === 0x2f && (text[this.i + 1] === "/" || text[this.i + 1] === "*")) {
        throw new JsonSyntaxError("comments are not allowed in JSON", this.i);
      }
      return;
    }
  }

  private describe(offset: number): string {
    if (offset >= this.text.length) return "end of file";
    const ch = this.text[offset] as string;
    if (ch === "'") return `"'" (strings must use double quotes)`;
    if (ch === '"') return "'\"'";
    return JSON.stringify(ch);
  }
}
