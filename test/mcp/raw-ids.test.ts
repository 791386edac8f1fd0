import { describe, expect, it } from "vitest";
import { rawIds } from "../../src/mcp/raw-ids.js";

/** Issue 25: ids echoed as the client wrote them; the scanner finds the top-level member JSON.parse keeps. */
describe("rawIds", () => {
  it("finds a message's id as written, the last when repeated, never one nested deeper", () => {
    expect(rawIds('{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}')).toBe("12345678901234567890");
    expect(rawIds(' { "params" : {"id": 1, "x": ["}", {"id": 2}]}, "id" : -1E+300 } ')).toBe("-1E+300");
    expect(rawIds('{"id":1,"a":"\\"id\\"","\\u0069d":1e400}')).toBe("1e400");
    expect(rawIds('{"method":"x","params":{"id":5}}')).toBeUndefined();
    expect(rawIds('{"id":"str"}')).toBe('"str"');
    expect(rawIds('"x"')).toBeUndefined();
  });

  it("gives one per element of a batch", () => {
    expect(rawIds('[{"id":1}, 7, {"id" : 9007199254740993 }, [ {"id":3} ], {"method":"m"}]')).toEqual(["1", undefined, "9007199254740993", undefined, undefined]);
  });
});
