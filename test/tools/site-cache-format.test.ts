import { describe, expect, it } from "vitest";
import { RawArraysReader, RawArraysWriter } from "../../src/engine/site-cache-format.js";

/** The site cache body's reader (`site-cache-format.ts`, issue 22). */
describe("RawArraysReader", () => {
  it("copies the small typed arrays stored in the body out of it: a view kept must not keep the whole body alive", () => {
    // V8's deserializer makes an inline typed array a view of the body's buffer: one kept by the
    // index (a page's section columns) kept the whole body, ~8 times the arrays' bytes.
    const value = { ints: Int32Array.from([1, -2, 3]), numbers: Float64Array.from([0.5, 1e300]), bytes: Uint8Array.from([7, 8, 9, 10, 11]), buffer: Buffer.from("abc"), odd: new Uint32Array([4, 5]), text: "x".repeat(10_000) };
    const writer = new RawArraysWriter();
    writer.writeHeader();
    writer.writeValue(value);
    const body = writer.releaseBuffer();
    const reader = new RawArraysReader(body, []);
    reader.readHeader();
    const read = reader.readValue() as typeof value;
    expect([...read.ints]).toEqual([1, -2, 3]);
    expect([...read.numbers]).toEqual([0.5, 1e300]);
    expect([...read.bytes]).toEqual([7, 8, 9, 10, 11]);
    expect(Buffer.isBuffer(read.buffer) && read.buffer.toString()).toBe("abc");
    expect([...read.odd]).toEqual([4, 5]);
    expect(read.ints).toBeInstanceOf(Int32Array);
    expect(read.numbers).toBeInstanceOf(Float64Array);
    expect(read.odd).toBeInstanceOf(Uint32Array);
    for (const array of [read.ints, read.numbers, read.bytes, read.buffer, read.odd]) {
      expect(array.buffer).not.toBe(body.buffer);
    }
    // Arrays that share a block do not share bytes.
    read.ints[0] = 99;
    expect([...read.numbers, ...read.odd]).toEqual([0.5, 1e300, 4, 5]);
  });
});
