import type { AsyncMessage, AsyncMessageUse } from "./model.js";
import { readMessage } from "./async-message.js";
import { refSegments, type Segments } from "../openapi/prune-spec.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A message a written `$ref` names by its key in a channel's `messages` map, and that channel's scope. */
export interface KeyedMessage {
  readonly scope: number;
  readonly message: AsyncMessage;
}

interface ChannelMap {
  readonly scope: number;
  readonly keys: Map<string, AsyncMessage>;
}

/**
 * The messages of one AsyncAPI 3 document's channels, each read once per spec load. Channels
 * whose `messages` maps `$ref` the same components (dereferencing keeps identity: one object)
 * each read their own copy before: 100 channels sharing 2,000 messages were 200,000 message
 * objects, and every operation's `touches` listed every copy of each (20,000,000 entries), 8.7 s
 * of `check` and 552 MB (docs/security.md row 212). A message is its object and the key it is
 * called by, so two keys holding one object are still two messages (the other key's name is not
 * its text). Which channel names a message is kept beside it (`AsyncMessageUse.scope`), so a page
 * still decides from what is named on its own channel.
 */
export class V3Messages {
  private readonly read = new Map<Obj, Map<string, AsyncMessage>>();
  private readonly holding = new Map<Obj, AsyncMessage[]>();
  private readonly maps = new Map<Obj, ChannelMap>();
  private readonly scopes = new Map<Obj, number>();
  private readonly channels = new Map<Obj, readonly AsyncMessage[]>();

  constructor(
    private readonly doc: Obj,
    private readonly written: Obj,
  ) {}

  /**
   * Read `ch`'s `messages` map. A channel object met again (two keys holding it) is one channel:
   * one scope, its map read again as before (the last read names its keys).
   */
  addChannel(ch: Obj): void {
    let scope = this.scopes.get(ch);
    if (scope === undefined) this.scopes.set(ch, (scope = this.scopes.size));
    const map = ch.messages;
    if (!isObj(map)) {
      this.channels.set(ch, []);
      return;
    }
    const keys = new Map<string, AsyncMessage>();
    this.maps.set(map, { scope, keys });
    const messages: AsyncMessage[] = [];
    for (const [key, m] of Object.entries(map)) {
      if (!isObj(m)) continue;
      const message = this.message(m, key);
      keys.set(key, message);
      messages.push(message);
    }
    this.channels.set(ch, messages);
  }

  /** The scope of a channel object `addChannel` read (undefined for any other). */
  scopeOf(ch: unknown): number | undefined {
    return isObj(ch) ? this.scopes.get(ch) : undefined;
  }

  /** A channel's messages in the order its map writes them (empty for a channel not read). */
  of(ch: unknown): readonly AsyncMessage[] {
    return (isObj(ch) ? this.channels.get(ch) : undefined) ?? [];
  }

  /** All of channel `ch`'s messages, as one use on its scope (none for a channel not read). */
  allOf(ch: unknown): AsyncMessageUse[] {
    const scope = this.scopeOf(ch);
    return scope === undefined ? [] : [{ scope, messages: this.of(ch) }];
  }

  /** Every channel message holding the object `m`, under any key. */
  holdingObject(m: Obj): readonly AsyncMessage[] {
    return this.holding.get(m) ?? [];
  }

  /**
   * The channel message a written `$ref` (followed hop by hop) names by its key in a channel's
   * `messages` map; undefined for anything else (inline, a YAML alias, `components.messages`).
   */
  keyed(item: unknown): KeyedMessage | undefined {
    let node = item;
    for (let hops = 0; hops < 8 && isObj(node) && typeof node.$ref === "string"; hops++) {
      const target = refSegments(node.$ref);
      if (target === undefined) return undefined;
      if (target.length >= 2 && target[target.length - 2] === "messages") {
        const map = at(this.doc, target.slice(0, -1));
        const known = isObj(map) ? this.maps.get(map) : undefined;
        const hit = known?.keys.get(String(target[target.length - 1]));
        if (known !== undefined && hit !== undefined) return { scope: known.scope, message: hit };
      }
      node = at(this.written, target);
    }
    return undefined;
  }

  /** `x` called `key`: read once. */
  private message(x: Obj, key: string): AsyncMessage {
    let byKey = this.read.get(x);
    if (byKey === undefined) this.read.set(x, (byKey = new Map()));
    let m = byKey.get(key);
    if (m === undefined) {
      byKey.set(key, (m = readMessage(x, key)));
      const same = this.holding.get(x);
      if (same !== undefined) same.push(m);
      else this.holding.set(x, [m]);
    }
    return m;
  }
}

/** Uses grouped by scope, in the order each scope is first named. */
export function usesByScope(named: readonly KeyedMessage[]): AsyncMessageUse[] {
  const byScope = new Map<number, AsyncMessage[]>();
  for (const { scope, message } of named) {
    const list = byScope.get(scope);
    if (list === undefined) byScope.set(scope, [message]);
    else list.push(message);
  }
  return [...byScope].map(([scope, messages]) => ({ scope, messages }));
}

function at(root: unknown, segments: Segments): unknown {
  let node = root;
  for (const s of segments) node = isObj(node) ? node[s] : Array.isArray(node) ? node[Number(s)] : undefined;
  return node;
}
