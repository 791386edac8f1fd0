/**
 * Adversary round 17 (issue 25): a message only restricted AsyncAPI 3 operations carry is left off
 * every page and out of the spec file of readers outside their groups, however the operation
 * carries it: its `reply` (inline or `$ref` to `components.replies`), another channel's `$ref` to
 * it, or naming no message at all (all of its channel's). Page and spec file agree.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const SPEC = [
  "asyncapi: 3.0.0",
  "info: {title: Ev, version: '1'}",
  "channels:",
  "  c1:",
  "    address: c1",
  "    messages:",
  "      pub: {name: Pub, payload: {type: string}}",
  "      replyMsg: {name: SECRETREPLY, payload: {type: string}}",
  "      compReply: {name: SECRETCOMPREPLY, payload: {type: string}}",
  "      zq: {name: SECRETSHARED, payload: {type: string}}",
  "  c2:",
  "    address: c2",
  "    messages:",
  "      own: {name: Own, payload: {type: string}}",
  "      alias: {$ref: '#/channels/c1/messages/zq'}",
  "  c5:",
  "    address: c5",
  "    messages:",
  "      a5: {name: SECRETA5, payload: {type: string}}",
  "      b5: {name: B5, payload: {type: string}}",
  "  rc:",
  "    address: SECRETADDR",
  "    description: SECRET reply channel",
  "    messages:",
  "      rm: {name: SECRETRM, payload: {type: string}}",
  "operations:",
  "  pubSend:",
  "    action: send",
  "    channel: {$ref: '#/channels/c1'}",
  "    messages: [{$ref: '#/channels/c1/messages/pub'}]",
  "  c2pub:",
  "    action: send",
  "    channel: {$ref: '#/channels/c2'}",
  "    messages: [{$ref: '#/channels/c2/messages/own'}]",
  "  staffRecv:",
  "    action: receive",
  "    channel: {$ref: '#/channels/c1'}",
  "    x-svc: {metadata: {groups: [staff]}}",
  "    messages: [{$ref: '#/channels/c1/messages/zq'}]",
  "    reply:",
  "      channel: {$ref: '#/channels/c1'}",
  "      messages: [{$ref: '#/channels/c1/messages/replyMsg'}]",
  "  staffRecv2:",
  "    action: receive",
  "    channel: {$ref: '#/channels/c1'}",
  "    x-svc: {metadata: {groups: [staff]}}",
  "    messages: [{$ref: '#/channels/c1/messages/pub'}]",
  "    reply: {$ref: '#/components/replies/R'}",
  "  c5staff:",
  "    action: send",
  "    channel: {$ref: '#/channels/c5'}",
  "    x-svc: {metadata: {groups: [staff]}}",
  "  c5pub:",
  "    action: receive",
  "    channel: {$ref: '#/channels/c5'}",
  "    messages: [{$ref: '#/channels/c5/messages/b5'}]",
  "  staffRecv3:",
  "    action: receive",
  "    channel: {$ref: '#/channels/c5'}",
  "    x-svc: {metadata: {groups: [staff]}}",
  "    messages: [{$ref: '#/channels/c5/messages/a5'}]",
  "    reply: {channel: {$ref: '#/channels/rc'}}",
  "components:",
  "  replies:",
  "    R:",
  "      channel: {$ref: '#/channels/c1'}",
  "      messages: [{$ref: '#/channels/c1/messages/compReply'}]",
  "",
].join("\n");

const page = (lines: string[]): string => lines.join("\n");

describe("AsyncAPI 3 messages only restricted operations carry, through reply, a channel alias or no messages key", () => {
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;

  beforeAll(async () => {
    root = writeRepo({ "docs.json": { name: "R", navigation: { groups: [{ group: "Events", asyncapi: "asyncapi.yaml" }] } }, "asyncapi.yaml": SPEC });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("each page shows only messages a shown operation carries or no operation does, for every reader", async () => {
    for (const reader of [ANONYMOUS, readerWithGroups(["staff"])]) {
      expect(await run(reader, "cat /api-reference/c1.mdx")).toBe(
        page([
          "---",
          "title: \"c1\"",
          "asyncapi: \"asyncapi.yaml c1\"",
          "---",
          "",
          "# c1",
          "",
          "Channel `c1`",
          "",
          "## Operations",
          "",
          "### SEND pubSend",
          "",
          "Messages: `Pub`",
          "",
          "## Messages",
          "",
          "### Pub",
          "",
          "Payload:",
          "",
          "- `string`",
          "",
          "```json Example",
          "\"<string>\"",
          "```",
          "",
          "## Source",
          "",
          "Generated from `/asyncapi.yaml`: `yq '.[\"channels\"][\"c1\"]' /asyncapi.yaml`",
          "",
        ]),
      );
      expect(await run(reader, "cat /api-reference/c2.mdx")).toBe(
        page([
          "---",
          "title: \"c2\"",
          "asyncapi: \"asyncapi.yaml c2\"",
          "---",
          "",
          "# c2",
          "",
          "Channel `c2`",
          "",
          "## Operations",
          "",
          "### SEND c2pub",
          "",
          "Messages: `Own`",
          "",
          "## Messages",
          "",
          "### Own",
          "",
          "Payload:",
          "",
          "- `string`",
          "",
          "```json Example",
          "\"<string>\"",
          "```",
          "",
          "## Source",
          "",
          "Generated from `/asyncapi.yaml`: `yq '.[\"channels\"][\"c2\"]' /asyncapi.yaml`",
          "",
        ]),
      );
      expect(await run(reader, "cat /api-reference/c5.mdx")).toBe(
        page([
          "---",
          "title: \"c5\"",
          "asyncapi: \"asyncapi.yaml c5\"",
          "---",
          "",
          "# c5",
          "",
          "Channel `c5`",
          "",
          "## Operations",
          "",
          "### RECEIVE c5pub",
          "",
          "Messages: `B5`",
          "",
          "## Messages",
          "",
          "### B5",
          "",
          "Payload:",
          "",
          "- `string`",
          "",
          "```json Example",
          "\"<string>\"",
          "```",
          "",
          "## Source",
          "",
          "Generated from `/asyncapi.yaml`: `yq '.[\"channels\"][\"c5\"]' /asyncapi.yaml`",
          "",
        ]),
      );
    }
  });

  it("the spec file of a reader outside the group leaves out the same messages; the group's readers get it whole", async () => {
    expect(await run(ANONYMOUS, "cat /asyncapi.yaml")).toBe(
      [
        "asyncapi: 3.0.0",
        "info: {title: Ev, version: '1'}",
        "channels:",
        "  c1:",
        "    address: c1",
        "    messages:",
        "      pub: {name: Pub, payload: {type: string}}",
        "  c2:",
        "    address: c2",
        "    messages:",
        "      own: {name: Own, payload: {type: string}}",
        "  c5:",
        "    address: c5",
        "    messages:",
        "      b5: {name: B5, payload: {type: string}}",
        "operations:",
        "  pubSend:",
        "    action: send",
        "    channel: {$ref: '#/channels/c1'}",
        "    messages: [{$ref: '#/channels/c1/messages/pub'}]",
        "  c2pub:",
        "    action: send",
        "    channel: {$ref: '#/channels/c2'}",
        "    messages: [{$ref: '#/channels/c2/messages/own'}]",
        "  c5pub:",
        "    action: receive",
        "    channel: {$ref: '#/channels/c5'}",
        "    messages: [{$ref: '#/channels/c5/messages/b5'}]",
        "",
      ].join("\n"),
    );
    expect(await run(readerWithGroups(["staff"]), "cat /asyncapi.yaml")).toBe(SPEC);
  });

  it("a channel only restricted operations' reply names has a page for their groups only", async () => {
    expect(await run(ANONYMOUS, "ls /api-reference")).toBe("c1.mdx\nc2.mdx\nc5.mdx\n");
    expect(await run(readerWithGroups(["staff"]), "ls /api-reference")).toBe("c1.mdx\nc2.mdx\nc5.mdx\nrc.mdx\n");
    expect(await run(readerWithGroups(["staff"]), "cat /api-reference/rc.mdx")).toBe(
      [
        "---",
        "title: \"rc\"",
        "description: \"SECRET reply channel\"",
        "asyncapi: \"asyncapi.yaml rc\"",
        "groups: [\"staff\"]",
        "---",
        "",
        "# rc",
        "",
        "Channel `SECRETADDR`",
        "",
        "SECRET reply channel",
        "",
        "## Messages",
        "",
        "### SECRETRM",
        "",
        "Payload:",
        "",
        "- `string`",
        "",
        "```json Example",
        "\"<string>\"",
        "```",
        "",
        "## Source",
        "",
        "Generated from `/asyncapi.yaml`: `yq '.[\"channels\"][\"rc\"]' /asyncapi.yaml`",
        "",
      ].join("\n"),
    );
  });

  it("nothing a reader outside the group may not read is found in any file", async () => {
    expect(await run(ANONYMOUS, "grep -ric secret / | grep -v ':0$'; echo done")).toBe("done\n");
  });
});
