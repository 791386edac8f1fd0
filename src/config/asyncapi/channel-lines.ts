import type { SchemaBudget } from "../openapi/schema-budget.js";
import type { AsyncOperation, AsyncServer } from "./model.js";
import { headingText, inlineCode } from "../openapi/inline-code.js";

/** Characters of one protocol's bindings a page writes (a binding is a few fields: `qos: 1`). */
const MAX_BINDING_CHARS = 300;

/**
 * A server as a channel page names it: `production` (`mqtt test.mosquitto.org:{port}`; `port`: `1883`
 * (default), `8883`). The variables say what `{port}` may be: before, the page left the braces
 * for the reader to guess.
 */
export function serverText(s: AsyncServer): string {
  const vars = (s.variables ?? []).map((v) => {
    const values = v.values.length > 0 ? v.values : v.default !== undefined ? [v.default] : [];
    const listed = values.map((x) => (x === v.default ? `${inlineCode(x)} (default)` : inlineCode(x)));
    if (v.default !== undefined && !values.includes(v.default)) listed.unshift(`${inlineCode(v.default)} (default)`);
    return `${inlineCode(v.name)}${listed.length > 0 ? `: ${listed.join(", ")}` : ""}`;
  });
  return `${inlineCode(s.name)} (${[inlineCode(`${s.protocol} ${s.url}`), ...vars].join("; ")})`;
}

/**
 * `Bindings: `mqtt` {"qos":1}`: each protocol's fields as one line of JSON, taken from the page's
 * budget as any data value (`SchemaBudget.data`), and clipped (a binding is a few fields; a long one is in the
 * spec file, which Source names).
 */
export function bindingsLine(bindings: Readonly<Record<string, unknown>> | undefined, nodes: SchemaBudget): string | undefined {
  if (bindings === undefined) return undefined;
  const parts: string[] = [];
  for (const [protocol, value] of Object.entries(bindings)) {
    const data = nodes.data(value);
    const json = JSON.stringify(data) ?? "null";
    // A long binding (Gemini's `ws.query` is a whole schema) is named by its keys: the spec file,
    // which Source names, holds it; a JSON line cut mid-way reads as nothing.
    if (json.length > MAX_BINDING_CHARS && typeof data === "object" && data !== null && !Array.isArray(data)) parts.push(`${inlineCode(protocol)} (${Object.keys(data).map(inlineCode).join(", ")}: see the spec file)`);
    else if (json === "{}") parts.push(inlineCode(protocol));
    else parts.push(`${inlineCode(protocol)} ${inlineCode(json.length <= MAX_BINDING_CHARS ? json : `${json.slice(0, MAX_BINDING_CHARS)}…`)}`);
  }
  return parts.length > 0 ? `Bindings: ${parts.join(", ")}` : undefined;
}

/** An operation's heading: its action and name (a 2.x operation without `operationId`: its action alone). */
export function operationHeading(op: AsyncOperation): string {
  return op.unnamed === true ? `### ${headingText(op.action.toUpperCase())}` : `### ${headingText(`${op.action.toUpperCase()} ${op.id}`)}`;
}
