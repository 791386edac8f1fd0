import { SchemaBudget } from "../openapi/schema-budget.js";
import type { AsyncChannel, AsyncOperation, AsyncServer, AsyncSpec } from "./model.js";
import { headingText, inlineCode } from "../openapi/inline-code.js";

/** Characters of one protocol's bindings a page writes (a binding is a few fields: `qos: 1`). */
const MAX_BINDING_CHARS = 300;

/** Each server's text (`serverText`), worked out once: a spec's servers are listed on many of its pages. */
const serverTexts = new WeakMap<AsyncServer, string>();

/**
 * The servers a channel's page lists: those it names, every server of the spec when it names
 * none. Each an entry of the page's budget (`SchemaBudget.takeEntry`), the list taking at most a
 * quarter of it (`SERVERS_SHARE`): the channel's own operations and messages come after it and
 * matter more. Before (adversary round 62b), 1,000 servers were written on each of 2,000 pages
 * that named none, free; charged without the share, they took the whole page. None when the
 * servers it named are not shown (`serversNotShown`): the page says so instead.
 */
export function channelServers(spec: AsyncSpec, ch: AsyncChannel, nodes: SchemaBudget): Listed {
  if (ch.serversNotShown === true) return { shown: [], more: 0 };
  const named = new Set(ch.servers);
  const servers = spec.servers.filter((s) => named.size === 0 || named.has(s.name));
  const text = (s: AsyncServer): string => {
    let t = serverTexts.get(s);
    if (t === undefined) serverTexts.set(s, (t = serverText(s)));
    return t;
  };
  return listEntries(servers, text, nodes, NAMES_SHARE);
}

/**
 * The part of a page's budget a list of names written ahead of the page's own sections may take
 * (a channel's servers, the messages an operation names): 600 names in one operation's line took
 * the whole budget, and the operation and its messages were left out.
 */
export const NAMES_SHARE = 0.25;

/** What of a list a page writes: its first entries, and how many more the budget left out. */
export interface Listed {
  readonly shown: readonly string[];
  readonly more: number;
}

/**
 * Each item's text taken from the page's budget as a list entry (`takeEntry`), until one is
 * refused; the list taking at most `share` of the page's budget (`NAMES_SHARE`), all it has left
 * by default.
 */
export function listEntries<T>(items: readonly T[], text: (item: T) => string, nodes: SchemaBudget, share = 1): Listed {
  const own = share < 1 ? new SchemaBudget(Math.min(nodes.remaining, Math.floor(nodes.max * share))) : nodes;
  const shown: string[] = [];
  for (const item of items) {
    const t = text(item);
    if (!own.takeEntry(t)) break;
    shown.push(t);
  }
  if (own !== nodes) nodes.replay(nodes.remaining - own.spent, own.cutParts);
  return { shown, more: items.length - shown.length };
}

/** `a, b, … (+3 more: see the spec file)`: a list cut at the page's budget says how much is left out. */
export function listText(list: Listed): string {
  const more = list.more > 0 ? `… (+${list.more} more: see the spec file)` : "";
  return [...list.shown, ...(more !== "" ? [more] : [])].join(", ");
}

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
  const protocols = Object.entries(bindings);
  for (const [i, [protocol, value]] of protocols.entries()) {
    // Each protocol an entry: a bindings object of 10,000 protocols, shared by `$ref`, is a list.
    if (!nodes.takeEntry(protocol)) {
      parts.push(`… (+${protocols.length - i} more: see the spec file)`);
      break;
    }
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
