import type { SpecWarning } from "../openapi/spec-warning.js";
import { SharedFindings } from "./shared-findings.js";
import { type Finding, findingWarnings, messageShape, objectOrIn, parameterShapes, serverShapes } from "./async-shapes.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What of an AsyncAPI 2 document's servers, channels, operations and messages has a shape the
 * reader (`readAsyncapi`) cannot use, as `asyncapi3ShapeWarnings` says for 3.x (adversary F9:
 * `servers` written as a list, a channel's `publish` written `5`, a `message` that is a string
 * gave no word from `check`; the page silently showed less). Each is a warning at its place; the
 * reader leaves the value out and reads on. `doc` is dereferenced; `written`, the document as
 * written, says where a message several operations reach is written (`SharedFindings`).
 */
export function asyncapi2ShapeWarnings(doc: Obj, written?: Obj): SpecWarning[] {
  const out: Finding[] = [];
  const shared = new SharedFindings(out);
  const objectOr = objectOrIn(out);
  serverShapes(doc.servers, "2", out);
  if (isObj(doc.channels)) {
    for (const [id, ch] of Object.entries(doc.channels)) {
      const at = ["channels", id];
      if (!objectOr(at, ch, "an object (a channel)", "left out: no page is made for it")) continue;
      if (ch.servers !== undefined && !Array.isArray(ch.servers)) out.push({ at: [...at, "servers"], value: ch.servers, must: "an array of server names", instead: "its page lists every server" });
      else if (Array.isArray(ch.servers)) {
        ch.servers.forEach((s, i) => {
          if (typeof s !== "string") out.push({ at: [...at, "servers", i], value: s, must: "a server name (a string)", instead: "left out of its page's servers" });
        });
      }
      parameterShapes(at, ch.parameters, out);
      // AsyncAPI 3's words in a 2.x channel: read as nothing.
      for (const key of ["send", "receive", "operations", "messages"]) {
        if (ch[key] !== undefined) out.push({ at: [...at, key], value: ch[key], must: "absent (an AsyncAPI 2 channel's operations are publish and subscribe)", instead: "left out of every page" });
      }
      for (const action of ["publish", "subscribe"] as const) {
        if (objectOr([...at, action], ch[action], "an object (an operation)", "left out of its page")) operationShape([...at, action], ch[action] as Obj, out, shared);
      }
    }
  }
  return findingWarnings(shared.findings(written));
}

/** A 2.x operation's `message`: one message, or `oneOf` a list of them (each message checked once, `SharedFindings`). */
function operationShape(at: readonly (string | number)[], op: Obj, out: Finding[], shared: SharedFindings<Finding>): void {
  const objectOr = objectOrIn(out);
  if (!objectOr([...at, "message"], op.message, "a message (an object)", "its page shows no message for it")) return;
  const message = op.message as Obj;
  if (message.oneOf === undefined) {
    shared.once(message, at, () => messageShape([...at, "message"], message, out));
    return;
  }
  if (!Array.isArray(message.oneOf)) {
    shared.once(message, at, () => {
      out.push({ at: [...at, "message", "oneOf"], value: message.oneOf, must: "an array of messages", instead: "its page shows the message as one, without it" });
      messageShape([...at, "message"], message, out);
    });
    return;
  }
  message.oneOf.forEach((m, i) => shared.once(m, at, () => messageShape([...at, "message", "oneOf", i], m, out)));
}
