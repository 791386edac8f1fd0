import { type CutPart, SchemaBudget } from "./schema-budget.js";

interface Rendered<V> {
  readonly value: V;
  readonly left: number;
  readonly parts: readonly CutPart[];
}

/**
 * A part of a page that many pages write alike, rendered once for each budget it is reached
 * with (`SchemaBudget.remaining`) and charged on every page as if rendered there: a message
 * shared by `$ref` across 100 channels was walked again on each channel's page (adversary round
 * 63). Exact, since every walker's work depends only on what is left: the part is rendered on a
 * budget of its own holding what the page has left, and the page then spends what it spent.
 * Keyed by the object (`key`: a message of one loaded spec, dropped with it).
 */
export class BudgetMemo<K extends object, V> {
  private readonly cache = new WeakMap<K, Map<number, Rendered<V>>>();

  constructor(private readonly render: (key: K, nodes: SchemaBudget) => V) {}

  get(key: K, nodes: SchemaBudget): V {
    let byLeft = this.cache.get(key);
    if (byLeft === undefined) this.cache.set(key, (byLeft = new Map()));
    let hit = byLeft.get(nodes.remaining);
    if (hit === undefined) {
      const own = new SchemaBudget(nodes.remaining);
      const value = this.render(key, own);
      hit = { value, left: own.remaining, parts: own.cutParts };
      byLeft.set(nodes.remaining, hit);
    }
    nodes.replay(hit.left, hit.parts);
    return hit.value;
  }
}
