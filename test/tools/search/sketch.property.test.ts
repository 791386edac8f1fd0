import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sketchOf } from "../../../src/engine/search/version-twins.js";
import { propertyParams } from "../../helpers/property.js";

/** murmur3's 32-bit finaliser, as `version-twins.ts` mixes a triple. */
function mix(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The sketch as defined: every triple's hash, distinct, sorted, the first 48. */
function reference(terms: Int32Array): Uint32Array {
  const hashes: number[] = [];
  for (let i = 0; i + 2 < terms.length; i++) {
    const [a, b, c] = [terms[i] as number, terms[i + 1] as number, terms[i + 2] as number];
    if (a >= 0 && b >= 0 && c >= 0) hashes.push(mix(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)));
  }
  return Uint32Array.from(new Set(hashes)).sort().slice(0, 48);
}

describe("sketchOf", () => {
  it("is the 48 smallest distinct hashes of the term triples, in order", () => {
    // Few distinct ids make repeated triples (duplicate hashes); -1 separates fields.
    const terms = fc.oneof(
      fc.array(fc.integer({ min: -1, max: 6 }), { maxLength: 400 }),
      fc.array(fc.integer({ min: -1, max: 100_000 }), { maxLength: 400 }),
    );
    fc.assert(
      fc.property(terms, (ids) => {
        const t = Int32Array.from(ids);
        expect([...sketchOf(t)]).toEqual([...reference(t)]);
      }),
      propertyParams(500),
    );
  });

  it("of a page's sections given apart is that of them joined with -1 between (issue 22)", () => {
    const section = fc.array(fc.integer({ min: -1, max: 6 }), { maxLength: 60 });
    fc.assert(
      fc.property(fc.array(section, { maxLength: 12 }), (sections) => {
        const joined = Int32Array.from(sections.flatMap((ids) => [...ids, -1]));
        expect([...sketchOf(sections.map((ids) => Int32Array.from(ids)))]).toEqual([...reference(joined)]);
      }),
      propertyParams(500),
    );
  });
});
