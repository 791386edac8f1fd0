import type { SpecSegments } from "../openapi/spec-positions.js";
import { refSegments } from "../openapi/prune-spec.js";

type Obj = Record<string, unknown>;
/** What of a shape finding this reads and rewrites (`Finding` of `async-shapes.ts`). */
interface Placed {
  readonly at: SpecSegments;
  readonly instead: string;
}
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** How many carriers a shared message's finding names before counting the rest. */
const NAMED_CARRIERS = 3;

/** A message object reached from one or more places, and the findings its first reaching found. */
interface Reached {
  count: number;
  readonly carriers: SpecSegments[];
}

/**
 * Shape findings of AsyncAPI messages, a message reached from many places said once. A message is
 * one object wherever a `$ref` (or a YAML alias) puts it, and its shape is its own: a `oneOf` of
 * 10,000 messages shared by 250 channels was checked 2,500,000 times, and one bad message it held
 * was as many warnings, each at a channel's `$ref`, none at the message. A message reached from one
 * place is said there, as before; one reached from several is said once, at the place it is
 * written (its `$ref`s followed in the document as written; the first place where they cannot be,
 * as a YAML alias or another file), naming the places that reach it.
 */
export class SharedFindings<F extends Placed> {
  private readonly reached = new Map<Obj, Reached>();
  private readonly byFinding = new Map<F, Reached>();

  constructor(private readonly out: F[]) {}

  /**
   * `check` of `value` at its place, the first time its object is reached; a later place is
   * counted, with `carrier` (the operation or channel that reaches it there).
   */
  once(value: unknown, carrier: SpecSegments, check: () => void): void {
    if (!isObj(value)) {
      check();
      return;
    }
    const known = this.reached.get(value);
    if (known !== undefined) {
      known.count++;
      if (known.carriers.length < NAMED_CARRIERS) known.carriers.push(carrier);
      return;
    }
    const reached: Reached = { count: 1, carriers: [carrier] };
    this.reached.set(value, reached);
    const from = this.out.length;
    check();
    for (let i = from; i < this.out.length; i++) this.byFinding.set(this.out[i] as F, reached);
  }

  /** The findings in the order found, each of a message reached from several places at its written place, naming them. */
  findings(written: Obj | undefined): F[] {
    return this.out.map((f) => {
      const reached = this.byFinding.get(f);
      if (reached === undefined || reached.count === 1) return f;
      const named = reached.carriers.map((c) => c.join(".")).join(", ");
      const more = reached.count - reached.carriers.length;
      const places = `${named}${more > 0 ? ` and ${more} more` : ""}`;
      const at = (written !== undefined ? writtenPlace(written, f.at) : undefined) ?? f.at;
      return { ...f, at, instead: `${f.instead} (one message, reached from ${reached.count} places: ${places})` };
    });
  }
}

/**
 * Where the value at `at` (keys through the dereferenced document) is written: each internal
 * `$ref` on the way followed in the document as written. Undefined where one cannot be (a `$ref`
 * to another file, a key the written document does not have).
 */
function writtenPlace(written: Obj, at: SpecSegments): SpecSegments | undefined {
  let node: unknown = written;
  let place: (string | number)[] = [];
  const follow = (): boolean => {
    for (let hops = 0; isObj(node) && typeof node.$ref === "string"; hops++) {
      const target = refSegments(node.$ref);
      if (target === undefined || hops === 8) return false;
      place = [...target];
      node = target.reduce<unknown>((n, s) => (isObj(n) ? n[s] : Array.isArray(n) ? n[Number(s)] : undefined), written);
    }
    return true;
  };
  for (const seg of at) {
    if (!follow()) return undefined;
    node = isObj(node) ? node[seg] : Array.isArray(node) ? node[Number(seg)] : undefined;
    if (node === undefined) return undefined;
    place.push(seg);
  }
  return follow() ? place : undefined;
}
