/**
 * Adversary F9: malformed AsyncAPI values (`servers` a list, a server `7`, a 2.x channel's
 * `publish` a number, a `message` a number, `oneOf` not a list, a 2.x channel with 3.x `send`, a
 * 3.x channel with 2.x `subscribe`, a channel's `servers` entries that are no servers) were read
 * past with no word from `check`: the page silently showed less. Each is now a warning at its
 * place (file, line, JSON path), in the words the 3.x channel and operation warnings already
 * used; the spec is read on, as the platform reads it.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { loadSite } from "../../src/vfs/load-site.js";
import type { Site } from "../../src/vfs/site.js";
import { writeRepo } from "./helpers.js";

const V2 = [
  "asyncapi: 2.6.0",
  "info: {title: T2, version: '1'}",
  "servers:",
  "  prod: 7",
  "  dev: {url: 5, protocol: [mqtt]}",
  "  ok: {url: ok.example.com, protocol: mqtt}",
  "channels:",
  "  a:",
  "    servers: prod",
  "    publish: 5",
  "    subscribe: {message: 7}",
  "  b:",
  "    servers: [ok, 3]",
  "    parameters: {id: 4}",
  "    send: {message: {payload: {type: string}}}",
  "    subscribe: {message: {payload: 5, headers: x, examples: {}}}",
  "  c:",
  "    publish: {message: {oneOf: 5}}",
  "    subscribe: {message: {oneOf: [5, {payload: {type: string}}]}}",
  "  d: 9",
  "",
].join("\n");

const V3 = [
  "asyncapi: 3.0.0",
  "info: {title: T3, version: '1'}",
  "servers: [a, b]",
  "channels:",
  "  c1:",
  "    address: 7",
  "    messages: [x]",
  "    servers: [prod]",
  "    subscribe: {message: {payload: {type: string}}}",
  "  c2:",
  "    address: c2",
  "    messages: hello",
  "operations:",
  "  o1: {action: publish, channel: {$ref: '#/channels/c1'}}",
  "",
].join("\n");

const V3_SERVERS = ["asyncapi: 3.0.0", "info: {title: T4, version: '1'}", "servers:", "  s1: {host: 5, protocol: 6, pathname: [x]}", "  s2: nope", "channels: {}", ""].join("\n");

describe("malformed AsyncAPI values", () => {
  let root: string;
  let site: Site;
  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "S", navigation: { groups: [{ group: "A2", asyncapi: "v2.yaml" }, { group: "A3", asyncapi: "v3.yaml" }, { group: "A4", asyncapi: "v3s.yaml" }] } },
      "v2.yaml": V2,
      "v3.yaml": V3,
      "v3s.yaml": V3_SERVERS,
    });
    site = (await loadSite(root)).site;
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("each is a check warning with the spec file, its line and its JSON path; the specs are read on", () => {
    expect(site.diagnostics.map(formatDiagnostic)).toEqual([
      "v2.yaml:4:3 warning: servers.prod: must be an object (a server); got 7: no page lists it",
      "v2.yaml:5:9 warning: servers.dev.url: must be a string; got 5: pages show the server without its url",
      "v2.yaml:5:17 warning: servers.dev.protocol: must be a string; got an array: pages show the server without a protocol",
      'v2.yaml:9:5 warning: channels.a.servers: must be an array of server names; got "prod": its page lists every server',
      "v2.yaml:10:5 warning: channels.a.publish: must be an object (an operation); got 5: left out of its page",
      "v2.yaml:11:17 warning: channels.a.subscribe.message: must be a message (an object); got 7: its page shows no message for it",
      "v2.yaml:13:19 warning: channels.b.servers.1: must be a server name (a string); got 3: left out of its page's servers",
      "v2.yaml:14:18 warning: channels.b.parameters.id: must be an object (a parameter); got 4: listed by name only",
      "v2.yaml:15:5 warning: channels.b.send: must be absent (an AsyncAPI 2 channel's operations are publish and subscribe); got an object: left out of every page",
      "v2.yaml:16:27 warning: channels.b.subscribe.message.payload: must be a schema (an object); got 5: its page shows no payload",
      'v2.yaml:16:39 warning: channels.b.subscribe.message.headers: must be a schema (an object); got "x": its page shows no headers',
      "v2.yaml:16:51 warning: channels.b.subscribe.message.examples: must be an array of examples; got an object: its page shows no examples",
      "v2.yaml:18:25 warning: channels.c.publish.message.oneOf: must be an array of messages; got 5: its page shows the message as one, without it",
      "v2.yaml:19:35 warning: channels.c.subscribe.message.oneOf.0: must be an object (a message); got 5: left out of its page",
      "v2.yaml:20:3 warning: channels.d: must be an object (a channel); got 9: left out: no page is made for it",
      "v3.yaml:3:1 warning: servers: must be an object of servers by name; got an array: no page lists a server",
      'v3.yaml:6:5 warning: channels.c1.address: must be a string or null; got 7: its page shows the channel\'s id ("c1") as its address',
      "v3.yaml:7:5 warning: channels.c1.messages: must be an object of messages by name; got an array: its page lists no messages",
      'v3.yaml:8:15 warning: channels.c1.servers.0: must be a $ref to a server; got "prod": left out of its page\'s servers',
      "v3.yaml:9:5 warning: channels.c1.subscribe: must be absent (an AsyncAPI 3 channel's operations are under operations, with action send or receive); got an object: left out of every page",
      'v3.yaml:12:5 warning: channels.c2.messages: must be an object of messages by name; got "hello": its page lists no messages',
      'v3.yaml:14:8 warning: operations.o1.action: must be "send" or "receive"; got "publish": its page shows the action as written',
      "v3s.yaml:4:8 warning: servers.s1.host: must be a string; got 5: pages show the server without its host",
      "v3s.yaml:4:30 warning: servers.s1.pathname: must be a string; got an array: pages show the server without its pathname",
      "v3s.yaml:4:17 warning: servers.s1.protocol: must be a string; got 6: pages show the server without a protocol",
      'v3s.yaml:5:3 warning: servers.s2: must be an object (a server); got "nope": no page lists it',
    ]);
    expect([...site.pages.values()].filter((p) => p.generated).map((p) => p.path).sort()).toEqual(["/api-reference/a", "/api-reference/b", "/api-reference/c", "/api-reference/c1", "/api-reference/c2"]);
  });
});

/**
 * A malformed message several operations reach (one object: a `$ref` to a component, a YAML
 * alias) was warned once for each, each at an operation's `$ref`, none at the message: a `oneOf`
 * of 10,000 messages on 250 channels would be 2,500,000 warnings. Each is said once, where the
 * message is written, naming the places that reach it; a message one place reaches is said there.
 */
const V2_SHARED = [
  "asyncapi: 2.6.0",
  "info: {title: T2, version: '1'}",
  "channels:",
  "  one:",
  "    subscribe: {operationId: one, message: {$ref: '#/components/messages/bunch'}}",
  "  two:",
  "    publish: {operationId: two, message: {$ref: '#/components/messages/bunch'}}",
  "  three:",
  "    subscribe: {operationId: three, message: {$ref: '#/components/messages/bad'}}",
  "  four:",
  "    subscribe: {operationId: four, message: {oneOf: [{$ref: '#/components/messages/bad'}, {payload: 6}]}}",
  "  alias:",
  "    subscribe: {message: &m {headers: 7}}",
  "  alias2:",
  "    subscribe: {message: *m}",
  "components:",
  "  messages:",
  "    bad: {payload: 5, examples: nope}",
  "    bunch:",
  "      oneOf:",
  "        - {payload: str}",
  "        - {$ref: '#/components/messages/bad'}",
  "",
].join("\n");

const V3_SHARED = [
  "asyncapi: 3.0.0",
  "info: {title: T3, version: '1'}",
  "channels:",
  "  a: {messages: {m: {$ref: '#/components/messages/bad'}, own: {payload: 4}}}",
  "  b: {messages: {other: {$ref: '#/components/messages/bad'}}}",
  "components:",
  "  messages:",
  "    bad: {headers: 5}",
  "",
].join("\n");

describe("a malformed message several operations or channels reach", () => {
  it("is one warning at the place it is written, naming the places that reach it", async () => {
    const root = writeRepo({
      "docs.json": { name: "S", navigation: { groups: [{ group: "A2", asyncapi: "v2.yaml" }, { group: "A3", asyncapi: "v3.yaml" }] } },
      "v2.yaml": V2_SHARED,
      "v3.yaml": V3_SHARED,
    });
    const { site } = await loadSite(root);
    // In the order found; `check` prints them by line.
    expect(site.diagnostics.map(formatDiagnostic)).toEqual([
      'v2.yaml:21:12 warning: components.messages.bunch.oneOf.0.payload: must be a schema (an object); got "str": its page shows no payload (one message, reached from 2 places: channels.one.subscribe, channels.two.publish)',
      "v2.yaml:18:11 warning: components.messages.bad.payload: must be a schema (an object); got 5: its page shows no payload (one message, reached from 4 places: channels.one.subscribe, channels.two.publish, channels.three.subscribe and 1 more)",
      'v2.yaml:18:23 warning: components.messages.bad.examples: must be an array of examples; got "nope": its page shows no examples (one message, reached from 4 places: channels.one.subscribe, channels.two.publish, channels.three.subscribe and 1 more)',
      "v2.yaml:11:92 warning: channels.four.subscribe.message.oneOf.1.payload: must be a schema (an object); got 6: its page shows no payload",
      // A YAML alias is where the text cutter stops (`specLocator`): the first place, as before.
      "v2.yaml:12:3 warning: channels.alias.subscribe.message.headers: must be a schema (an object); got 7: its page shows no headers (one message, reached from 2 places: channels.alias.subscribe, channels.alias2.subscribe)",
      "v3.yaml:8:11 warning: components.messages.bad.headers: must be a schema (an object); got 5: its page shows no headers (one message, reached from 2 places: channels.a, channels.b)",
      "v3.yaml:4:64 warning: channels.a.messages.own.payload: must be a schema (an object); got 4: its page shows no payload",
    ]);
    rmSync(root, { recursive: true, force: true });
  });
});
