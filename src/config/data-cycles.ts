/**
 * Values a spec means as data (`example`, `default`, `enum`, `const`, `examples`, `x-` extensions:
 * `x-svc.metadata`) made finite once `$ref`s are replaced. A schema may refer to itself (a tree
 * node), and every reader of schemas stops at such a cycle; a `$ref` inside an example or a
 * metadata value that points back up it (`loop: {$ref: '#/.../example'}`) makes a value no JSON
 * or YAML writer can write, and every page, code example and front matter writes them. The
 * reference that closes such a circle is replaced, in place, by `CIRCULAR`: the value reads as
 * written up to it, and the rest of the spec is served (it took the server down, issue 24).
 * Run after the dereference and its size check (`expandedSize`), on OpenAPI and AsyncAPI alike.
 */

/** What a data value's circular reference reads as. */
export const CIRCULAR = "(circular $ref)";

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
export function breakDataCycles(document: object): string[][] {
  const cuts: string[][] = [];
  const seen = new Set<object>();
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
      if (seen.has(child)) continue;
      seen.add(child);
      stack.push({ node: child, named: !Array.isArray(node) && NAMED_MAPS.has(key) && !named, at: { parent: at, key } });
    }
  }
  return cuts;
}

/** Replace each reference in `value` back to one of its own ancestors with `CIRCULAR`; the keys
 *  from `value` to each one replaced. */
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
      frame.node[key] = CIRCULAR;
      cuts.push(frames.map((f) => f.keys[f.next - 1] as string));
      continue;
    }
    open.add(child);
    frames.push({ node: child, keys: Object.keys(child), next: 0 });
  }
  return cuts;
}
