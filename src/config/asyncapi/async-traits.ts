type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A message or operation with its `traits` applied: each trait's fields the object does not
 * write itself, in the order the traits are listed. AsyncAPI 2.x says traits are merged "using
 * JSON Merge Patch"; 3.0 made the rule explicit (the object's own fields win), and tools read 2.x
 * that way. Streetlights' messages take their headers from `commonHeaders`, its operations their
 * `bindings` from a trait: without this the page showed neither. A new object: the spec is never
 * changed (other pages read the same message).
 */
export function withTraits(o: Obj): Obj {
  if (!Array.isArray(o.traits)) return o;
  const out: Obj = {};
  for (const key of Object.keys(o)) Object.defineProperty(out, key, { value: o[key], enumerable: true, writable: true, configurable: true });
  for (const trait of o.traits) {
    if (!isObj(trait)) continue;
    for (const key of Object.keys(trait)) {
      if (key === "traits" || Object.hasOwn(out, key)) continue;
      Object.defineProperty(out, key, { value: trait[key], enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}

/**
 * What an AsyncAPI 2.x message is called when it has no `name`: its `messageId` (2.4+), else the
 * `components.messages` key the operation's own `$ref` names (`componentKey`), else the
 * operation's name, numbered among a `oneOf`'s messages. Before, every such message was
 * `message`, or `message1`, `message2` in a `oneOf`: the Streetlights-style specs, whose
 * messages are all `$ref`s to components, read "Messages: `message`" on every channel. Never a
 * key found by the object's identity: a key only a restricted operation names is its text.
 */
export function v2MessageName(m: Obj, componentKey: string | undefined, operation: string, index: number | undefined): string {
  const id = typeof m.messageId === "string" && m.messageId.trim() !== "" ? m.messageId.trim() : undefined;
  return id ?? componentKey ?? (index === undefined ? `${operation} message` : `${operation} message ${index + 1}`);
}
