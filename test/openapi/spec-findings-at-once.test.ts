import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../config/temp-repo.js";

/**
 * `svc-mcp check` on specs with several independent problems, whole output: every problem said at
 * once, each at its line and column in the spec (YAML or JSON), none hiding another.
 */
const docs = (key: "openapi" | "asyncapi", source: string) => JSON.stringify({ name: "S", navigation: { groups: [{ group: "API", [key]: source, pages: ["index"] }] } });

describe("svc-mcp check: an OpenAPI spec with several problems", () => {
  it("YAML: two operations with bad parameters, a bad response and a missing $ref target are each said, at its place", async () => {
    const spec = [
      "openapi: 3.0.3",
      "info:",
      "  title: T",
      '  version: "1"',
      "paths:",
      "  /a:",
      "    get:",
      "      parameters:",
      "        - name: x",
      "          in: bogus",
      "      responses:",
      '        "200":',
      "          description: ok",
      "  /b:",
      "    get:",
      "      parameters: 7",
      "      responses:",
      '        "200":',
      "          description: ok",
      "  /c:",
      "    get:",
      "      responses:",
      '        "200": 5',
      "  /d:",
      "    get:",
      "      responses:",
      '        "200":',
      "          description: ok",
      "          content:",
      "            application/json:",
      "              schema:",
      '                $ref: "#/components/schemas/Missing"',
      "",
    ].join("\n");
    const root = tempRepo({ "docs.json": docs("openapi", "api.yaml"), "index.mdx": "# Home\n", "api.yaml": spec });
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 0,
      stdout: [
        'api.yaml:10:11 paths./a.get: warning: GET /a skipped: invalid operation (parameters/0/in: must be one of "path"; parameters/0/in: must be one of "query"; parameters/0/in: must be one of "header"; parameters/0/in: must be one of "cookie")',
        "api.yaml:16:7 paths./b.get: warning: GET /b skipped: invalid operation (parameters: must be array)",
        "api.yaml:23:9 paths./c.get: warning: GET /c skipped: invalid operation (responses/200: must be object)",
        'api.yaml:32:17 warning: unresolved $ref (at paths./d.get.responses.200.content.application/json.schema): Missing $ref pointer "#/components/schemas/Missing". Token "components" does not exist.; left as is',
        "checked docs.json and 1 page (+1 generated from API specs): 0 errors, 4 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("JSON: a $ref that points nowhere is said at the $ref", async () => {
    const spec = [
      "{",
      '  "openapi": "3.1.0",',
      '  "info": {"title": "T", "version": "1"},',
      '  "paths": {',
      '    "/a": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Gone"}}}}}}}',
      "  }",
      "}",
      "",
    ].join("\n");
    const root = tempRepo({ "docs.json": docs("openapi", "api.json"), "index.mdx": "# Home\n", "api.json": spec });
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 0,
      stdout: [
        'api.json:5:107 warning: unresolved $ref (at paths./a.get.responses.200.content.application/json.schema): Missing $ref pointer "#/components/schemas/Gone". Token "components" does not exist.; left as is',
        "checked docs.json and 1 page (+1 generated from API specs): 0 errors, 1 warning",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("a document refused as a whole says every reason at its place, and what it would read as written besides", async () => {
    const spec = ["{", '  "openapi": "3.1.0",', '  "info": {"title": 5, "version": "1"},', '  "servers": "x",', '  "tags": 7', "}", ""].join("\n");
    const root = tempRepo({ "docs.json": docs("openapi", "api.json"), "index.mdx": "# Home\n", "api.json": spec });
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 1,
      stdout: [
        "docs.json:1:62 navigation.groups[0].openapi: API spec api.json: invalid OpenAPI 3.1.0 document (3 problems, each said at the spec): no pages are generated from it",
        'api.json:1:1 (document): must have one of "paths", "components", "webhooks"',
        "api.json:3:12 info.title: warning: must be string (not valid OpenAPI 3.1.0)",
        "api.json:4:3 servers: must be array",
        "api.json:5:3 tags: must be array",
        "checked docs.json and 1 page: 4 errors, 1 warning",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});

describe("svc-mcp check: AsyncAPI 3 channels, operations and messages of the wrong shape", () => {
  it("each is a warning at its place saying what the page shows instead; the rest is generated", async () => {
    const spec = [
      "asyncapi: 3.0.0",
      "info:",
      "  title: Events",
      '  version: "1"',
      "channels:",
      "  good:",
      "    address: good/{id}",
      "    parameters: [1, 2]",
      "    messages:",
      "      m1:",
      "        payload: 5",
      "        examples: 7",
      '      m2: "nope"',
      "  bad: 7",
      "  alsoBad:",
      "    address: 12",
      "    messages: [1]",
      "operations:",
      "  sendGood:",
      "    action: 9",
      "    channel:",
      '      $ref: "#/channels/good"',
      "    messages: {}",
      '  broken: "x"',
      "  noChannel:",
      "    action: send",
      '    channel: "good"',
      "  replyOdd:",
      "    action: Receive",
      "    channel:",
      '      $ref: "#/channels/good"',
      "    reply: 5",
      "",
    ].join("\n");
    const root = tempRepo({ "docs.json": docs("asyncapi", "events.yaml"), "index.mdx": "# Home\n", "events.yaml": spec });
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 0,
      stdout: [
        "events.yaml:8:5 warning: channels.good.parameters: must be an object of parameters by name; got an array: its page lists no parameters",
        "events.yaml:11:9 warning: channels.good.messages.m1.payload: must be a schema (an object); got 5: its page shows no payload",
        "events.yaml:12:9 warning: channels.good.messages.m1.examples: must be an array of examples; got 7: its page shows no examples",
        'events.yaml:13:7 warning: channels.good.messages.m2: must be an object (a message); got "nope": left out of its page',
        "events.yaml:14:3 warning: channels.bad: must be an object (a channel); got 7: left out: no page is made for it",
        'events.yaml:16:5 warning: channels.alsoBad.address: must be a string or null; got 12: its page shows the channel\'s id ("alsoBad") as its address',
        "events.yaml:17:5 warning: channels.alsoBad.messages: must be an object of messages by name; got an array: its page lists no messages",
        'events.yaml:20:5 warning: operations.sendGood.action: must be "send" or "receive"; got 9: its page shows it without an action',
        "events.yaml:23:5 warning: operations.sendGood.messages: must be an array of $refs to its channel's messages; got an object: its page shows every message of its channel",
        'events.yaml:24:3 warning: operations.broken: must be an object (an operation); got "x": left out of every page',
        'events.yaml:27:5 warning: operations.noChannel.channel: must be a $ref to a channel; got "good": no channel\'s page lists it',
        'events.yaml:29:5 warning: operations.replyOdd.action: must be "send" or "receive"; got "Receive": its page shows the action as written',
        "events.yaml:32:5 warning: operations.replyOdd.reply: must be an object (the reply); got 5: its page shows no reply",
        "checked docs.json and 1 page (+2 generated from API specs): 0 errors, 13 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});
