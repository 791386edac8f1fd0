import { describe } from "../docs-json/zod-issues.js";
import type { SpecSegments } from "../openapi/spec-positions.js";
import type { SpecWarning } from "../openapi/spec-warning.js";
import { SharedFindings } from "./shared-findings.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** One shape rule of an AsyncAPI document: where, what it must be, and what the page does instead. */
export interface Finding {
  readonly at: SpecSegments;
  readonly value: unknown;
  readonly must: string;
  readonly instead: string;
}

/**
 * What of an AsyncAPI 3 document's channels, operations and messages has a shape the reader
 * (`readAsyncapi`) cannot use: each a warning at its place, saying what the page shows instead.
 * The reader leaves such a value out and reads the rest, as the platform's pages show what they
 * can read, so none costs the spec; before, each was left out with no word (`svc-mcp check` said
 * "no problems" for a channel written `7`). `doc` is dereferenced: a `$ref` is checked as what it
 * points at, and its place is the `$ref`'s; a message several channels reach is said once, where
 * `written` (the document as written) writes it (`SharedFindings`).
 */
export function asyncapi3ShapeWarnings(doc: Obj, written?: Obj): SpecWarning[] {
  const out: Finding[] = [];
  const shared = new SharedFindings(out);
  const objectOr = objectOrIn(out);
  serverShapes(doc.servers, "3", out);
  if (isObj(doc.channels)) {
    for (const [id, ch] of Object.entries(doc.channels)) {
      const at = ["channels", id];
      if (!objectOr(at, ch, "an object (a channel)", "left out: no page is made for it")) continue;
      if (ch.address !== undefined && ch.address !== null && typeof ch.address !== "string") {
        out.push({ at: [...at, "address"], value: ch.address, must: "a string or null", instead: `its page shows the channel's id (${JSON.stringify(id)}) as its address` });
      }
      if (objectOr([...at, "messages"], ch.messages, "an object of messages by name", "its page lists no messages")) {
        for (const [name, m] of Object.entries(ch.messages)) shared.once(m, at, () => messageShape([...at, "messages", name], m, out));
      }
      parameterShapes(at, ch.parameters, out);
      if (ch.servers !== undefined && !Array.isArray(ch.servers)) out.push({ at: [...at, "servers"], value: ch.servers, must: "an array of $refs to servers", instead: "its page lists every server" });
      else if (Array.isArray(ch.servers)) ch.servers.forEach((s, i) => objectOr([...at, "servers", i], s, "a $ref to a server", "left out of its page's servers"));
      for (const key of ["publish", "subscribe"]) {
        if (ch[key] !== undefined) out.push({ at: [...at, key], value: ch[key], must: "absent (an AsyncAPI 3 channel's operations are under operations, with action send or receive)", instead: "left out of every page" });
      }
    }
  }
  if (objectOr(["operations"], doc.operations, "an object of operations by id", "no page lists an operation")) {
    for (const [id, op] of Object.entries(doc.operations)) {
      const at = ["operations", id];
      if (!objectOr(at, op, "an object (an operation)", "left out of every page")) continue;
      if (op.action !== "send" && op.action !== "receive") {
        out.push({ at: [...at, "action"], value: op.action, must: '"send" or "receive"', instead: typeof op.action === "string" && op.action.trim() !== "" ? "its page shows the action as written" : "its page shows it without an action" });
      }
      if (!isObj(op.channel)) out.push({ at: [...at, "channel"], value: op.channel, must: "a $ref to a channel", instead: "no channel's page lists it" });
      if (op.messages !== undefined) {
        if (!Array.isArray(op.messages)) out.push({ at: [...at, "messages"], value: op.messages, must: "an array of $refs to its channel's messages", instead: "its page shows every message of its channel" });
        else op.messages.forEach((m, i) => objectOr([...at, "messages", i], m, "a $ref to a message", "left out of its page"));
      }
      if (op.reply !== undefined && objectOr([...at, "reply"], op.reply, "an object (the reply)", "its page shows no reply")) {
        const reply = op.reply;
        if (reply.channel !== undefined && !isObj(reply.channel)) out.push({ at: [...at, "reply", "channel"], value: reply.channel, must: "a $ref to a channel", instead: Array.isArray(reply.messages) && reply.messages.length > 0 ? "its reply names no channel" : "its reply names no channel, and its page shows no reply message" });
        if (reply.messages !== undefined && !Array.isArray(reply.messages)) out.push({ at: [...at, "reply", "messages"], value: reply.messages, must: "an array of $refs to messages", instead: "its page shows every message of the reply channel" });
      }
    }
  }
  return findingWarnings(shared.findings(written));
}

/** The findings as `check` words them: `<JSON path>: must be <what>; got <value>: <what the page does>`. */
export function findingWarnings(out: readonly Finding[]): SpecWarning[] {
  return out.map((f) => ({ message: `${f.at.join(".")}: must be ${f.must}; got ${describe(f.value)}: ${f.instead}`, at: f.at }));
}

/** Whether `value` is an object; when it is there and is not, a finding. */
export function objectOrIn(out: Finding[]): (at: SpecSegments, value: unknown, must: string, instead: string) => value is Obj {
  return (at, value, must, instead): value is Obj => {
    if (value === undefined || isObj(value)) return value !== undefined;
    out.push({ at, value, must, instead });
    return false;
  };
}

/** The document's `servers` (an object of servers by name) and each server's address and protocol, as the reader takes them. */
export function serverShapes(servers: unknown, version: "2" | "3", out: Finding[]): void {
  const objectOr = objectOrIn(out);
  if (!objectOr(["servers"], servers, "an object of servers by name", "no page lists a server")) return;
  for (const [name, s] of Object.entries(servers)) {
    const at = ["servers", name];
    if (!objectOr(at, s, "an object (a server)", "no page lists it")) continue;
    const address = version === "3" ? ["host", "pathname"] : ["url"];
    for (const key of address) if (s[key] !== undefined && typeof s[key] !== "string") out.push({ at: [...at, key], value: s[key], must: "a string", instead: `pages show the server without its ${key}` });
    if (s.protocol !== undefined && typeof s.protocol !== "string") out.push({ at: [...at, "protocol"], value: s.protocol, must: "a string", instead: "pages show the server without a protocol" });
  }
}

/** A channel's `parameters`: an object of parameter objects by name. */
export function parameterShapes(at: SpecSegments, parameters: unknown, out: Finding[]): void {
  const objectOr = objectOrIn(out);
  if (!objectOr([...at, "parameters"], parameters, "an object of parameters by name", "its page lists no parameters")) return;
  for (const [name, p] of Object.entries(parameters)) objectOr([...at, "parameters", name], p, "an object (a parameter)", "listed by name only");
}

/** A message's own shape: the parts its page shows. */
export function messageShape(at: SpecSegments, m: unknown, out: Finding[]): void {
  if (!isObj(m)) {
    out.push({ at, value: m, must: "an object (a message)", instead: "left out of its page" });
    return;
  }
  // null too is left alone: an unresolved `$ref` leaves it (said as such) where a payload was.
  if (m.payload !== undefined && m.payload !== null && !isObj(m.payload)) out.push({ at: [...at, "payload"], value: m.payload, must: "a schema (an object)", instead: "its page shows no payload" });
  if (m.headers !== undefined && m.headers !== null && !isObj(m.headers)) out.push({ at: [...at, "headers"], value: m.headers, must: "a schema (an object)", instead: "its page shows no headers" });
  if (m.examples !== undefined && !Array.isArray(m.examples)) out.push({ at: [...at, "examples"], value: m.examples, must: "an array of examples", instead: "its page shows no examples" });
}
