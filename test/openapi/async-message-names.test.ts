/**
 * An AsyncAPI 3 operation's messages named by `$ref` into its channel's map and written without
 * a `name` (Flot's channel pages: `messages: [{$ref: '#/channels/position/messages/event'}]`) are
 * called by their keys there, as the channel's Messages section calls them. Before, each was
 * `message1`: "Messages: `message1`" for a `receive` whose message is `event`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const SPEC = [
  "asyncapi: 3.0.0",
  "info: {title: Feed, version: '1'}",
  "channels:",
  "  position:",
  "    address: /position",
  "    messages:",
  "      subscribe: {payload: {type: object, properties: {wallet: {type: string}}}}",
  "      event: {payload: {type: object, properties: {size: {type: number}}}}",
  "  other:",
  "    address: /other",
  "    messages:",
  "      shared: {$ref: '#/channels/position/messages/event'}",
  "operations:",
  "  sendSubscribe: {action: send, channel: {$ref: '#/channels/position'}, messages: [{$ref: '#/channels/position/messages/subscribe'}]}",
  "  receiveEvent: {action: receive, channel: {$ref: '#/channels/position'}, messages: [{$ref: '#/channels/position/messages/event'}]}",
  "  both: {action: receive, channel: {$ref: '#/channels/position'}, messages: [{$ref: '#/channels/position/messages/subscribe'}, {$ref: '#/channels/position/messages/event'}]}",
  "  elsewhere: {action: receive, channel: {$ref: '#/channels/other'}, messages: [{$ref: '#/channels/other/messages/shared'}]}",
  "",
].join("\n");

describe("AsyncAPI operation messages without a name", () => {
  let runtime: DocsRuntime;
  const sh = async (command: string) => {
    const r = await runtime.readerState(localContext()).shell.run(command);
    return r.stdout + r.stderr;
  };

  beforeAll(async () => {
    const root = writeRepo({
      "docs.json": { name: "Feed", navigation: { pages: ["index", "position", "other"] } },
      "index.mdx": "# Home\n",
      "position.mdx": '---\ntitle: Position\nasyncapi: "/feed.asyncapi.yaml position"\n---\n',
      "other.mdx": '---\ntitle: Other\nasyncapi: "/feed.asyncapi.yaml other"\n---\n',
      "feed.asyncapi.yaml": SPEC,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(() => runtime.close());

  it("each operation names its messages by their keys in the channel's map", async () => {
    expect(await sh("grep -A3 '^### ' /position.mdx")).toBe(
      [
        "### SEND sendSubscribe",
        "",
        "Messages: `subscribe`",
        "",
        "### RECEIVE receiveEvent",
        "",
        "Messages: `event`",
        "",
        "### RECEIVE both",
        "",
        "Messages: `subscribe`, `event`",
        "",
        "--",
        "### subscribe",
        "",
        "Payload:",
        "",
        "--",
        "### event",
        "",
        "Payload:",
        "",
        "",
      ].join("\n"),
    );
  });

  it("a message held under another key in another channel is called by that channel's key", async () => {
    expect(await sh("grep -A2 '^### RECEIVE' /other.mdx")).toBe(["### RECEIVE elsewhere", "", "Messages: `shared`", ""].join("\n"));
  });
});
