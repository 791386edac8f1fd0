/**
 * Adversary round 16 (issue 25): text that only a restricted operation carries reaches only that
 * operation's readers. An AsyncAPI operation restricted on its own is left off its channel's
 * page, and so is each message that only operations left off carry (2.x `message`, also through
 * `oneOf`; 3.x the channel's messages the operation names); the spec file leaves a 3.x channel's
 * message out with the operations that name it.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const V2 = [
  "asyncapi: 2.6.0",
  "info: {title: Ev, version: '1'}",
  "channels:",
  "  user/signedup:",
  "    subscribe:",
  "      summary: Public summary",
  "      message: {$ref: '#/components/messages/Pub'}",
  "    publish:",
  "      summary: SECRET summary",
  "      x-svc: {metadata: {groups: [staff]}}",
  "      message:",
  "        oneOf:",
  "          - $ref: '#/components/messages/StaffMsg'",
  "  user/left:",
  "    subscribe:",
  "      message: {$ref: '#/components/messages/Pub'}",
  "    publish:",
  "      x-mint: {metadata: {groups: [staff]}}",
  "      message: {name: SECRETDIRECT, payload: {type: object, properties: {secretdirect: {type: string}}}}",
  "components:",
  "  messages:",
  "    Pub: {payload: {type: object, properties: {a: {type: string}}}}",
  "    StaffMsg: {name: SECRETMSG, summary: SECRET msg summary, payload: {type: object, properties: {secretfield: {type: string, description: SECRET}}}}",
  "",
].join("\n");

const V3 = [
  "asyncapi: 3.0.0",
  "info: {title: Ev3, version: '1'}",
  "channels:",
  "  signup:",
  "    address: user/signedup",
  "    messages:",
  "      Pub: {$ref: '#/components/messages/Pub'}",
  "      Staff: {$ref: '#/components/messages/StaffMsg'}",
  "      Shared: {payload: {type: string}}",
  "operations:",
  "  onSignup:",
  "    action: receive",
  "    channel: {$ref: '#/channels/signup'}",
  "    messages: [{$ref: '#/channels/signup/messages/Pub'}, {$ref: '#/channels/signup/messages/Shared'}]",
  "  sendStaff:",
  "    action: send",
  "    summary: SECRET summary",
  "    x-svc: {metadata: {groups: [staff]}}",
  "    channel: {$ref: '#/channels/signup'}",
  "    messages: [{$ref: '#/channels/signup/messages/Staff'}, {$ref: '#/channels/signup/messages/Shared'}]",
  "components:",
  "  messages:",
  "    Pub: {payload: {type: object, properties: {a: {type: string}}}}",
  "    StaffMsg: {name: SECRETMSG3, payload: {type: object, properties: {secret3: {type: string}}}}",
  "",
].join("\n");

const pubMessage = ["### Pub", "", "Payload:", "", "- `a` `string`", "", "```json Example", "{", '  "a": "<string>"', "}", "```", ""];

describe("an AsyncAPI operation restricted on its own, with messages only it carries", () => {
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "AA", navigation: { groups: [{ group: "V2", asyncapi: "v2.yaml" }, { group: "V3", asyncapi: "v3.yaml" }] } },
      "v2.yaml": V2,
      "v3.yaml": V3,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("2.x: the channel's page shows neither the operation nor its message (direct or through oneOf), for every reader", async () => {
    for (const reader of [ANONYMOUS, readerWithGroups(["staff"])]) {
      expect(await run(reader, "cat /api-reference/usersignedup.mdx")).toBe(
        [
          "---",
          'title: "user/signedup"',
          'asyncapi: "v2.yaml user/signedup"',
          "---",
          "",
          "# user/signedup",
          "",
          "Channel `user/signedup`",
          "",
          "## Operations",
          "",
          "### SUBSCRIBE",
          "",
          "Public summary",
          "",
          "Messages: `Pub`",
          "",
          "## Messages",
          "",
          ...pubMessage,
          "## Source",
          "",
          "Generated from `/v2.yaml`: `yq '.[\"channels\"][\"user/signedup\"]' /v2.yaml`",
          "",
        ].join("\n"),
      );
      expect(await run(reader, "grep -c secretdirect /api-reference/userleft.mdx")).toBe("0\n");
    }
  });

  it("3.x: the page leaves out a channel message only the restricted operation names, and keeps one a shown operation also names", async () => {
    expect(await run(ANONYMOUS, "sed -n '/^## Messages/,$p' /api-reference/signup.mdx")).toBe(
      [
        "## Messages",
        "",
        "### Pub",
        "",
        "Payload:",
        "",
        "- `a` `string`",
        "",
        "```json Example",
        "{",
        '  "a": "<string>"',
        "}",
        "```",
        "",
        "### Shared",
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
        "Generated from `/v3.yaml`: `yq '.[\"channels\"][\"signup\"]' /v3.yaml`",
        "",
      ].join("\n"),
    );
  });

  it("3.x: the spec file of a reader outside the group leaves out the channel message only the removed operation named", async () => {
    expect(await run(ANONYMOUS, "cat /v3.yaml")).toBe(
      [
        "asyncapi: 3.0.0",
        "info: {title: Ev3, version: '1'}",
        "channels:",
        "  signup:",
        "    address: user/signedup",
        "    messages:",
        "      Pub: {$ref: '#/components/messages/Pub'}",
        "      Shared: {payload: {type: string}}",
        "operations:",
        "  onSignup:",
        "    action: receive",
        "    channel: {$ref: '#/channels/signup'}",
        "    messages: [{$ref: '#/channels/signup/messages/Pub'}, {$ref: '#/channels/signup/messages/Shared'}]",
        "components:",
        "  messages:",
        "    Pub: {payload: {type: object, properties: {a: {type: string}}}}",
        "",
      ].join("\n"),
    );
    expect(await run(readerWithGroups(["staff"]), "cat /v3.yaml")).toBe(V3);
  });

  it("nothing a reader outside the group may not read is found in any file", async () => {
    expect(await run(ANONYMOUS, "grep -ric secret / | grep -v ':0$'; echo done")).toBe("done\n");
  });
});

describe("x-svc rules on operations no page is made from (callbacks, components, a path item, a webhook's later method)", () => {
  const SPEC = [
    "openapi: 3.1.0",
    "info: {title: T, version: '1'}",
    "paths:",
    "  /sub:",
    "    post:",
    "      summary: Subscribe",
    "      responses: {'200': {description: ok}}",
    "      callbacks:",
    "        onEvent:",
    "          '{$request.body#/url}':",
    "            post:",
    "              summary: SECRET callback",
    "              x-mint: {metadata: {groups: [staff]}}",
    "              responses: {'200': {description: SECRET resp}}",
    "        shared: {$ref: '#/components/callbacks/CB'}",
    "  /staff:",
    "    x-svc: {metadata: {groups: [staff]}}",
    "    get:",
    "      summary: Item SECRET",
    "      responses: {'200': {description: ok}}",
    "webhooks:",
    "  ping:",
    "    post:",
    "      summary: Ping",
    "      responses: {'200': {description: ok}}",
    "    put:",
    "      summary: SECRET put",
    "      x-svc: {metadata: {groups: [staff]}}",
    "      responses: {'200': {description: ok}}",
    "components:",
    "  callbacks:",
    "    CB:",
    "      '{$request.body#/url}':",
    "        post:",
    "          summary: SECRET component callback",
    "          x-svc: {metadata: {groups: [staff]}}",
    "          responses: {'200': {description: ok}}",
    "  pathItems:",
    "    Unused:",
    "      get:",
    "        summary: SECRET unused path item",
    "        x-svc: {metadata: {groups: [staff]}}",
    "        responses: {'200': {description: ok}}",
    "",
  ].join("\n");
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;

  beforeAll(async () => {
    root = writeRepo({ "docs.json": { name: "CB", navigation: { groups: [{ group: "API", openapi: "openapi.yaml" }] } }, "openapi.yaml": SPEC });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("check says where each such rule is and what it does", () => {
    expect(runtime.site.diagnostics.map((d) => `${d.file} ${d.code ?? ""}: ${d.message}`)).toEqual(
      ["paths./sub.post.callbacks.onEvent.{$request.body#/url}.post", "webhooks.ping.put", "components.callbacks.CB.{$request.body#/url}.post", "components.pathItems.Unused.get"].map(
        (at) =>
          `openapi.yaml api-stray-rule: x-svc metadata.groups at ${at} is not on an operation, webhook or channel (no page is made from it): left out of every page, and out of the spec file for readers outside its groups`,
      ),
    );
  });

  it("the spec file of a reader outside the group has none of them; a path item's rule restricts its operations' pages", async () => {
    expect(await run(ANONYMOUS, "cat /openapi.yaml")).toBe(
      [
        "openapi: 3.1.0",
        "info: {title: T, version: '1'}",
        "paths:",
        "  /sub:",
        "    post:",
        "      summary: Subscribe",
        "      responses: {'200': {description: ok}}",
        "webhooks:",
        "  ping:",
        "    post:",
        "      summary: Ping",
        "      responses: {'200': {description: ok}}",
        "",
      ].join("\n"),
    );
    expect(await run(ANONYMOUS, "find / -type f | sort")).toBe(["/api-reference/ping.mdx", "/api-reference/subscribe.mdx", "/openapi.yaml", "/skill.md", ""].join("\n"));
    expect(await run(ANONYMOUS, "grep -ric secret / | grep -v ':0$'; echo done")).toBe("done\n");
    expect(await run(readerWithGroups(["staff"]), "cat /openapi.yaml")).toBe(SPEC);
    expect(await run(readerWithGroups(["staff"]), "grep -l SECRET -r /api-reference")).toBe("/api-reference/item-secret.mdx\n");
  });
});

describe("an operation an MDX page with groups documents (front matter openapi) that also has a generated page", () => {
  const SPEC = [
    "openapi: 3.0.3",
    "info: {title: T, version: '1'}",
    "paths:",
    "  /one:",
    "    get: {summary: ONESECRET, responses: {'200': {description: ok}}}",
    "  /two:",
    "    get: {summary: TWOSECRET, x-svc: {href: /elsewhere, metadata: {public: true}}, responses: {'200': {description: ok}}}",
    "  /pub:",
    "    get: {summary: PUB, responses: {'200': {description: ok}}}",
    "",
  ].join("\n");
  let root: string;
  let runtime: DocsRuntime;
  const run = async (reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "FM", navigation: { groups: [{ group: "A", pages: ["index"] }], openapi: "openapi.yaml" } },
      "index.mdx": "---\ntitle: Home\n---\nhello\n",
      "openapi.yaml": SPEC,
      "staff1.mdx": "---\ntitle: S1\ngroups: [staff]\nopenapi: get /one/\n---\nx\n",
      "staff2.mdx": "---\ntitle: S2\ngroups: [staff]\nopenapi: openapi.yaml GET /two\n---\nx\n",
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("the generated page inherits the MDX page's groups (also when x-svc.href keeps both pages), and check says so", async () => {
    expect(await run(ANONYMOUS, "find / -type f | sort")).toBe(["/api-reference/pub.mdx", "/index.mdx", "/openapi.yaml", "/skill.md", ""].join("\n"));
    expect(await run(readerWithGroups(["staff"]), "head -6 /api-reference/onesecret.mdx /elsewhere.mdx")).toBe(
      [
        "==> /api-reference/onesecret.mdx <==",
        "---",
        'title: "ONESECRET"',
        'openapi: "openapi.yaml GET /one"',
        'playground: "interactive"',
        'groups: ["staff"]',
        "---",
        "",
        "==> /elsewhere.mdx <==",
        "---",
        'title: "TWOSECRET"',
        'openapi: "openapi.yaml GET /two"',
        'playground: "interactive"',
        'groups: ["staff"]',
        "---",
        "",
      ].join("\n"),
    );
    expect(runtime.site.diagnostics.filter((d) => d.code === "api-two-pages").map((d) => d.message)).toEqual([
      'GET /one (openapi.yaml) has two pages: the generated /api-reference/onesecret and staff1.mdx (front matter openapi); remove one, or set "x-svc": {"href": ...} on the operation to point its page elsewhere; until then the generated page is restricted as staff1.mdx is (groups: staff)',
    ]);
  });
});
