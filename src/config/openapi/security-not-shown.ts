/**
 * What a copy of a spec says where every requirement of a `security` list named a scheme the
 * copy leaves out (a scheme restricted by a stray rule, `namesOfRemoved`). Neither of the two
 * ways OpenAPI has to write an emptied list tells the truth: `security: []` says the operation
 * needs no authentication, and no `security` key says it needs what the document's does (or
 * nothing). The list is written instead as this extension member, in the same object: the
 * operation (or the document's operations that say nothing of their own, or an AsyncAPI server)
 * requires authentication its reader is not shown. The pages say the same
 * (`**Authentication:** required (not shown)`).
 */
export const SECURITY_NOT_SHOWN_KEY = "x-svc-security";
export const SECURITY_NOT_SHOWN_VALUE = "required (not shown)";

type Obj = Record<string, unknown>;
type Segments = readonly (string | number)[];
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether an object (an operation, a document) carries the marker. */
export function securityNotShown(holder: Obj): boolean {
  return holder.security === undefined && holder[SECURITY_NOT_SHOWN_KEY] === SECURITY_NOT_SHOWN_VALUE;
}

/**
 * The `security` lists (their places, `[..., "security"]`) that `deletions` empty entry by entry:
 * each of their indices is deleted. Deletions of a whole list are not counted here (the pruner
 * collapses its own; see `prune-spec.ts`).
 */
export function emptiedSecurityLists(doc: Obj, deletions: readonly Segments[]): Segments[] {
  const cut = new Map<string, { at: Segments; indices: Set<number> }>();
  for (const d of deletions) {
    if (d.length < 2 || d.at(-2) !== "security" || typeof d.at(-1) !== "number") continue;
    const at = d.slice(0, -1);
    const key = JSON.stringify(at.map(String));
    const entry = cut.get(key) ?? { at, indices: new Set<number>() };
    entry.indices.add(d.at(-1) as number);
    cut.set(key, entry);
  }
  const out: Segments[] = [];
  for (const { at, indices } of cut.values()) {
    const list = valueAt(doc, at);
    if (Array.isArray(list) && list.length > 0 && list.every((_, i) => indices.has(i))) out.push(at);
  }
  return out;
}

/**
 * Write the marker into `value` (the document after `applyDeletions`, which rebuilt every object
 * on the way to a deletion, so these are its own) for each emptied list in `places`, each a
 * `[..., "security"]` whose holder is kept.
 */
export function markSecurityNotShown(value: Obj, places: readonly Segments[]): void {
  for (const place of places) {
    const holder = valueAt(value, place.slice(0, -1));
    if (!isObj(holder)) continue;
    delete holder.security;
    holder[SECURITY_NOT_SHOWN_KEY] = SECURITY_NOT_SHOWN_VALUE;
  }
}

function valueAt(doc: unknown, at: Segments): unknown {
  let node = doc;
  for (const s of at) {
    if (Array.isArray(node)) node = node[Number(s)];
    else if (isObj(node)) node = Object.hasOwn(node, String(s)) ? node[String(s)] : undefined;
    else return undefined;
  }
  return node;
}
