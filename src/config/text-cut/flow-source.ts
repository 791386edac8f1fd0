import { load as loadYaml } from "js-yaml";
import { type SourceCollection, type SourceMember, UnsupportedSource } from "./source-nodes.js";

/**
 * A flow collection (`{...}` or `[...]`) starting at `open`: a whole JSON document, or a YAML
 * flow collection (then single-quoted and plain scalars and `#` comments are read too).
 * Nested collections are scanned when a member's `value()` is asked for, and only once.
 */
export function flowCollection(text: string, open: number, yaml: boolean): SourceCollection {
  return new FlowScanner(text, yaml).collection(open);
}

/** Where the flow collection opening at `open` ends (just after its closing bracket). */
export function flowEnd(text: string, open: number, yaml: boolean): number {
  return new FlowScanner(text, yaml).end(open);
}

class FlowScanner {
  /** Scanned collections by opening offset: skipping a value scans it, descending reuses that. */
  private readonly scanned = new Map<number, { collection: SourceCollection; close: number }>();

  constructor(
    private readonly text: string,
    private readonly yaml: boolean,
  ) {}

  collection(open: number): SourceCollection {
    return this.scan(open).collection;
  }

  end(open: number): number {
    return this.scan(open).close + 1;
  }

  private scan(open: number): { collection: SourceCollection; close: number } {
    const hit = this.scanned.get(open);
    if (hit !== undefined) return hit;
    const text = this.text;
    const isMap = text[open] === "{";
    const closer = isMap ? "}" : "]";
    const members: SourceMember[] = [];
    let i = this.skipSpace(open + 1);
    while (text[i] !== closer) {
      if (i >= text.length) throw new UnsupportedSource(`unclosed ${isMap ? "{" : "["} at offset ${open}`);
      const start = i;
      let key: string | number = members.length;
      if (isMap) {
        const k = this.readKey(i);
        key = k.key;
        i = this.skipSpace(k.end);
        if (text[i] !== ":") throw new UnsupportedSource(`expected ":" at offset ${i}`);
        i = this.skipSpace(i + 1);
      }
      const valueStart = i;
      const end = this.skipValue(valueStart, closer);
      i = this.skipSpace(end);
      const separatorEnd = text[i] === "," ? i + 1 : undefined;
      members.push({ key, start, end, at: start, ...(separatorEnd !== undefined ? { separatorEnd } : {}), cuttable: true, value: () => this.valueAt(valueStart) });
      if (separatorEnd !== undefined) i = this.skipSpace(separatorEnd);
      else if (text[i] !== closer) throw new UnsupportedSource(`expected "," or "${closer}" at offset ${i}`);
    }
    const close = i;
    const collection: SourceCollection = {
      kind: isMap ? "map" : "seq",
      style: "flow",
      members,
      empty: () => [{ start: open + 1, end: close, text: "" }],
    };
    const result = { collection, close };
    this.scanned.set(open, result);
    return result;
  }

  private valueAt(start: number): SourceCollection {
    const c = this.text[start];
    if (c !== "{" && c !== "[") throw new UnsupportedSource(`not a collection at offset ${start}`);
    return this.collection(start);
  }

  /** Where the value starting at `start` ends (exclusive). */
  private skipValue(start: number, closer: string): number {
    const text = this.text;
    const c = text[start];
    if (c === "{" || c === "[") return this.scan(start).close + 1;
    if (c === '"') return this.doubleQuotedEnd(start);
    if (this.yaml && c === "'") return this.singleQuotedEnd(start);
    if (this.yaml && (c === "&" || c === "*" || c === "!" || c === "?")) throw new UnsupportedSource(`YAML "${c}" at offset ${start}`);
    // A plain scalar (or a JSON number or literal): up to a separator, a closer or a comment.
    let i = start;
    let last = start;
    while (i < text.length) {
      const ch = text[i];
      if (ch === "," || ch === closer || ch === "]" || ch === "}") break;
      if (this.yaml && ch === "#" && /\s/.test(text[i - 1] ?? "")) break;
      if (ch !== " " && ch !== "\t" && ch !== "\n" && ch !== "\r") last = i + 1;
      i++;
    }
    if (last === start) throw new UnsupportedSource(`expected a value at offset ${start}`);
    return last;
  }

  private readKey(start: number): { key: string; end: number } {
    const text = this.text;
    const c = text[start];
    if (c === '"') {
      const end = this.doubleQuotedEnd(start);
      return { key: decodeDoubleQuoted(text.slice(start, end)), end };
    }
    if (!this.yaml) throw new UnsupportedSource(`expected a property name at offset ${start}`);
    if (c === "'") {
      const end = this.singleQuotedEnd(start);
      return { key: text.slice(start + 1, end - 1).replace(/''/g, "'"), end };
    }
    if (c === "?" || c === "&" || c === "*" || c === "!" || c === "{" || c === "[") throw new UnsupportedSource(`YAML key "${c}" at offset ${start}`);
    // A plain key ends at ": " (or ":" before a separator) and holds no line break.
    const m = /^[^\n:#,{}[\]]*?(?=[ \t]*:(?:[\s,{}[\]]|$))/.exec(text.slice(start, start + 4096));
    if (m === null || m[0] === "") throw new UnsupportedSource(`cannot read a key at offset ${start}`);
    return { key: m[0], end: start + m[0].length };
  }

  private doubleQuotedEnd(start: number): number {
    const text = this.text;
    for (let i = start + 1; i < text.length; i++) {
      const ch = text[i];
      if (ch === "\\") i++;
      else if (ch === '"') return i + 1;
    }
    throw new UnsupportedSource(`unterminated string at offset ${start}`);
  }

  private singleQuotedEnd(start: number): number {
    const text = this.text;
    for (let i = start + 1; i < text.length; i++) {
      if (text[i] === "'") {
        if (text[i + 1] === "'") i++;
        else return i + 1;
      }
    }
    throw new UnsupportedSource(`unterminated string at offset ${start}`);
  }

  private skipSpace(from: number): number {
    const text = this.text;
    let i = from;
    while (i < text.length) {
      const ch = text[i];
      if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") i++;
      else if (this.yaml && ch === "#") {
        const nl = text.indexOf("\n", i);
        i = nl === -1 ? text.length : nl;
      } else break;
    }
    return i;
  }
}

/** A double-quoted key as its string (JSON escapes; YAML's extra ones through the YAML reader). */
export function decodeDoubleQuoted(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    const value = loadYaml(quoted);
    if (typeof value !== "string") throw new UnsupportedSource(`cannot read the key ${quoted}`);
    return value;
  }
}
