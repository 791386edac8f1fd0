/**
 * Generate a docs site whose AsyncAPI spec shares messages across many channels, for measuring
 * that a shared message is read once per spec load, not once per channel (docs/security.md row
 * 212's residue):
 *
 *   npx tsx bench/async-shared-site.ts OUT [--version 2|3] [--messages M] [--big-channels B] [--small-channels S] [--bad-every N]
 *
 * B channels (default 2,000) each carry one `$ref` to a message `oneOf` of M messages (default
 * 10,000; 3.x: a channel's `messages` map of `$ref`s to M components); S channels (default
 * 1,000) each carry a `oneOf` of `$ref`s to the same three messages. With `--bad-every N`, every
 * Nth message's payload is `5` (no schema): a shape warning for each, for measuring that a message
 * many channels reach is warned once, not once a channel.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [out, ...rest] = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 ? Number(rest[at + 1]) : fallback;
};
if (out === undefined || out.startsWith("--")) {
  console.error("usage: async-shared-site.ts OUT [--version 2|3] [--messages M] [--big-channels B] [--small-channels S] [--bad-every N]");
  process.exit(2);
}
const version = flag("version", 2);
const messages = flag("messages", 10_000);
const big = flag("big-channels", 2_000);
const small = flag("small-channels", 1_000);
const badEvery = flag("bad-every", 0);

const message = (i: number): Record<string, unknown> => ({ name: `m${i}`, payload: badEvery > 0 && i % badEvery === 0 ? 5 : { type: "object", properties: { [`v${i}`]: { type: "string" } } } });
const few = ["a", "b", "c"];

function v2(): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  for (let i = 0; i < big; i++) channels[`big/${i}`] = { subscribe: { operationId: `big${i}`, message: { $ref: "#/components/messages/big" } } };
  for (let i = 0; i < small; i++) channels[`small/${i}`] = { publish: { operationId: `small${i}`, message: { oneOf: few.map((k) => ({ $ref: `#/components/messages/${k}` })) } } };
  const components = { messages: { big: { oneOf: Array.from({ length: messages }, (_, i) => message(i)) }, ...Object.fromEntries(few.map((k, i) => [k, message(messages + i)])) } };
  return { asyncapi: "2.6.0", info: { title: "Shared messages", version: "1" }, channels, components };
}

function v3(): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const bigMap = Object.fromEntries(Array.from({ length: messages }, (_, i) => [`m${i}`, { $ref: `#/components/messages/m${i}` }]));
  for (let i = 0; i < big; i++) {
    channels[`big${i}`] = { address: `big/${i}`, messages: bigMap };
    operations[`big${i}`] = { action: "receive", channel: { $ref: `#/channels/big${i}` } };
  }
  for (let i = 0; i < small; i++) {
    channels[`small${i}`] = { address: `small/${i}`, messages: Object.fromEntries(few.map((k) => [k, { $ref: `#/components/messages/${k}` }])) };
    operations[`small${i}`] = { action: "send", channel: { $ref: `#/channels/small${i}` }, messages: few.map((k) => ({ $ref: `#/channels/small${i}/messages/${k}` })) };
  }
  const all = { ...Object.fromEntries(Array.from({ length: messages }, (_, i) => [`m${i}`, message(i)])), ...Object.fromEntries(few.map((k, i) => [k, message(messages + i)])) };
  return { asyncapi: "3.0.0", info: { title: "Shared messages", version: "1" }, channels, operations, components: { messages: all } };
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "docs.json"), JSON.stringify({ name: "Async", navigation: { groups: [{ group: "Events", pages: ["index"], asyncapi: "events.asyncapi.json" }] } }));
writeFileSync(join(out, "index.mdx"), "# Home\n");
writeFileSync(join(out, "events.asyncapi.json"), JSON.stringify(version === 3 ? v3() : v2()));
