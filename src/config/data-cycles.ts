import { CIRCULAR } from "./finite-data.js";

/**
 * Where a spec's data values (`example`, `default`, `enum`, `const`, `examples`, `x-` extensions:
 * `x-svc.metadata`) point back up themselves once `$ref`s are replaced, for `check` to say
 * (`loop: {$ref: '#/.../example'}`). Found only: nothing is changed, since the objects such a
 * value reaches can be schemas elsewhere (a `$ref` from an example to a recursive schema must not
 * cut the schema); every writer of a data value makes it finite (`finiteData`), where the circle
 * reads as `CIRCULAR`. Run after the dereference and its size check, OpenAPI and AsyncAPI alike.
 */

export { CIRCULAR };

/** Keywords whose value is data, not a schema or another spec object. */
const DATA_KEYS: ReadonlySet<string> = new Set(["example", "examples", "default", "const", "enum"]);

/**
 * Keys whose value maps names to objects: a child named `default` or `x-rate` there is a property
 * (a schema) or an entry, never the keyword (`properties: {default: {...}}`).
 */
const NAMED_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "schemas",
  "responses",
  "parameters",
  "headers",
  "requestBodies",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "paths",
  "webhooks",
  "content",
  "encoding",
  "variables",
  "channels",
  "messages",
  "operations",
  "servers",
  "messageTraits",
  "operationTraits",
  "serverVariables",
  "correlationIds",
  "replies",
  "replyAddresses",
  "tags",
  "externalDocs",
  "scopes",
  "mapping",
]);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

const isDataKey = (key: string): boolean => DATA_KEYS.has(key) || key.startsWith("x-");

/** A key path as links to its parent's: made for every node walked, read out only at a cut. */
interface Link {
  readonly parent: Link | undefined;
  readonly key: string;
}

const keysOf = (link: Link | undefined): string[] => {
  const out: string[] = [];
  for (let l = link; l !== undefined; l = l.parent) out.push(l.key);
  return out.reverse();
};

/**
 * Break every circle inside the document's data values, in place, and say where (the keys from
 * the root to each reference replaced). Iterative: never overflows the stack.
 */
export function findDataCycles(document: object): string[][] {
  const cuts: string[][] = [];
  // An object is walked once in each role: as a map of names (`properties`) and as anything else
  // (an operation reached first through a `$ref` as a `properties` map is still an operation).
  const seen = new Set<object>();
  const seenNamed = new Set<object>();
  /** Data values already made finite: shared ones are walked once. */
  const finite = new Set<object>();
  const stack: { node: Record<string, unknown>; named: boolean; at: Link | undefined }[] = [{ node: document as Record<string, unknown>, named: false, at: undefined }];
  seen.add(document);
  while (stack.length > 0) {
    const { node, named, at } = stack.pop() as (typeof stack)[number];
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (!isObject(child)) continue;
      if (!named && !Array.isArray(node) && isDataKey(key)) {
        for (const cut of cutCycles(child, finite)) cuts.push([...keysOf(at), key, ...cut]);
        continue;
      }
      const childNamed = !Array.isArray(node) && NAMED_MAPS.has(key) && !named;
      const walked = childNamed ? seenNamed : seen;
      if (walked.has(child)) continue;
      walked.add(child);
      stack.push({ node: child, named: childNamed, at: { parent: at, key } });
    }
  }
  return cuts;
}

/** The keys from `value` to each reference in it back to one of its own ancestors. */
function cutCycles(value: Record<string, unknown>, finite: Set<object>): string[][] {
  const cuts: string[][] = [];
  if (finite.has(value)) return cuts;
  const open = new Set<object>([value]);
  const frames: { node: Record<string, unknown>; keys: string[]; next: number }[] = [{ node: value, keys: Object.keys(value), next: 0 }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as (typeof frames)[number];
    if (frame.next >= frame.keys.length) {
      frames.pop();
      open.delete(frame.node);
      finite.add(frame.node);
      continue;
    }
    const key = frame.keys[frame.next++] as string;
    const child = frame.node[key];
    if (!isObject(child) || finite.has(child)) continue;
    if (open.has(child)) {
      cuts.push(frames.map((f) => f.keys[f.next - 1] as string));
      continue;
    }
    open.add(child);
    frames.push({ node: child, keys: Object.keys(child), next: 0 });
  }
  return cuts;
}
