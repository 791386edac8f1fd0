import { describe, expect, it } from "vitest";
import { Utf8Json } from "../../src/bridge/mcp/json-utf8.js";

/**
 * A direct tool call's answer is written as UTF-8 bytes by `Utf8Json`, not by `JSON.stringify`:
 * the bytes must be those of `JSON.stringify`'s text for every value a result can hold (escapes,
 * characters of every UTF-8 length, lone surrogates, member order, members JSON leaves out,
 * `toJSON`), and its errors must be `JSON.stringify`'s.
 */
describe("Utf8Json", () => {
  const written = (json: Utf8Json, value: unknown): Buffer => {
    json.reset();
    json.value(value);
    return json.copy();
  };

  it("writes the UTF-8 bytes of JSON.stringify's text", () => {
    const json = new Utf8Json();
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const noProto = Object.assign(Object.create(null) as object, { b: 1, a: "z" });
    const values: unknown[] = [
      { text: "1. Café › Setup\n   …für 東京 🚀 \ud800 \udc00x \ud83d", long: "é›".repeat(5000) },
      "quote \" backslash \\ slash / \b\f\n\r\t \u0000 \u0001 \u001f \u007f \u2028 \u2029",
      { a: undefined, b: () => 1, c: Symbol("s"), d: null, e: [undefined, () => 1, Symbol("t"), null, 1] },
      [0, -0, 1.5, -2e-7, 1e21, 123456789012345680000, Number.NaN, Number.POSITIVE_INFINITY, -Number.MAX_VALUE, 5e-324],
      { 2: "two", 1: "one", b: true, a: false, "": "", "ü\n": "key escaped" },
      { when: new Date(Date.UTC(2026, 10, 30, 12, 0, 0, 5)), invalid: new Date(Number.NaN), custom: { toJSON: (key: string) => `key ${key}` } },
      [{ toJSON: (key: string) => ({ at: key }) }],
      noProto,
      new Point(1, 2),
      { wrapped: [new String("s"), new Number(3), new Boolean(false)] },
      { deep: JSON.parse(`${"[".repeat(300)}1${"]".repeat(300)}`) as unknown },
      "",
      7,
      "ü-1",
      { ["x".repeat(70_000)]: "y".repeat(70_000) },
    ];
    for (const value of values) {
      const bytes = written(json, value);
      expect(bytes.toString("latin1")).toBe(Buffer.from(JSON.stringify(value), "utf8").toString("latin1"));
    }
    // Every UTF-16 unit, alone and after each kind of surrogate.
    const units = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c)).join("");
    for (const s of [units, units.split("").join("\ud83d"), units.split("").join("\ude80")]) {
      expect(Buffer.compare(written(json, { s }), Buffer.from(JSON.stringify({ s }), "utf8"))).toBe(0);
    }
  });

  it("throws JSON.stringify's errors", () => {
    const json = new Utf8Json();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { inner: [cyclic] };
    for (const value of [cyclic, { n: 1n }]) {
      let expected: unknown;
      try {
        JSON.stringify(value);
      } catch (error) {
        expected = error;
      }
      expect(() => written(json, value)).toThrow(expected as Error);
    }
  });

  it("keeps what was written before a part, and copies from a place", () => {
    const json = new Utf8Json();
    json.reset();
    json.ascii('{"result":');
    const from = json.length;
    json.value({ text: "›" });
    const part = json.copy(from);
    json.bytes(part);
    json.ascii("}");
    expect(part.toString("utf8")).toBe('{"text":"›"}');
    expect(json.copy().toString("utf8")).toBe('{"result":{"text":"›"}{"text":"›"}}');
  });
});
