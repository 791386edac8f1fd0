import type { AsyncMessage } from "./model.js";
import { readMessage } from "./async-message.js";
import { v2MessageName, withTraits } from "./async-traits.js";
import { followInternal } from "./async-parts.js";
import { refSegments, type Segments } from "../openapi/prune-spec.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** The `components.messages` key a 2.x operation's written `message` names (`single`), or each of its `oneOf` items. */
interface ComponentKeys {
  readonly single?: string;
  readonly oneOf: readonly (string | undefined)[];
}

/** What an operation's `message` reads as: each message in order, and each message object once (the channel's). */
export interface V2MessageList {
  readonly messages: readonly AsyncMessage[];
  readonly objects: readonly Obj[];
  readonly distinct: readonly AsyncMessage[];
}

const NO_KEYS: ComponentKeys = { oneOf: [] };

/**
 * The messages of one AsyncAPI 2 document's operations, each read once per spec load: a message
 * shared by `$ref` (dereferencing keeps identity: one object) across channels was read again on
 * each channel, and so was its `oneOf` list: a `oneOf` of 10,000 messages on 250 channels was
 * 2,500,000 message objects, most of `check`'s 900 MB (docs/security.md row 212). A message is
 * its object and the name it is called by (`v2MessageName`), so channels calling one object by
 * different names still read their own; an operation's list is shared by every operation whose
 * `message` is the same object written by the same `$ref` and, when a message's name falls back
 * to the operation's, of the same name.
 */
export class V2Messages {
  private readonly read = new Map<Obj, Map<string, AsyncMessage>>();
  private readonly keysByRef = new Map<unknown, ComponentKeys>();
  private readonly lists = new Map<Obj, Map<ComponentKeys, Map<string | null, V2MessageList>>>();

  constructor(private readonly written: Obj) {}

  /** `message` (dereferenced) of an operation called `operationName` whose written `message` is `writtenMessage`. */
  list(message: unknown, writtenMessage: unknown, operationName: string): V2MessageList {
    if (!isObj(message)) return { messages: [], objects: [], distinct: [] };
    const keys = this.keysOf(writtenMessage);
    let byKeys = this.lists.get(message);
    if (byKeys === undefined) this.lists.set(message, (byKeys = new Map()));
    let byName = byKeys.get(keys);
    if (byName === undefined) byKeys.set(keys, (byName = new Map()));
    const known = byName.get(null) ?? byName.get(operationName);
    if (known !== undefined) return known;
    const items = Array.isArray(message.oneOf) ? message.oneOf.filter(isObj) : [message];
    const key = (index: number): string | undefined => (Array.isArray(message.oneOf) ? keys.oneOf[index] : keys.single);
    const seen = new Map<Obj, AsyncMessage>();
    let named = false;
    const messages = items.map((x, i) => {
      const hit = seen.get(x);
      if (hit !== undefined) return hit;
      // Called by the operation only when it writes no name, `messageId` or key (`v2MessageName`).
      named ||= str(withTraits(x).name) === undefined && str(x.messageId) === undefined && key(i) === undefined;
      const m = this.message(x, v2MessageName(x, key(i), operationName, Array.isArray(message.oneOf) ? i : undefined));
      seen.set(x, m);
      return m;
    });
    const distinct = seen.size === messages.length ? messages : [...seen.values()];
    const out = { messages, objects: items, distinct };
    byName.set(named ? operationName : null, out);
    return out;
  }

  /** `x` called `name`: read once. */
  message(x: Obj, name: string): AsyncMessage {
    let byName = this.read.get(x);
    if (byName === undefined) this.read.set(x, (byName = new Map()));
    let m = byName.get(name);
    if (m === undefined) byName.set(name, (m = readMessage(x, name)));
    return m;
  }

  /** The keys a written `message` names; one answer for every `message` written as the same `$ref`. */
  private keysOf(writtenMessage: unknown): ComponentKeys {
    if (!isObj(writtenMessage)) return NO_KEYS;
    const id = typeof writtenMessage.$ref === "string" ? `$ref ${writtenMessage.$ref}` : writtenMessage;
    let keys = this.keysByRef.get(id);
    if (keys === undefined) this.keysByRef.set(id, (keys = componentKeysOf(this.written, writtenMessage)));
    return keys;
  }
}

/**
 * The `components.messages` key a 2.x operation's written `message` names by `$ref` (followed
 * hop by hop), by `oneOf` index (`single` for a message without `oneOf`).
 */
function componentKeysOf(written: Obj, message: unknown): ComponentKeys {
  const keyOfRef = (item: unknown): string | undefined => {
    let node = item;
    for (let hops = 0; hops < 8 && isObj(node) && typeof node.$ref === "string"; hops++) {
      const target = refSegments(node.$ref);
      if (target === undefined) return undefined;
      if (target.length === 3 && target[0] === "components" && target[1] === "messages") return String(target[2]);
      node = at(written, target);
    }
    return undefined;
  };
  const value = followInternal(written, message);
  const oneOf = isObj(value) && Array.isArray(value.oneOf) ? value.oneOf.map(keyOfRef) : [];
  const single = keyOfRef(message);
  return { ...(single !== undefined ? { single } : {}), oneOf };
}

function at(root: unknown, segments: Segments): unknown {
  let node = root;
  for (const s of segments) node = isObj(node) ? node[s] : Array.isArray(node) ? node[Number(s)] : undefined;
  return node;
}
