import { HTTP_METHODS } from "./model.js";

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

/**
 * The same for a `servers` list every entry of which the copy leaves out. An AsyncAPI channel's
 * (each entry named a server a stray rule restricts): a channel with no `servers` is on every
 * server, which it is not; its page says `**Servers:** not shown`. An OpenAPI operation's, path
 * item's or document's (each entry was a server a stray rule restricts): an operation with no
 * `servers` is on its path item's, else the document's, which the author never declared for it
 * (adversary round 65 F2: its page named the document's server and the relay sent there); its
 * page says `**Base URL:** not shown` and the relay sends nothing in its name.
 */
export const SERVERS_NOT_SHOWN_KEY = "x-svc-servers";
export const SERVERS_NOT_SHOWN_VALUE = "not shown";

/** The marker that writes the emptied list at `place` (`[..., "security"]` or `[..., "servers"]`, `marksWhenEmptied`). */
export function notShownMarker(place: Segments): { key: string; value: string } {
  return place.at(-1) === "servers" ? { key: SERVERS_NOT_SHOWN_KEY, value: SERVERS_NOT_SHOWN_VALUE } : { key: SECURITY_NOT_SHOWN_KEY, value: SECURITY_NOT_SHOWN_VALUE };
}

/**
 * Whether `place` is a list written as a marker when emptied: a `security` list, an AsyncAPI
 * channel's `servers`, or an OpenAPI `servers` list an operation reads (the document's, a path
 * item's or an operation's, also under `webhooks` and `components.pathItems`). An AsyncAPI
 * document's `servers` is a map, not a list: callers hold the place to a list.
 */
export function marksWhenEmptied(place: Segments): boolean {
  if (place.at(-1) === "security") return true;
  if (place.at(-1) !== "servers") return false;
  if (place.length === 1 || (place.length === 3 && place[0] === "channels")) return true;
  // Where the path item is: `paths.<path>`, `webhooks.<name>`, `components.pathItems.<name>`.
  const item = place[0] === "components" ? (place[1] === "pathItems" ? 3 : -1) : place[0] === "paths" || place[0] === "webhooks" ? 2 : -1;
  if (item < 0) return false;
  return place.length === item + 1 || (place.length === item + 2 && OPERATION_KEYS.has(String(place[item])));
}

/** The keys of a path item that hold an operation. */
const OPERATION_KEYS: ReadonlySet<string> = new Set(HTTP_METHODS.map((m) => m.toLowerCase()));

type Obj = Record<string, unknown>;
type Segments = readonly (string | number)[];
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether an object (an AsyncAPI channel; an OpenAPI document, path item or operation) carries the servers marker. */
export function serversNotShown(holder: Obj): boolean {
  return holder.servers === undefined && holder[SERVERS_NOT_SHOWN_KEY] === SERVERS_NOT_SHOWN_VALUE;
}

/** Whether an object (an operation, a document) carries the marker. */
export function securityNotShown(holder: Obj): boolean {
  return holder.security === undefined && holder[SECURITY_NOT_SHOWN_KEY] === SECURITY_NOT_SHOWN_VALUE;
}

/**
 * The `security` lists (their places, `[..., "security"]`) and `servers` lists
 * (`marksWhenEmptied`) that `deletions` empty entry by entry:
 * each of their indices is deleted. Deletions of a whole list are not counted here (the pruner
 * collapses its own; see `prune-spec.ts`).
 */
export function emptiedSecurityLists(doc: Obj, deletions: readonly Segments[]): Segments[] {
  const cut = new Map<string, { at: Segments; indices: Set<number> }>();
  for (const d of deletions) {
    const at = d.slice(0, -1);
    if (at.length < 1 || !marksWhenEmptied(at) || typeof d.at(-1) !== "number") continue;
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
 * `[..., "security"]` or `[..., "servers"]` (`marksWhenEmptied`) whose holder is kept.
 */
export function markSecurityNotShown(value: Obj, places: readonly Segments[]): void {
  for (const place of places) {
    const holder = valueAt(value, place.slice(0, -1));
    if (!isObj(holder)) continue;
    delete holder[String(place.at(-1))];
    const { key, value: marker } = notShownMarker(place);
    holder[key] = marker;
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
