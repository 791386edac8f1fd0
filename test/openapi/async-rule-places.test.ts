/**
 * Issue 25: an AsyncAPI rule (`x-svc`/`x-mint` `metadata.groups`) restricts its channel or
 * operation wherever the part is written: a channel or operation written in `components` (a
 * `$ref` from `channels`/`operations`) and an operation trait carrying the rule (3.x and 2.x,
 * `$ref` or inline). Before, such a rule was read as one no page is made from: the channel lost
 * its page for its own readers, and its operations, the messages only they carry and the servers
 * and security schemes only they use stayed in every reader's spec file; a trait's rule left the
 * operation on its page for every reader.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const V3 = [
  "asyncapi: 3.0.0",
  "info: {title: Ev, version: '1'}",
  "servers:",
  "  prod: {host: prod.example.com, protocol: kafka}",
  "  secretsrv: {host: SECRETHOST, protocol: kafka, security: [{$ref: '#/components/securitySchemes/srvKey'}]}",
  "channels:",
  "  pub:",
  "    address: pub",
  "    servers: [{$ref: '#/servers/prod'}]",
  "    messages: {m: {name: M, payload: {type: string}}, s: {name: SECRETMSG, payload: {type: string}}, t: {name: SECRETTRAITMSG}}",
  "  staffch: {$ref: '#/components/channels/st'}",
  "operations:",
  "  pubSend: {action: send, channel: {$ref: '#/channels/pub'}, messages: [{$ref: '#/channels/pub/messages/m'}]}",
  "  chOp: {action: send, summary: SECRETCHOP, channel: {$ref: '#/channels/staffch'}, security: [{$ref: '#/components/securitySchemes/chOpKey'}]}",
  "  compOp: {$ref: '#/components/operations/st'}",
  "  traitOp:",
  "    action: receive",
  "    summary: SECRETTRAITOP",
  "    channel: {$ref: '#/channels/pub'}",
  "    messages: [{$ref: '#/channels/pub/messages/t'}]",
  "    traits: [{$ref: '#/components/operationTraits/staffOnly'}]",
  "components:",
  "  channels:",
  "    st: {address: st, servers: [{$ref: '#/servers/secretsrv'}], x-svc: {metadata: {groups: [staff]}}}",
  "  operations:",
  "    st:",
  "      action: send",
  "      summary: SECRETCOMPOP",
  "      channel: {$ref: '#/channels/pub'}",
  "      messages: [{$ref: '#/channels/pub/messages/s'}]",
  "      x-svc: {metadata: {groups: [staff]}}",
  "      security: [{$ref: '#/components/securitySchemes/opKey'}]",
  "  operationTraits:",
  "    staffOnly: {x-svc: {metadata: {groups: [staff]}}, bindings: {kafka: {groupId: SECRETGROUP}}}",
  "  securitySchemes:",
  "    srvKey: {type: httpApiKey, name: SECRETSRVKEY, in: header}",
  "    chOpKey: {type: httpApiKey, name: SECRETCHOPKEY, in: header}",
  "    opKey: {type: httpApiKey, name: SECRETOPKEY, in: header}",
  "",
].join("\n");

const V2 = [
  "asyncapi: 2.6.0",
  "info: {title: Ev2, version: '1'}",
  "channels:",
  "  pub2:",
  "    publish: {operationId: pubOp, message: {name: M, payload: {type: string}}}",
  "    subscribe:",
  "      operationId: secretSub",
  "      summary: SECRETSUM",
  "      traits: [{$ref: '#/components/operationTraits/staffOnly'}]",
  "      message: {name: SECRETMSG, payload: {type: string}}",
  "  inl:",
  "    description: Inline trait.",
  "    subscribe:",
  "      operationId: inlSub",
  "      summary: SECRETINL",
  "      traits: [{x-mint: {metadata: {groups: [staff]}}}]",
  "      message: {name: SECRETINLMSG}",
  "components:",
  "  operationTraits:",
  "    staffOnly: {x-svc: {metadata: {groups: [staff]}}, bindings: {kafka: {groupId: SECRETGROUP}}}",
  "",
].join("\n");

const page = (lines: string[]): string => lines.join("\n");

describe("AsyncAPI rules on parts written in components and on operation traits", () => {
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;
  const staff = readerWithGroups(["staff"]);

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "R", navigation: { groups: [{ group: "Events", asyncapi: "v3.yaml" }, { group: "Events 2", asyncapi: "v2.yaml" }] } },
      "v3.yaml": V3,
      "v2.yaml": V2,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("3.x: a channel or operation written in components, and an operation trait's rule, restrict the spec file", async () => {
    expect(await run(ANONYMOUS, "cat /v3.yaml")).toBe(
      [
        "asyncapi: 3.0.0",
        "info: {title: Ev, version: '1'}",
        "servers:",
        "  prod: {host: prod.example.com, protocol: kafka}",
        "channels:",
        "  pub:",
        "    address: pub",
        "    servers: [{$ref: '#/servers/prod'}]",
        "    messages: {m: {name: M, payload: {type: string}}}",
        "operations:",
        "  pubSend: {action: send, channel: {$ref: '#/channels/pub'}, messages: [{$ref: '#/channels/pub/messages/m'}]}",
        "",
      ].join("\n"),
    );
    expect(await run(staff, "cat /v3.yaml")).toBe(V3);
  });

  it("3.x: the restricted channel has its page for its readers only; the public page shows none of the restricted text", async () => {
    expect(await run(ANONYMOUS, "ls /api-reference")).toBe("inl.mdx\npub.mdx\npub2.mdx\n");
    expect(await run(staff, "ls /api-reference")).toBe("inl.mdx\npub.mdx\npub2.mdx\nstaffch.mdx\n");
    const pub = page([
      "---",
      "title: \"pub\"",
      "asyncapi: \"v3.yaml pub\"",
      "---",
      "",
      "# pub",
      "",
      "Channel `pub`",
      "",
      "**Servers:** `prod` (`kafka prod.example.com`)",
      "",
      "## Operations",
      "",
      "### SEND pubSend",
      "",
      "Messages: `M`",
      "",
      "## Messages",
      "",
      "### M",
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
      "Generated from `/v3.yaml`: `yq '.[\"channels\"][\"pub\"]' /v3.yaml`",
      "",
    ]);
    expect(await run(ANONYMOUS, "cat /api-reference/pub.mdx")).toBe(pub);
    expect(await run(staff, "cat /api-reference/pub.mdx")).toBe(pub);
    expect(await run(staff, "cat /api-reference/staffch.mdx")).toBe(
      page([
        "---",
        "title: \"staffch\"",
        "asyncapi: \"v3.yaml staffch\"",
        "groups: [\"staff\"]",
        "---",
        "",
        "# staffch",
        "",
        "Channel `st`",
        "",
        "**Servers:** `secretsrv` (`kafka SECRETHOST`)",
        "",
        "## Operations",
        "",
        "### SEND chOp",
        "",
        "SECRETCHOP",
        "",
        "## Source",
        "",
        "Generated from `/v3.yaml`: `yq '.[\"channels\"][\"staffch\"]' /v3.yaml`",
        "",
      ]),
    );
    expect(await run(ANONYMOUS, "rg -l SECRET /; echo $?")).toBe("1\n");
  });

  it("2.x: a rule on an operation trait ($ref or inline) restricts the operation as a rule on the operation does", async () => {
    expect(await run(ANONYMOUS, "cat /v2.yaml")).toBe(
      [
        "asyncapi: 2.6.0",
        "info: {title: Ev2, version: '1'}",
        "channels:",
        "  pub2:",
        "    publish: {operationId: pubOp, message: {name: M, payload: {type: string}}}",
        "  inl:",
        "    description: Inline trait.",
        "",
      ].join("\n"),
    );
    expect(await run(staff, "cat /v2.yaml")).toBe(V2);
    for (const reader of [ANONYMOUS, staff]) {
      expect(await run(reader, "cat /api-reference/pub2.mdx")).toBe(
        page([
          "---",
          "title: \"pub2\"",
          "asyncapi: \"v2.yaml pub2\"",
          "---",
          "",
          "# pub2",
          "",
          "Channel `pub2`",
          "",
          "## Operations",
          "",
          "### PUBLISH pubOp",
          "",
          "Messages: `M`",
          "",
          "## Messages",
          "",
          "### M",
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
          "Generated from `/v2.yaml`: `yq '.[\"channels\"][\"pub2\"]' /v2.yaml`",
          "",
        ]),
      );
      expect(await run(reader, "cat /api-reference/inl.mdx")).toBe(
        page([
          "---",
          "title: \"inl\"",
          "description: \"Inline trait.\"",
          "asyncapi: \"v2.yaml inl\"",
          "---",
          "",
          "# inl",
          "",
          "Channel `inl`",
          "",
          "Inline trait.",
          "",
          "## Source",
          "",
          "Generated from `/v2.yaml`: `yq '.[\"channels\"][\"inl\"]' /v2.yaml`",
          "",
        ]),
      );
    }
  });
});
