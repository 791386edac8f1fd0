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
 * What an AsyncAPI 2.x message is called when it has no `name`: its `messageId` (2.4+), else its
 * key in `components.messages` (a `$ref` there keeps the object's identity once dereferenced),
 * else the operation's name, numbered among a `oneOf`'s messages. Before, every such message was
 * `message`, or `message1`, `message2` in a `oneOf`: the Streetlights-style specs, whose
 * messages are all `$ref`s to components, read "Messages: `message`" on every channel.
 */
export function v2MessageName(m: Obj, componentKeys: ReadonlyMap<Obj, string>, operation: string, index: number | undefined): string {
  const id = typeof m.messageId === "string" && m.messageId.trim() !== "" ? m.messageId.trim() : undefined;
  return id ?? componentKeys.get(m) ?? (index === undefined ? `${operation} message` : `${operation} message ${index + 1}`);
}

/** Each object in `components.messages` by its key (the first key, when two hold one object). */
export function componentMessageKeys(doc: Obj): Map<Obj, string> {
  const out = new Map<Obj, string>();
  const messages = isObj(doc.components) && isObj(doc.components.messages) ? doc.components.messages : {};
  for (const [key, m] of Object.entries(messages)) if (isObj(m) && !out.has(m)) out.set(m, key);
  return out;
}
