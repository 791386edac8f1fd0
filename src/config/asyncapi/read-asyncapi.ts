import type { ApiExtension, JsonSchema } from "../openapi/model.js";
import { readPageMeta } from "../page-meta.js";
import { readExtension } from "../openapi/operations.js";
import { pointerSegment } from "../openapi/validate-openapi.js";
import type { AsyncChannel, AsyncMessage, AsyncMessageUse, AsyncOperation, AsyncServer, AsyncServerVariable, AsyncSpec } from "./model.js";
import { appendAll } from "../../arrays.js";
import { asyncOperationRule, followInternal } from "./async-parts.js";
import { withTraits } from "./async-traits.js";
import { readMessage } from "./async-message.js";
import { V2Messages, type V2MessageList } from "./v2-messages.js";
import { type KeyedMessage, V3Messages, usesByScope } from "./v3-messages.js";
import { readFlag } from "../openapi/operation-extensions.js";
import { serversNotShown } from "../openapi/security-not-shown.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

export type AsyncReadResult = { ok: true; spec: AsyncSpec } | { ok: false; message: string };

/**
 * Read channels, operations and messages from a dereferenced AsyncAPI 2.x or 3.x document.
 * A light reader on purpose: `@asyncapi/parser` is 137 packages / 55 MB, takes ~500 ms to
 * import and 530-760 ms per file (it runs a linter); this takes milliseconds and reads what a
 * reference page shows. Structural problems it needs are reported; deeper linting is not ours.
 */
export function readAsyncapi(doc: Obj, source: string, version: "2" | "3", written: Obj = doc): AsyncReadResult {
  const info = isObj(doc.info) ? doc.info : undefined;
  if (info === undefined) return { ok: false, message: `invalid AsyncAPI document: "info" is required` };
  const title = str(info.title);
  if (title === undefined) return { ok: false, message: `invalid AsyncAPI document: "info.title" is required` };
  if (doc.channels !== undefined && !isObj(doc.channels)) {
    return { ok: false, message: `invalid AsyncAPI document: "channels" must be an object` };
  }
  const channels = version === "3" ? readV3(doc, written) : readV2(doc, written);
  const description = str(info.description);
  return {
    ok: true,
    spec: {
      format: "asyncapi",
      source,
      version: String(doc.asyncapi),
      title,
      ...(description !== undefined ? { description } : {}),
      servers: readServers(doc.servers, version),
      channels,
    },
  };
}

function readServers(servers: unknown, version: "2" | "3"): AsyncServer[] {
  if (!isObj(servers)) return [];
  const out: AsyncServer[] = [];
  for (const [name, s] of Object.entries(servers)) {
    if (!isObj(s)) continue;
    const url = version === "3" ? `${str(s.host) ?? ""}${str(s.pathname) ?? ""}` : (str(s.url) ?? "");
    const description = str(s.description);
    const variables = serverVariables(s.variables);
    out.push({ name, url, protocol: str(s.protocol) ?? "", ...(description !== undefined ? { description } : {}), ...(variables.length > 0 ? { variables } : {}) });
  }
  return out;
}

/** A server's `variables` (`{port}` in `test.mosquitto.org:{port}`): default and allowed values. */
function serverVariables(v: unknown): AsyncServerVariable[] {
  if (!isObj(v)) return [];
  return Object.entries(v)
    .filter((e): e is [string, Obj] => isObj(e[1]))
    .map(([name, x]) => {
      const def = typeof x.default === "string" || typeof x.default === "number" ? String(x.default) : undefined;
      const values = Array.isArray(x.enum) ? x.enum.filter((e) => typeof e === "string" || typeof e === "number").map(String) : [];
      const description = str(x.description);
      return { name, ...(def !== undefined ? { default: def } : {}), values, ...(description !== undefined ? { description } : {}) };
    });
}

/**
 * `written` is the document before dereferencing: a message's name comes from the reference the
 * operation itself writes, never from the object's identity (two keys may hold one object, and
 * the key only a restricted operation names is its text, adversary: STAFFKEYNAME on a public page).
 */
function readV3(doc: Obj, written: Obj): AsyncChannel[] {
  const channels = isObj(doc.channels) ? doc.channels : {};
  const operations = isObj(doc.operations) ? doc.operations : {};
  const serverNames = new Map<unknown, string>();
  if (isObj(doc.servers)) for (const [n, s] of Object.entries(doc.servers)) serverNames.set(s, n);
  // Every channel's messages, read first: an operation (or its reply) naming one of them shares
  // its object (dereferencing keeps identity), and so does another channel's `$ref` to it, so the
  // page can tell which operations carry which message on any channel. Read once a spec load,
  // however many channels carry a message (`V3Messages`).
  const messages = new V3Messages(doc, written);
  for (const ch of Object.values(channels)) if (isObj(ch)) messages.addChannel(ch);
  const writtenOps = isObj(written.operations) ? written.operations : {};
  const named = (items: unknown): (KeyedMessage | undefined)[] => (Array.isArray(items) ? items.map((item) => messages.keyed(item)) : []);
  // Each channel's operations, and the operations whose `reply` names it, in the order written:
  // found once, where each channel looked through every operation (2,000 channels and as many
  // operations: 4,000,000 steps, 3 s of a load, adversary round 62b). Dereferencing keeps
  // identity: an operation's channel is the very channel object.
  const onChannel = new Map<unknown, [string, Obj][]>();
  const replyingTo = new Map<unknown, Obj[]>();
  for (const [opId, op] of Object.entries(operations)) {
    if (!isObj(op)) continue;
    appendTo(onChannel, op.channel, [opId, op]);
    if (isObj(op.reply)) appendTo(replyingTo, op.reply.channel, op);
  }
  const out: AsyncChannel[] = [];
  for (const [id, ch] of Object.entries(channels)) {
    if (!isObj(ch)) continue;
    const ops: AsyncOperation[] = [];
    for (const [opId, op] of onChannel.get(ch) ?? []) {
      const writtenOp = followInternal(written, writtenOps[opId]);
      const keyed = named(isObj(writtenOp) ? writtenOp.messages : undefined);
      // A message is the one its `$ref` names in a channel's map (`$ref:
      // '#/channels/x/messages/event'` is `event`); one written otherwise is read on its own.
      const own: KeyedMessage[] = [];
      const carriedHere = (Array.isArray(op.messages) ? op.messages : []).flatMap((m, i) => {
        if (!isObj(m)) return [];
        const k = keyed[i];
        if (k !== undefined) own.push(k);
        return [k?.message ?? readMessage(m, `message${i + 1}`)];
      });
      const replyWritten = isObj(writtenOp) && isObj(writtenOp.reply) ? followInternal(written, writtenOp.reply) : undefined;
      const uses = [...usesByScope(own), ...replyUses(op, isObj(replyWritten) ? named(replyWritten.messages) : [], messages)];
      const all = carriedHere.length > 0 ? carriedHere : messages.of(ch);
      ops.push(operation(opId, str(op.action) ?? "", op, all, carriedHere.length > 0 ? uses : [...messages.allOf(ch), ...uses], carried(op, ch, messages)));
    }
    const servers = Array.isArray(ch.servers) ? ch.servers.map((s) => serverNames.get(s)).filter((n): n is string => n !== undefined) : [];
    const rule = ops.length === 0 ? replyOnlyRule(ch, replyingTo.get(ch) ?? []) : undefined;
    out.push(channel(id, str(ch.address) ?? id, ch, ops, messages.of(ch), messages.scopeOf(ch) ?? 0, servers, rule, `/channels/${pointerSegment(id)}`));
  }
  return out;
}

/**
 * The messages an AsyncAPI 3 operation carries, on any channel: those its `messages` names (all
 * of its channel's when it names none) and those its `reply` names (all of the reply channel's
 * when the reply names none): a reply's message is the operation's text as much as its own.
 */
/**
 * A channel no operation is on that only restricted operations' `reply` names is theirs (its
 * address, description and messages are their text): it is restricted to their groups, page and
 * spec file alike, unless it has a rule of its own. Fails closed: any such operation's rule counts.
 */
function replyOnlyRule(ch: Obj, replying: readonly Obj[]): ApiExtension | undefined {
  if (readExtension(ch) !== undefined) return undefined;
  const groups = new Set<string>();
  let replied = false;
  for (const op of replying) {
    replied = true;
    // The operation's rule with its traits' (`asyncOperationRule`): a rule written on a trait is
    // the operation's (adversary round 50 F1: the reply channel stayed public).
    const metadata = asyncOperationRule(op)?.metadata;
    const meta = metadata === undefined ? undefined : readPageMeta(metadata);
    if (meta === undefined || meta.public === true || meta.groups === undefined) return undefined;
    for (const g of meta.groups) groups.add(g);
  }
  return replied ? { metadata: { groups: [...groups] } } : undefined;
}

/** The messages an operation's `reply` names by key (all of the reply channel's when it names none). */
function replyUses(op: Obj, keyed: readonly (KeyedMessage | undefined)[], messages: V3Messages): AsyncMessageUse[] {
  if (!isObj(op.reply)) return [];
  const written = Array.isArray(op.reply.messages) ? op.reply.messages.filter(isObj) : [];
  if (written.length > 0) return usesByScope(keyed.filter((m): m is KeyedMessage => m !== undefined));
  return messages.allOf(op.reply.channel);
}

/** `value` appended to `key`'s list in `map`. */
function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function carried(op: Obj, ch: Obj, messages: V3Messages): AsyncMessage[] {
  const out: AsyncMessage[] = [];
  const add = (named: unknown, channel: unknown): void => {
    const written = Array.isArray(named) ? named.filter(isObj) : [];
    const objects = written.length > 0 ? written : isObj(channel) && isObj(channel.messages) ? Object.values(channel.messages).filter(isObj) : [];
    for (const m of objects) appendAll(out, messages.holdingObject(m));
  };
  add(op.messages, ch);
  if (isObj(op.reply)) add(op.reply.messages, op.reply.channel);
  return out;
}

/**
 * `written` is the document before dereferencing: a message without `messageId` or `name` is
 * called by the `components.messages` key the operation's own `$ref` names, never by a key found
 * by the object's identity (a YAML alias of a component only a restricted operation names by
 * `$ref` made the public operation's message carry that key, adversary: STAFFMSGNAME).
 */
function readV2(doc: Obj, asWritten: Obj): AsyncChannel[] {
  const channels = isObj(doc.channels) ? doc.channels : {};
  const writtenChannels = isObj(asWritten.channels) ? asWritten.channels : {};
  const messages = new V2Messages(asWritten);
  const out: AsyncChannel[] = [];
  for (const [id, ch] of Object.entries(channels)) {
    if (!isObj(ch)) continue;
    const writtenCh = followInternal(asWritten, writtenChannels[id]);
    // One entry per message object: a message both operations carry (a `$ref` to one
    // component) is listed once under Messages, and both name it. Operations without a rule
    // read theirs first, so a message an open operation shares with a restricted one is never
    // called by the restricted one's name (`v2MessageName`). The first operation's list is the
    // spec's (`V2Messages`: read once however many channels carry it); a second reads on from it.
    const written = (["publish", "subscribe"] as const).flatMap((action) => (isObj(ch[action]) ? [{ action, op: ch[action] as Obj }] : []));
    const carried = new Map<string, readonly AsyncMessage[]>();
    let first: V2MessageList | undefined;
    let read: Map<Obj, AsyncMessage> | undefined;
    for (const { action, op } of [...written].sort((a, b) => Number(asyncOperationRule(a.op) !== undefined) - Number(asyncOperationRule(b.op) !== undefined))) {
      const writtenOp = isObj(writtenCh) ? followInternal(asWritten, writtenCh[action]) : undefined;
      const list = messages.list(op.message, isObj(writtenOp) ? writtenOp.message : undefined, str(withTraits(op).operationId) ?? action);
      if (first === undefined) {
        first = list;
        carried.set(action, list.messages);
        continue;
      }
      if (read === undefined) {
        read = new Map();
        readOn(read, first);
      }
      carried.set(action, readOn(read, list));
    }
    const channelMessages = read !== undefined ? [...read.values()] : (first?.distinct ?? []);
    const ops = written.map(({ action, op }): AsyncOperation => {
      const operationId = str(withTraits(op).operationId);
      const messages = carried.get(action) ?? [];
      const uses = [{ scope: out.length, messages }];
      return { ...operation(operationId ?? `${action} ${id}`, action, op, messages, uses, messages), ...(operationId === undefined ? { unnamed: true as const } : {}) };
    });
    const servers = Array.isArray(ch.servers) ? ch.servers.filter((s): s is string => typeof s === "string") : [];
    // A 2.x page decides from its own channel's operations only (`channelPageMessages`): its scope is its place.
    out.push(channel(id, id, ch, ops, channelMessages, out.length, servers, undefined, `/channels/${pointerSegment(id)}`));
  }
  return out;
}

/** `list`'s messages, each object called by the name `read` knows it by when it knows it (`read` learns the rest). */
function readOn(read: Map<Obj, AsyncMessage>, list: V2MessageList): AsyncMessage[] {
  return list.objects.map((x, i) => {
    const known = read.get(x);
    if (known !== undefined) return known;
    const m = list.messages[i] as AsyncMessage;
    read.set(x, m);
    return m;
  });
}

function operation(id: string, action: string, op: Obj, messages: readonly AsyncMessage[], uses: readonly AsyncMessageUse[], touches: readonly AsyncMessage[]): AsyncOperation {
  // Its traits' summary, description and bindings are its own; its rule is read from the
  // operation as written (`asyncOperationRule` narrows it by each trait's).
  const merged = withTraits(op);
  const summary = str(merged.summary);
  const description = str(merged.description);
  const extension = asyncOperationRule(op);
  return {
    id,
    action,
    ...(isObj(merged.bindings) ? { bindings: merged.bindings } : {}),
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    messages,
    uses,
    touches,
    ...(extension !== undefined ? { extension } : {}),
  };
}

function channel(
  id: string,
  address: string,
  ch: Obj,
  operations: AsyncOperation[],
  messages: readonly AsyncMessage[],
  scope: number,
  servers: string[],
  rule: ApiExtension | undefined,
  pointer: string,
): AsyncChannel {
  const title = str(ch.title);
  const summary = str(ch.summary);
  const description = str(ch.description);
  const extension = rule ?? readExtension(ch);
  const parameters = isObj(ch.parameters)
    ? Object.entries(ch.parameters).map(([name, p]) => {
        const d = isObj(p) ? str(p.description) : undefined;
        const schema = isObj(p) ? parameterSchema(p) : undefined;
        return { name, ...(d !== undefined ? { description: d } : {}), ...(schema !== undefined ? { schema } : {}) };
      })
    : [];
  return {
    id,
    address,
    ...(title !== undefined ? { title } : {}),
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    parameters,
    ...(isObj(ch.bindings) ? { bindings: ch.bindings } : {}),
    operations,
    messages,
    scope,
    servers,
    ...(serversNotShown(ch) ? { serversNotShown: true as const } : {}),
    hidden: readFlag(ch["x-hidden"]) || (extension?.metadata !== undefined && readPageMeta(extension.metadata).hidden),
    ...(extension !== undefined ? { extension } : {}),
    pointer,
  };
}

/** A channel parameter's schema: 2.x `schema`; 3.x a string with its `enum` and `default`. */
function parameterSchema(p: Obj): JsonSchema | undefined {
  if (isObj(p.schema)) return p.schema as JsonSchema;
  if (!Array.isArray(p.enum) && p.default === undefined) return undefined;
  return { type: "string", ...(Array.isArray(p.enum) ? { enum: p.enum } : {}), ...(p.default !== undefined ? { default: p.default } : {}) } as JsonSchema;
}
