import type { ApiExample, JsonSchema } from "../openapi/model.js";
import { readExtension } from "../openapi/operations.js";
import { pointerSegment } from "../openapi/validate-openapi.js";
import type { AsyncChannel, AsyncMessage, AsyncOperation, AsyncServer, AsyncSpec } from "./model.js";
import { appendAll } from "../../arrays.js";

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
export function readAsyncapi(doc: Obj, source: string, version: "2" | "3"): AsyncReadResult {
  const info = isObj(doc.info) ? doc.info : undefined;
  if (info === undefined) return { ok: false, message: `invalid AsyncAPI document: "info" is required` };
  const title = str(info.title);
  if (title === undefined) return { ok: false, message: `invalid AsyncAPI document: "info.title" is required` };
  if (doc.channels !== undefined && !isObj(doc.channels)) {
    return { ok: false, message: `invalid AsyncAPI document: "channels" must be an object` };
  }
  const channels = version === "3" ? readV3(doc) : readV2(doc);
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
    out.push({ name, url, protocol: str(s.protocol) ?? "", ...(description !== undefined ? { description } : {}) });
  }
  return out;
}

function readV3(doc: Obj): AsyncChannel[] {
  const channels = isObj(doc.channels) ? doc.channels : {};
  const operations = isObj(doc.operations) ? doc.operations : {};
  const serverNames = new Map<unknown, string>();
  if (isObj(doc.servers)) for (const [n, s] of Object.entries(doc.servers)) serverNames.set(s, n);
  const out: AsyncChannel[] = [];
  for (const [id, ch] of Object.entries(channels)) {
    if (!isObj(ch)) continue;
    const ops: AsyncOperation[] = [];
    // The channel's messages, read once: an operation naming one of them (dereferencing keeps
    // identity) shares its object, so the page can tell which operations use which message.
    const byObject = new Map<Obj, AsyncMessage>();
    const channelMessages = readMessageMap(ch.messages, byObject);
    for (const [opId, op] of Object.entries(operations)) {
      if (!isObj(op)) continue;
      // Dereferencing keeps identity: the operation's channel is the same object as this one.
      if (op.channel !== ch) continue;
      const written = Array.isArray(op.messages) ? op.messages.filter(isObj) : [];
      const messages = written.map((m, i) => readMessage(m, `message${i + 1}`));
      // An operation naming no message carries all of its channel's.
      const uses = written.length > 0 ? written.map((m) => byObject.get(m)).filter((m): m is AsyncMessage => m !== undefined) : channelMessages;
      ops.push(operation(opId, str(op.action) ?? "", op, messages.length > 0 ? messages : readMessageMap(ch.messages), uses));
    }
    const servers = Array.isArray(ch.servers) ? ch.servers.map((s) => serverNames.get(s)).filter((n): n is string => n !== undefined) : [];
    out.push(channel(id, str(ch.address) ?? id, ch, ops, channelMessages, servers, `/channels/${pointerSegment(id)}`));
  }
  return out;
}

function readV2(doc: Obj): AsyncChannel[] {
  const channels = isObj(doc.channels) ? doc.channels : {};
  const out: AsyncChannel[] = [];
  for (const [id, ch] of Object.entries(channels)) {
    if (!isObj(ch)) continue;
    const ops: AsyncOperation[] = [];
    const all: AsyncMessage[] = [];
    for (const action of ["publish", "subscribe"] as const) {
      const op = ch[action];
      if (!isObj(op)) continue;
      const messages = readV2Message(op.message);
      appendAll(all, messages);
      ops.push(operation(str(op.operationId) ?? `${action} ${id}`, action, op, messages, messages));
    }
    const servers = Array.isArray(ch.servers) ? ch.servers.filter((s): s is string => typeof s === "string") : [];
    out.push(channel(id, id, ch, ops, all, servers, `/channels/${pointerSegment(id)}`));
  }
  return out;
}

function readV2Message(m: unknown): AsyncMessage[] {
  if (!isObj(m)) return [];
  if (Array.isArray(m.oneOf)) return m.oneOf.filter(isObj).map((x, i) => readMessage(x, `message${i + 1}`));
  return [readMessage(m, "message")];
}

function readMessageMap(messages: unknown, byObject?: Map<Obj, AsyncMessage>): AsyncMessage[] {
  if (!isObj(messages)) return [];
  return Object.entries(messages)
    .filter((e): e is [string, Obj] => isObj(e[1]))
    .map(([key, m]) => {
      const read = readMessage(m, key);
      byObject?.set(m, read);
      return read;
    });
}

function operation(id: string, action: string, op: Obj, messages: AsyncMessage[], uses: readonly AsyncMessage[]): AsyncOperation {
  const summary = str(op.summary);
  const description = str(op.description);
  const extension = readExtension(op);
  return {
    id,
    action,
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    messages,
    uses,
    ...(extension !== undefined ? { extension } : {}),
  };
}

function channel(
  id: string,
  address: string,
  ch: Obj,
  operations: AsyncOperation[],
  messages: AsyncMessage[],
  servers: string[],
  pointer: string,
): AsyncChannel {
  const title = str(ch.title);
  const summary = str(ch.summary);
  const description = str(ch.description);
  const extension = readExtension(ch);
  const parameters = isObj(ch.parameters)
    ? Object.entries(ch.parameters).map(([name, p]) => {
        const d = isObj(p) ? str(p.description) : undefined;
        const schema = isObj(p) && isObj(p.schema) ? (p.schema as JsonSchema) : undefined;
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
    operations,
    messages,
    servers,
    hidden: ch["x-hidden"] === true,
    ...(extension !== undefined ? { extension } : {}),
    pointer,
  };
}

function readMessage(m: Obj, fallbackName: string): AsyncMessage {
  const title = str(m.title);
  const summary = str(m.summary);
  const description = str(m.description);
  const contentType = str(m.contentType);
  const examples: ApiExample[] = Array.isArray(m.examples)
    ? m.examples.filter(isObj).map((e, i) => {
        const s = str(e.summary);
        return { name: str(e.name) ?? `example${i + 1}`, ...(s !== undefined ? { summary: s } : {}), value: e.payload ?? e };
      })
    : [];
  return {
    name: str(m.name) ?? fallbackName,
    ...(title !== undefined ? { title } : {}),
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(contentType !== undefined ? { contentType } : {}),
    ...(isObj(m.payload) ? { payload: (isObj(m.payload.schema) && str(m.payload.schemaFormat) !== undefined ? m.payload.schema : m.payload) as JsonSchema } : {}),
    ...(isObj(m.headers) ? { headers: m.headers as JsonSchema } : {}),
    examples,
  };
}
