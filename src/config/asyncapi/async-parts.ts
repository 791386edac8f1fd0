import type { ApiExtension } from "../openapi/model.js";
import { readExtension, withItemRule } from "../openapi/operations.js";
import { refSegments, type Segments } from "../openapi/prune-spec.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * An AsyncAPI operation's rule: its own `x-svc`/`x-mint` narrowed by each of its traits' (a
 * reader must pass every one), since a trait is merged into the operation it is applied to: a
 * rule written on a trait is the operation's rule (before, issue 25, the operation stayed
 * public and only the trait was left out). `follow` reads a trait written as a `$ref` (the
 * document as written); a dereferenced document has them inline.
 */
export function asyncOperationRule(op: Obj, follow: (value: unknown) => unknown = (v) => v): ApiExtension | undefined {
  let rule = readExtension(op);
  if (!Array.isArray(op.traits)) return rule;
  for (const written of op.traits) {
    const trait = follow(written);
    if (isObj(trait)) rule = withItemRule(rule, readExtension(trait)?.metadata);
  }
  return rule;
}

/** An AsyncAPI channel or operation where it is written, and what it is (internal `$ref`s followed). */
export interface AsyncPartValue {
  /** `["channels", id]`, 3.x `["operations", id]`, 2.x `["channels", id, "publish" | "subscribe"]`. */
  readonly part: Segments;
  /** The value as written (a `$ref` to `components` for one written there). */
  readonly written: unknown;
  /** The value the `$ref` chain leads to (the written value when it is none). */
  readonly value: unknown;
  /** The part's rule (an operation's traits narrowing it). */
  readonly rule?: ApiExtension;
  /** The trait objects an operation applies (followed), part of its rule. */
  readonly traits: readonly unknown[];
}

/**
 * The channels and operations of an AsyncAPI document as written, each read where its `$ref`
 * leads (`channels: {c: {$ref: '#/components/channels/c'}}`, an operation in
 * `components.operations`), as the dereferenced document pages are made from reads it: before
 * (issue 25) a rule on such a channel or operation was read as a rule no page is made from, so
 * the part lost its page for its own readers and its operations (or messages, security schemes)
 * stayed in other readers' spec files.
 */
export function asyncPartValues(document: Obj): AsyncPartValue[] {
  const out: AsyncPartValue[] = [];
  const follow = (v: unknown): unknown => followInternal(document, v);
  const add = (part: Segments, written: unknown, operation: boolean): void => {
    const value = follow(written);
    const traits = operation && isObj(value) && Array.isArray(value.traits) ? value.traits.map(follow) : [];
    const rule = isObj(value) ? (operation ? asyncOperationRule(value, follow) : readExtension(value)) : undefined;
    out.push({ part, written, value, traits, ...(rule !== undefined ? { rule } : {}) });
  };
  const v2 = String(document.asyncapi).startsWith("2");
  for (const [id, ch] of Object.entries(isObj(document.channels) ? document.channels : {})) {
    add(["channels", id], ch, false);
    const value = follow(ch);
    if (v2 && isObj(value)) for (const action of ["publish", "subscribe"]) if (isObj(value[action])) add(["channels", id, action], value[action], true);
  }
  if (!v2) for (const [id, op] of Object.entries(isObj(document.operations) ? document.operations : {})) add(["operations", id], op, true);
  return out;
}

/** A `$ref` chain inside the document followed (a few hops); the value as is otherwise. */
export function followInternal(document: Obj, value: unknown): unknown {
  let v = value;
  for (let hops = 0; hops < 8 && isObj(v) && typeof v.$ref === "string"; hops++) {
    const target = refSegments(v.$ref);
    if (target === undefined) return v;
    let node: unknown = document;
    for (const s of target) node = isObj(node) ? node[s] : Array.isArray(node) ? node[Number(s)] : undefined;
    v = node;
  }
  return v;
}
