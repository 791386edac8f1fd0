import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PostingPool } from "../../../src/engine/search/posting-pool.js";
import { packWideTf } from "../../../src/engine/search/postings-codec.js";
import { propertyParams } from "../../helpers/property.js";

/** The posting pool keeps every list exactly as a plain array per term would, through any
 *  sequence of appends (lists moving when they outgrow their room) and compactions; a wide
 *  pool's sums alike whether they fit a small integer or went to its overflow. */
/** Summed frequencies of unit `id`: a third of the ids have a sum past `MAX_TF` (1023). */
function sumsOf(id: number): [number, number, number] {
  return [id % 3 === 0 ? 1024 + id : id, id % 3 === 1 ? 5000 * id : 2 * id, id % 5 === 0 ? 1023 : 1];
}

describe("PostingPool", () => {
  it("holds what was appended, in order, whatever moved or was compacted", () => {
    const op = fc.oneof(
      fc.record({ append: fc.record({ term: fc.nat(6), ids: fc.array(fc.nat(40), { minLength: 1, maxLength: 9 }) }) }),
      fc.record({ compact: fc.nat(40) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.boolean(), (ops, wide) => {
        const pool = new PostingPool(wide);
        const model = new Map<number, number[]>();
        for (const o of ops) {
          if ("append" in o) {
            const { term, ids } = o.append;
            let at = pool.reserve(term, ids.length);
            pool.grew(term, ids.length);
            for (const id of ids) {
              pool.ids[at] = id;
              pool.values[at] = wide ? pool.sumValue(...sumsOf(id)) : id * 3;
              at++;
            }
            model.set(term, [...(model.get(term) ?? []), ...ids]);
          } else {
            // Units with an id at or above the cut are gone.
            pool.compact((id) => id < o.compact);
            for (const [t, ids] of model) model.set(t, ids.filter((id) => id < o.compact));
          }
          for (let t = 0; t <= 6; t++) {
            const ids = model.get(t) ?? [];
            expect(pool.list(t)).toEqual({ ids, tf: ids.map((id) => (wide ? packWideTf(...sumsOf(id)) : id * 3)) });
          }
          expect(pool.size).toBe([...model.values()].reduce((n, ids) => n + ids.length, 0));
        }
      }),
      propertyParams(200),
    );
  });

  it("takes an edit's postings without moving a long list or copying the pool", () => {
    const pool = new PostingPool(false);
    // A build as `InvertedIndex.commit` makes one: every list's room asked at once, then filled.
    const lengths = [200, ...Array.from({ length: 50 }, () => 1)];
    pool.ensure(lengths.reduce((n, len, t) => n + pool.roomFor(t, len), 0));
    lengths.forEach((len, t) => {
      const at = pool.reserve(t, len);
      pool.grew(t, len);
      for (let i = 0; i < len; i++) pool.ids[at + i] = i;
    });
    const built = { ids: pool.ids, start: pool.start[0] };
    // A saved page adds a posting to the long list (its room: 200 / 32 -> 7) and to a short one
    // (it moves, into the pool's own room at its end).
    for (let edit = 0; edit < 7; edit++) {
      pool.ids[pool.reserve(0, 1)] = 1000 + edit;
      pool.grew(0, 1);
    }
    pool.ids[pool.reserve(1, 1)] = 2000;
    pool.grew(1, 1);
    expect({ ids: pool.ids === built.ids, start: pool.start[0] === built.start }).toEqual({ ids: true, start: true });
    expect(pool.list(0).ids.slice(198)).toEqual([198, 199, 1000, 1001, 1002, 1003, 1004, 1005, 1006]);
    expect(pool.list(1).ids).toEqual([0, 2000]);
    // Past its room the list moves, as before.
    pool.reserve(0, 1);
    expect(pool.start[0] === built.start).toBe(false);
  });

  it("restored from its state (the persistent cache), takes a short list's move without copying", () => {
    const pool = new PostingPool(false);
    const lengths = Array.from({ length: 3000 }, (_, t) => (t % 10 === 0 ? 100 : 1));
    pool.ensure(lengths.reduce((n, len, t) => n + pool.roomFor(t, len), 0));
    lengths.forEach((len, t) => {
      const at = pool.reserve(t, len);
      pool.grew(t, len);
      for (let i = 0; i < len; i++) pool.ids[at + i] = t;
    });
    const state = pool.state();
    const restored = new PostingPool(false);
    restored.restore(state);
    // Term 1 holds one posting: an edit's second one moves it to the end.
    restored.ids[restored.reserve(1, 1)] = 7;
    restored.grew(1, 1);
    expect({ copied: restored.ids !== state.ids, list: restored.list(1).ids }).toEqual({ copied: false, list: [1, 7] });
  });
});

