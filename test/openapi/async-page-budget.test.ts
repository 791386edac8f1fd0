/**
 * Everything an AsyncAPI channel page writes that scales with the spec is charged to the page's
 * budget (`SchemaBudget.takeEntry`, adversary round 63): a channel naming no `servers` listed
 * every server of the spec, free, so 1,000 servers on 2,000 channel pages made `search` take
 * 15-48 s and 500-650 MB; a channel's operations and messages likewise. The shapes are built
 * small here (`async-budget-specs.ts` builds them at any scale).
 */
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "../config/temp-repo.js";
import { asyncSite, manyServersSpec, sharedMessageOneOfSpec, sharedOneOfSpec } from "./async-budget-specs.js";

const NOTE =
  "> **Cut:** this page shows 5,000 schema nodes' worth of text at most, and its lists (servers, operations, messages, parameters, bindings) are longer than that: some entries are left out, each list saying how many. The spec file (see Source) holds them whole.";

/** The first `n` servers `manyServersSpec` writes, as a page lists them, and the rest counted. */
function serversLine(n: number, of: number): string {
  const shown = Array.from({ length: n }, (_, i) => `\`s${i}\` (\`mqtt h${i}.example.com\`)`);
  return `**Servers:** ${[...shown, `… (+${of - n} more: see the spec file)`].join(", ")}`;
}

function page(title: string, address: string, heading: string, pointer: string, servers: string): string {
  return [
    "---",
    `title: ${JSON.stringify(title)}`,
    `asyncapi: ${JSON.stringify(`events.asyncapi.json ${title}`)}`,
    "---",
    "",
    `# ${title}`,
    "",
    `Channel \`${address}\``,
    "",
    NOTE,
    "",
    servers,
    "",
    "## Operations",
    "",
    heading,
    "",
    "Messages: `m`",
    "",
    "## Messages",
    "",
    "### m",
    "",
    "Payload:",
    "",
    "- `n` `integer`",
    "",
    "```json Example",
    "{",
    '  "n": 123',
    "}",
    "```",
    "",
    "## Source",
    "",
    `Generated from \`/events.asyncapi.json\`: \`jq '.["channels"][${JSON.stringify(pointer)}]' /events.asyncapi.json\``,
    "",
  ].join("\n");
}

describe("an AsyncAPI channel page's lists are charged to its budget", () => {
  // A quarter of the page's 5,000 nodes for its servers, 10 nodes a server: 125 of 200 listed.
  const listedServers = (LIMITS.api.maxPageSchemaNodes / 4) / LIMITS.api.listEntryNodes;

  it("3.x: a channel naming no servers lists as many as its share of the budget, then says how many more; its own operation and message stay whole", async () => {
    const root = tempRepo(asyncSite(manyServersSpec("3", 200, 2)));
    expect(await runCli(["fs", "--dir", root, "cat /api-reference/c0.mdx"])).toEqual({ code: 0, stdout: page("c0", "c/0", "### RECEIVE op0", "c0", serversLine(listedServers, 200)), stderr: "" });
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 0,
      stdout: [
        "events.asyncapi.json warning: the page /api-reference/c0 of channel c/0 is cut at 5000 schema nodes' worth of text: its lists (servers, operations, messages, parameters, bindings) are longer than one page shows (some entries are left out, each list saying how many, and the page says so)",
        "events.asyncapi.json warning: the page /api-reference/c1 of channel c/1 is cut at 5000 schema nodes' worth of text: its lists (servers, operations, messages, parameters, bindings) are longer than one page shows (some entries are left out, each list saying how many, and the page says so)",
        "checked docs.json and 1 page (+2 generated from API specs): 0 errors, 2 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("2.x: the same", async () => {
    const root = tempRepo(asyncSite(manyServersSpec("2", 200, 2)));
    expect(await runCli(["fs", "--dir", root, "cat /api-reference/c0.mdx"])).toEqual({ code: 0, stdout: page("c/0", "c/0", "### SUBSCRIBE op0", "c/0", serversLine(listedServers, 200)), stderr: "" });
  });

  it("a channel with more operations than its page shows lists what the budget holds and counts the rest", async () => {
    const operations = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`op${i}`, { action: "send", channel: { $ref: "#/channels/room" } }]));
    const root = tempRepo(asyncSite({ asyncapi: "3.0.0", info: { title: "T", version: "1" }, channels: { room: { address: "room", messages: {} } }, operations }));
    const shown = LIMITS.api.maxPageSchemaNodes / LIMITS.api.listEntryNodes;
    expect(await runCli(["fs", "--dir", root, "cat /api-reference/room.mdx"])).toEqual({
      code: 0,
      stdout: [
        "---",
        'title: "room"',
        'asyncapi: "events.asyncapi.json room"',
        "---",
        "",
        "# room",
        "",
        "Channel `room`",
        "",
        NOTE,
        "",
        "## Operations",
        "",
        ...Array.from({ length: shown }, (_, i) => [`### SEND op${i}`, ""]).flat(),
        `… (+${600 - shown} more: see the spec file)`,
        "",
        "## Source",
        "",
        "Generated from `/events.asyncapi.json`: `jq '.[\"channels\"][\"room\"]' /events.asyncapi.json`",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("2.x: a message oneOf of 600 messages shared by channels: the operation names what a quarter of the budget holds, the sections what the rest holds, each list counting the rest", async () => {
    // Before (adversary round 63, 10,000 messages on 100 channels): check took 36 s of CPU and 1.5 GB.
    const root = tempRepo(asyncSite(sharedMessageOneOfSpec(600, 2)));
    const names = Array.from({ length: 125 }, (_, i) => `\`m${i}\``).join(", ");
    const r = await runCli(["fs", "--dir", root, "grep '^Messages: ' /api-reference/c0.mdx; grep -c '^### m' /api-reference/c0.mdx; grep -A4 '^### m232$' /api-reference/c0.mdx | head -n 3; grep -B1 -A3 '^… (+' /api-reference/c0.mdx"]);
    expect(r).toEqual({
      code: 0,
      stdout: [`Messages: ${names}, … (+475 more: see the spec file)`, "233", "### m232", "", "Payload:", "", "… (+367 more: see the spec file)", "", "## Source", "", ""].join("\n"),
      stderr: "",
    });
  });

  it("a message shared by $ref across channels reads the same on each (rendered once for each budget it is reached with)", async () => {
    const root = tempRepo(asyncSite(sharedOneOfSpec("3", 50, 3)));
    const message = [
      "## Messages",
      "",
      "### big",
      "",
      "Payload:",
      "",
      "- `one of` (one of: object | object | object | object | object | object | object | object | object | object | object | object (+38 more))",
      "",
      "```json Example",
      "{",
      '  "v0": "<string>"',
      "}",
      "```",
      "",
      "## Source",
    ].join("\n");
    const r = await runCli(["fs", "--dir", root, "for c in c0 c1 c2; do sed -n '/^## Messages/,/^## Source/p' /api-reference/$c.mdx; done"]);
    expect(r).toEqual({ code: 0, stdout: `${message}\n${message}\n${message}\n`, stderr: "" });
  });
  it("2.x: a channel whose message oneOf is shared by $ref writes the page a channel with its own copy writes (the spec's messages read once, not once a channel)", async () => {
    // Before (250 channels sharing a oneOf of 10,000 messages, bench/async-shared-site.ts):
    // check read 2,500,000 messages, 23 s of CPU and 890 MB; after, 10,000: 1.6 s and 134 MB.
    const spec = sharedMessageOneOfSpec(600, 3);
    const { big } = (spec.components as { messages: { big: unknown } }).messages;
    (spec.channels as Record<string, unknown>)["c/own"] = { subscribe: { operationId: "opown", message: structuredClone(big) } };
    const root = tempRepo(asyncSite(spec));
    const page = async (slug: string): Promise<string> => (await runCli(["fs", "--dir", root, `cat /api-reference/${slug}.mdx`])).stdout;
    const own = await page("cown");
    expect(own).toContain("### m232\n");
    for (const i of [0, 1, 2]) expect(await page(`c${i}`)).toEqual(own.replaceAll("c/own", `c/${i}`).replaceAll("opown", `op${i}`));
  });

  it("2.x: a message a restricted operation carries stays off its channel's page though an open operation on another channel carries the same message", async () => {
    const message = (name: string): Record<string, unknown> => ({ name, payload: { type: "object", properties: { [name]: { type: "string" } } } });
    const root = tempRepo(
      asyncSite({
        asyncapi: "2.6.0",
        info: { title: "T", version: "1" },
        channels: {
          open: { subscribe: { operationId: "openOp", message: { $ref: "#/components/messages/shared" } } },
          mixed: {
            publish: { operationId: "staffOp", "x-svc": { metadata: { groups: ["staff"] } }, message: { $ref: "#/components/messages/shared" } },
            subscribe: { operationId: "ownOp", message: { $ref: "#/components/messages/own" } },
          },
        },
        components: { messages: { shared: message("shared"), own: message("own") } },
      }),
    );
    const headings = "grep '^###' /api-reference/open.mdx /api-reference/mixed.mdx";
    expect(await runCli(["fs", "--dir", root, headings])).toEqual({
      code: 0,
      stdout: ["/api-reference/open.mdx:### SUBSCRIBE openOp", "/api-reference/open.mdx:### shared", "/api-reference/mixed.mdx:### SUBSCRIBE ownOp", "/api-reference/mixed.mdx:### own", ""].join("\n"),
      stderr: "",
    });
    expect(await runCli(["fs", "--dir", root, "--groups", "staff", headings])).toEqual({
      code: 0,
      stdout: ["/api-reference/open.mdx:### SUBSCRIBE openOp", "/api-reference/open.mdx:### shared", "/api-reference/mixed.mdx:### SUBSCRIBE ownOp", "/api-reference/mixed.mdx:### own", ""].join("\n"),
      stderr: "",
    });
  });
});
