/**
 * Two keys may hold one message object (AsyncAPI 3: two channel-map keys `$ref`ing one component;
 * 2.x: a component a restricted operation names by `$ref` and a public one by YAML alias). A
 * message's name on a page comes only from the reference the operation showing it writes: before,
 * names were found by the object's identity, so the key only a restricted operation names
 * (`STAFFKEYNAME`, `STAFFMSGNAME`) showed on the public channel page and in its search text,
 * while the reader's mounted spec file correctly had no such key.
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
  "channels:",
  "  pub:",
  "    address: pub",
  "    messages:",
  "      STAFFKEYNAME: {$ref: '#/components/messages/Shared'}",
  "      publicKey: {$ref: '#/components/messages/Shared'}",
  "operations:",
  "  staffSend:",
  "    action: send",
  "    channel: {$ref: '#/channels/pub'}",
  "    x-svc: {metadata: {groups: [staff]}}",
  "    messages: [{$ref: '#/channels/pub/messages/STAFFKEYNAME'}]",
  "  pubRecv:",
  "    action: receive",
  "    channel: {$ref: '#/channels/pub'}",
  "    messages: [{$ref: '#/channels/pub/messages/publicKey'}]",
  "components:",
  "  messages:",
  "    Shared: {payload: {type: string}}",
  "",
].join("\n");

const V2 = [
  "asyncapi: 2.6.0",
  "info: {title: Ev2, version: '1'}",
  // The anchor comes before its alias, as YAML asks.
  "components:",
  "  messages:",
  "    STAFFMSGNAME: &m {payload: {type: string}}",
  "channels:",
  "  pub2:",
  "    publish:",
  "      operationId: staffPub",
  "      x-svc: {metadata: {groups: [staff]}}",
  "      message: {$ref: '#/components/messages/STAFFMSGNAME'}",
  "    subscribe:",
  "      operationId: pubSub",
  "      message: *m",
  "",
].join("\n");

const PUB = [
  "---",
  'title: "pub"',
  'asyncapi: "events.yaml pub"',
  "---",
  "",
  "# pub",
  "",
  "Channel `pub`",
  "",
  "## Operations",
  "",
  "### RECEIVE pubRecv",
  "",
  "Messages: `publicKey`",
  "",
  "## Messages",
  "",
  "### publicKey",
  "",
  "Payload:",
  "",
  "- `string`",
  "",
  "```json Example",
  '"<string>"',
  "```",
  "",
  "## Source",
  "",
  "Generated from `/events.yaml`: `yq '.[\"channels\"][\"pub\"]' /events.yaml`",
  "",
].join("\n");

describe("a message held under two keys is named by the key its operation writes", () => {
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => {
    const r = await runtime.readerState(localContext(reader)).shell.run(command);
    return r.stdout + r.stderr;
  };
  const staff = readerWithGroups(["staff"]);

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "T", navigation: { groups: [{ group: "G", pages: ["index"] }, { group: "Events", asyncapi: "events.yaml" }, { group: "Events 2", asyncapi: "v2.yaml" }] } },
      "index.mdx": "# T\n\nA line.\n",
      "events.yaml": V3,
      "v2.yaml": V2,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("3.x: the public page names the public operation's key only", async () => {
    expect(await run(ANONYMOUS, "cat /api-reference/pub.mdx")).toBe(PUB);
    expect(await run(ANONYMOUS, "rg -n STAFF /")).toBe("");
  });

  it("2.x: a YAML alias carries no key: the public operation's message is named by the operation", async () => {
    expect(await run(ANONYMOUS, "cat /api-reference/pub2.mdx")).toBe(
      PUB.replace('"pub"', '"pub2"')
        .replace('"events.yaml pub"', '"v2.yaml pub2"')
        .replace("# pub\n\nChannel `pub`", "# pub2\n\nChannel `pub2`")
        .replace("RECEIVE pubRecv", "SUBSCRIBE pubSub")
        .replaceAll("publicKey", "pubSub message")
        .replace("`/events.yaml`: `yq '.[\"channels\"][\"pub\"]' /events.yaml`", "`/v2.yaml`: `yq '.[\"channels\"][\"pub2\"]' /v2.yaml`"),
    );
    expect(await run(ANONYMOUS, "rg -n STAFF /")).toBe("");
  });

  it("search finds no page by a key only a restricted operation names, and the public key's page by its key", async () => {
    for (const query of ["STAFFKEYNAME", "STAFFMSGNAME"]) expect((await runtime.search(localContext(ANONYMOUS), { query })).map((h) => h.page.path)).toEqual([]);
    expect((await runtime.search(localContext(ANONYMOUS), { query: "publicKey" })).map((h) => h.page.path)).toEqual(["/api-reference/pub"]);
  });

  it("a staff reader reads the same public pages, and the keys in the spec files only", async () => {
    expect(await run(staff, "cat /api-reference/pub.mdx")).toBe(PUB);
    expect(await run(staff, "rg -n STAFF /")).toBe(
      [
        "/events.yaml:7:      STAFFKEYNAME: {$ref: '#/components/messages/Shared'}",
        "/events.yaml:14:    messages: [{$ref: '#/channels/pub/messages/STAFFKEYNAME'}]",
        "/v2.yaml:5:    STAFFMSGNAME: &m {payload: {type: string}}",
        "/v2.yaml:11:      message: {$ref: '#/components/messages/STAFFMSGNAME'}",
        "",
      ].join("\n"),
    );
  });
});
