/**
 * AsyncAPI 2.x as real sites write it (the specification's own Streetlights and oneOf examples):
 * messages by `$ref` to `components.messages`, `message.oneOf`, message and operation traits,
 * `bindings`, server `variables`, channel `parameters` by `$ref`. Before, every message without
 * a `name` was called `message` (`message1`, `message2` in a `oneOf`), a message's headers (its
 * own or a trait's) and every binding were left off the page, a server's `{port}` was left for
 * the reader to guess, an operation without `operationId` was headed `SUBSCRIBE subscribe test2`,
 * and a message both operations of a channel carry was listed twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { localContext } from "../../src/vfs/request-context.js";
import { startBridge } from "../bridge/harness.js";
import { writeRepo } from "./helpers.js";

/** Cut from the specification's Streetlights MQTT example (2.x). */
const STREETLIGHTS = `asyncapi: '2.6.0'
info:
  title: Streetlights MQTT API
  version: '1.0.0'
servers:
  production:
    url: test.mosquitto.org:{port}
    protocol: mqtt
    description: Test broker
    variables:
      port:
        description: Secure connection (TLS) is available through port 8883.
        default: '1883'
        enum: ['1883', '8883']
defaultContentType: application/json
channels:
  smartylighting/streetlights/1/0/event/{streetlightId}/lighting/measured:
    description: The topic on which measured values may be produced and consumed.
    parameters:
      streetlightId:
        $ref: '#/components/parameters/streetlightId'
    publish:
      summary: Inform about environmental lighting conditions of a particular streetlight.
      operationId: receiveLightMeasurement
      traits:
        - $ref: '#/components/operationTraits/mqtt'
      message:
        $ref: '#/components/messages/lightMeasured'
components:
  messages:
    lightMeasured:
      name: lightMeasured
      title: Light measured
      summary: Inform about environmental lighting conditions of a particular streetlight.
      contentType: application/json
      traits:
        - $ref: '#/components/messageTraits/commonHeaders'
      payload:
        $ref: "#/components/schemas/lightMeasuredPayload"
  schemas:
    lightMeasuredPayload:
      type: object
      properties:
        lumens: {type: integer, minimum: 0, description: Light intensity measured in lumens.}
        sentAt: {$ref: "#/components/schemas/sentAt"}
    sentAt: {type: string, format: date-time, description: Date and time when the message was sent.}
  parameters:
    streetlightId:
      description: The ID of the streetlight.
      schema: {type: string}
  messageTraits:
    commonHeaders:
      headers:
        type: object
        properties:
          my-app-header: {type: integer, minimum: 0, maximum: 100}
  operationTraits:
    mqtt:
      bindings:
        mqtt: {qos: 1}
`;

/** The specification's oneOf example, with what real specs add: a messageId, an inline message, one message on both operations. */
const ONEOF = `asyncapi: '2.6.0'
info: {title: OneOf example, version: '1.0.0'}
servers:
  broker: {url: 'amqp://broker.example.com', protocol: amqp}
channels:
  test:
    bindings:
      amqp: {is: routingKey, exchange: {name: events, type: topic}}
    publish:
      message: {$ref: '#/components/messages/testMessages'}
    subscribe:
      message: {$ref: '#/components/messages/testMessages'}
  test2:
    subscribe:
      message:
        oneOf:
          - $ref: '#/components/messages/testMessage1'
          - $ref: '#/components/messages/testMessage2'
          - payload: {type: object, properties: {key3: {type: string}}}
components:
  messages:
    testMessages:
      bindings:
        amqp: {contentEncoding: gzip}
      payload:
        oneOf:
          - $ref: '#/components/schemas/objectWithKey'
          - $ref: '#/components/schemas/objectWithKey2'
    testMessage1:
      payload: {$ref: '#/components/schemas/objectWithKey'}
    testMessage2:
      messageId: second
      payload: {$ref: '#/components/schemas/objectWithKey2'}
  schemas:
    objectWithKey: {type: object, properties: {key: {type: string}}}
    objectWithKey2: {type: object, properties: {key2: {type: string}}}
`;

/** Cut from the specification's Gemini WebSocket example (2.0.0): a `ws` binding holding a whole query schema. */
const GEMINI = `asyncapi: 2.0.0
info:
  title: Gemini Market Data Websocket API
  version: '1.0.0'
servers:
  public:
    url: wss://api.gemini.com
    protocol: wss
channels:
  /v1/marketdata/{symbol}:
    parameters:
      symbol:
        description: |
          Symbols are formatted as CCY1CCY2 where prices are in CCY2 and quantities are in CCY1.
        schema:
          type: string
          enum: ['btcusd', 'ethbtc', 'ethusd']
    bindings:
      ws:
        bindingVersion: 0.1.0
        query:
          type: object
          description: |
            The semantics of entry type filtering is: if any entry type is specified as true or false, all of them must be explicitly flagged true to show up in the response.
          properties:
            heartbeat: {type: boolean, default: false, description: Optionally add this parameter and set to true to receive a heartbeat every 5 seconds}
            top_of_book: {type: boolean, default: false, description: If absent or false, receive full order book depth.}
    subscribe:
      summary: Receive market updates on a given symbol
      message:
        $ref: '#/components/messages/marketData'
components:
  messages:
    marketData:
      summary: Message with marked data information.
      payload:
        $ref: '#/components/schemas/market'
      examples:
        - payload: {type: heartbeat, socket_sequence: 1656}
  schemas:
    market:
      type: object
      oneOf:
        - $ref: '#/components/schemas/heartbeat'
    heartbeat:
      allOf:
        - properties:
            type: {type: string, const: heartbeat}
          required: [type]
        - $ref: '#/components/schemas/default'
    default:
      type: object
      required: [type, socket_sequence]
      properties:
        socket_sequence: {type: integer, description: zero-indexed monotonic increasing sequence number}
`;

describe("AsyncAPI 2.x pages", () => {
  let runtime: DocsRuntime;
  let root: string;
  const sh = async (command: string) => {
    const r = await runtime.readerState(localContext()).shell.run(command);
    return r.stdout + r.stderr;
  };

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "Lights", navigation: { groups: [{ group: "Lights", asyncapi: "streetlights.yml" }, { group: "OneOf", asyncapi: { source: "oneof.yml", directory: "oneof" } }, { group: "Gemini", asyncapi: { source: "gemini.yml", directory: "gemini" } }] } },
      "streetlights.yml": STREETLIGHTS,
      "oneof.yml": ONEOF,
      "gemini.yml": GEMINI,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(() => runtime.close());

  it("Streetlights: server variables, parameter by $ref with its type, trait bindings and headers, the message by its name", async () => {
    expect(await sh("cat /api-reference/smartylightingstreetlights10eventstreetlightidlightingmeasured.mdx")).toBe(
      [
        "---",
        'title: "smartylighting/streetlights/1/0/event/{streetlightId}/lighting/measured"',
        'description: "The topic on which measured values may be produced and consumed."',
        'asyncapi: "streetlights.yml smartylighting/streetlights/1/0/event/{streetlightId}/lighting/measured"',
        "---",
        "",
        "# smartylighting/streetlights/1/0/event/{streetlightId}/lighting/measured",
        "",
        "Channel `smartylighting/streetlights/1/0/event/{streetlightId}/lighting/measured`",
        "",
        "The topic on which measured values may be produced and consumed.",
        "",
        "**Servers:** `production` (`mqtt test.mosquitto.org:{port}`; `port`: `1883` (default), `8883`)",
        "",
        "## Parameters",
        "",
        "- [`streetlightId`](#streetlightId) `string`: The ID of the streetlight.",
        "",
        "## Operations",
        "",
        "### PUBLISH receiveLightMeasurement",
        "",
        "Inform about environmental lighting conditions of a particular streetlight.",
        "",
        'Bindings: `mqtt` `{"qos":1}`',
        "",
        "Messages: `lightMeasured`",
        "",
        "## Messages",
        "",
        "### Light measured",
        "",
        "Inform about environmental lighting conditions of a particular streetlight.",
        "",
        "`application/json`",
        "",
        "Headers:",
        "",
        "- `my-app-header` `integer` (minimum: 0; maximum: 100)",
        "",
        "Payload:",
        "",
        "- `lumens` `integer`: Light intensity measured in lumens. (minimum: 0)",
        "- `sentAt` `string<date-time>`: Date and time when the message was sent.",
        "",
        "```json Example",
        "{",
        '  "lumens": 123,',
        '  "sentAt": "2024-01-01T00:00:00Z"',
        "}",
        "```",
        "",
        "## Source",
        "",
        "Generated from `/streetlights.yml`: `yq '.[\"channels\"][\"smartylighting/streetlights/1/0/event/{streetlightId}/lighting/measured\"]' /streetlights.yml`",
        "",
      ].join("\n"),
    );
  });

  it("a message both operations carry by $ref: called by its components key, listed once; channel and message bindings shown", async () => {
    expect(await sh("sed -n '/^Channel/,/^## Source/p' /oneof/test.mdx")).toBe(
      [
        "Channel `test`",
        "",
        "**Servers:** `broker` (`amqp amqp://broker.example.com`)",
        "",
        'Bindings: `amqp` `{"is":"routingKey","exchange":{"name":"events","type":"topic"}}`',
        "",
        "## Operations",
        "",
        "### PUBLISH",
        "",
        "Messages: `testMessages`",
        "",
        "### SUBSCRIBE",
        "",
        "Messages: `testMessages`",
        "",
        "## Messages",
        "",
        "### testMessages",
        "",
        'Bindings: `amqp` `{"contentEncoding":"gzip"}`',
        "",
        "Payload:",
        "",
        "- `one of` (one of: object | object)",
        "",
        "```json Example",
        "{",
        '  "key": "<string>"',
        "}",
        "```",
        "",
        "## Source",
      ].join("\n") + "\n",
    );
  });

  it("message.oneOf: components keys, a messageId, and an inline message called by its operation; never message1", async () => {
    expect(await sh("sed -n '/^## Operations/,/^## Source/p' /oneof/test2.mdx | grep -v '^$'")).toBe(
      [
        "## Operations",
        "### SUBSCRIBE",
        "Messages: `testMessage1`, `second`, `subscribe message 3`",
        "## Messages",
        "### testMessage1",
        "Payload:",
        "- `key` `string`",
        "```json Example",
        "{",
        '  "key": "<string>"',
        "}",
        "```",
        "### second",
        "Payload:",
        "- `key2` `string`",
        "```json Example",
        "{",
        '  "key2": "<string>"',
        "}",
        "```",
        "### subscribe message 3",
        "Payload:",
        "- `key3` `string`",
        "```json Example",
        "{",
        '  "key3": "<string>"',
        "}",
        "```",
        "## Source",
      ].join("\n") + "\n",
    );
  });

  it("a long binding is named by its keys; a parameter's enum is listed; an operation without operationId is headed by its action", async () => {
    expect(await sh("sed -n '/^Channel/,/^### SUBSCRIBE/p' /gemini/v1marketdatasymbol.mdx")).toBe(
      [
        "Channel `/v1/marketdata/{symbol}`",
        "",
        "**Servers:** `public` (`wss wss://api.gemini.com`)",
        "",
        "Bindings: `ws` (`bindingVersion`, `query`: see the spec file)",
        "",
        "## Parameters",
        "",
        '- [`symbol`](#symbol) `string`: Symbols are formatted as CCY1CCY2 where prices are in CCY2 and quantities are in CCY1. (one of: "btcusd", "ethbtc", "ethusd")',
        "",
        "## Operations",
        "",
        "### SUBSCRIBE",
        "",
      ].join("\n"),
    );
  });

  it("the HTML page shows the same: server variables, bindings, headers, an unnamed operation by its action", async () => {
    const h = await startBridge({ root, authMode: "partial", apps: true });
    try {
      const html = async (path: string) => (await fetch(`${h.origin}${path}`, { headers: { accept: "text/html" } })).text();
      const lights = await html("/api-reference/smartylightingstreetlights10eventstreetlightidlightingmeasured");
      const lines = (page: string, pattern: RegExp) => page.split("\n").filter((l) => pattern.test(l));
      expect(lines(lights, /Servers:|Bindings:|<h4>Headers/)).toEqual([
        '<p class="meta">Servers: <code>production</code> (<code>mqtt test.mosquitto.org:{port}</code>; <code>port</code>: <code>1883</code> (default), <code>8883</code>)</p>',
        '<p class="meta">Bindings: <code>mqtt</code> <code>{&quot;qos&quot;:1}</code></p>',
        "<h4>Headers</h4>",
      ]);
      const test = await html("/oneof/test");
      expect(lines(test, /<h3>|Bindings:/)).toEqual([
        '<p class="meta">Bindings: <code>amqp</code> <code>{&quot;is&quot;:&quot;routingKey&quot;,&quot;exchange&quot;:{&quot;name&quot;:&quot;events&quot;,&quot;type&quot;:&quot;topic&quot;}}</code></p>',
        '<h3><span class="method m-publish">PUBLISH</span></h3>',
        '<h3><span class="method m-subscribe">SUBSCRIBE</span></h3>',
        "<h3>testMessages</h3>",
        '<p class="meta">Bindings: <code>amqp</code> <code>{&quot;contentEncoding&quot;:&quot;gzip&quot;}</code></p>',
      ]);
    } finally {
      await h.close();
    }
  });
});
