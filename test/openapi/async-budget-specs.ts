/**
 * AsyncAPI specs whose pages write what scales with the spec (adversary round: F4, F5), built at
 * any scale: the tests build them small, `node` builds them at the reported size for measuring.
 */

/** `servers` servers and `channels` channels, each naming no `servers` (so each page lists them all) with one operation and message. */
export function manyServersSpec(version: "2" | "3", servers: number, channels: number): Record<string, unknown> {
  const serverMap: Record<string, unknown> = {};
  for (let i = 0; i < servers; i++) serverMap[`s${i}`] = version === "3" ? { host: `h${i}.example.com`, protocol: "mqtt" } : { url: `h${i}.example.com`, protocol: "mqtt" };
  const channelMap: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  for (let i = 0; i < channels; i++) {
    const payload = { type: "object", properties: { n: { type: "integer" } } };
    if (version === "3") {
      channelMap[`c${i}`] = { address: `c/${i}`, messages: { m: { payload } } };
      operations[`op${i}`] = { action: "receive", channel: { $ref: `#/channels/c${i}` }, messages: [{ $ref: `#/channels/c${i}/messages/m` }] };
    } else {
      channelMap[`c/${i}`] = { subscribe: { operationId: `op${i}`, message: { name: "m", payload } } };
    }
  }
  const info = { title: "Many servers", version: "1" };
  return version === "3" ? { asyncapi: "3.0.0", info, servers: serverMap, channels: channelMap, operations } : { asyncapi: "2.6.0", info, servers: serverMap, channels: channelMap };
}

/** One message whose payload is a `oneOf` of `variants` objects, shared by `$ref` across `channels` channels. */
export function sharedOneOfSpec(version: "2" | "3", variants: number, channels: number): Record<string, unknown> {
  const oneOf = Array.from({ length: variants }, (_, i) => ({ type: "object", properties: { [`v${i}`]: { type: "string" } } }));
  const message = { name: "big", payload: { oneOf } };
  const channelMap: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  for (let i = 0; i < channels; i++) {
    if (version === "3") {
      channelMap[`c${i}`] = { address: `c/${i}`, messages: { big: { $ref: "#/components/messages/big" } } };
      operations[`op${i}`] = { action: "receive", channel: { $ref: `#/channels/c${i}` }, messages: [{ $ref: `#/channels/c${i}/messages/big` }] };
    } else {
      channelMap[`c/${i}`] = { subscribe: { operationId: `op${i}`, message: { $ref: "#/components/messages/big" } } };
    }
  }
  const info = { title: "Shared oneOf", version: "1" };
  const components = { messages: { big: message } };
  return version === "3" ? { asyncapi: "3.0.0", info, channels: channelMap, operations, components } : { asyncapi: "2.6.0", info, channels: channelMap, components };
}

/** A docs repository's files naming `spec` in docs.json. */
export function asyncSite(spec: Record<string, unknown>): Record<string, string | object> {
  return {
    "docs.json": { name: "Async", navigation: { groups: [{ group: "Events", pages: ["index"], asyncapi: "events.asyncapi.json" }] } },
    "index.mdx": "# Home\n",
    "events.asyncapi.json": spec,
  };
}

/** 2.x: one `message` that is a `oneOf` of `messages` messages, shared by `$ref` across `channels` channels. */
export function sharedMessageOneOfSpec(messages: number, channels: number): Record<string, unknown> {
  const oneOf = Array.from({ length: messages }, (_, i) => ({ name: `m${i}`, payload: { type: "object", properties: { [`v${i}`]: { type: "string" } } } }));
  const channelMap: Record<string, unknown> = {};
  for (let i = 0; i < channels; i++) channelMap[`c/${i}`] = { subscribe: { operationId: `op${i}`, message: { $ref: "#/components/messages/big" } } };
  return { asyncapi: "2.6.0", info: { title: "Shared messages", version: "1" }, channels: channelMap, components: { messages: { big: { oneOf } } } };
}
