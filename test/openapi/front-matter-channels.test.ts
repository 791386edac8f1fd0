/**
 * Issues 24/25: front matter `asyncapi` (the hosted platform's "channel page"): an MDX page shows
 * its prose, then the channel's reference as the channel's generated page shows it; the spec is
 * loaded and mounted though docs.json names no AsyncAPI spec; a channel or spec not every reader
 * of the page may read is not shown. Before, the key was ignored: the page showed its prose only
 * and `check` said nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { startBridge } from "../bridge/harness.js";
import { runCli } from "../helpers/cli.js";
import { writeRepo } from "./helpers.js";

const CHAT = [
  "asyncapi: 3.0.0",
  "info: {title: Chat, version: '1'}",
  "servers:",
  "  prod: {host: chat.example.com, protocol: wss}",
  "channels:",
  "  room:",
  "    address: /rooms/{roomId}",
  "    description: Messages of one room.",
  "    parameters: {roomId: {description: The room}}",
  "    messages: {said: {name: Said, payload: {type: object, properties: {text: {type: string, description: What was said}}}}}",
  "  audit:",
  "    address: /audit",
  "    description: AUDITSECRET trail.",
  "    x-svc: {metadata: {groups: [staff]}}",
  "    messages: {entry: {name: AUDITMSG, payload: {type: string}}}",
  "operations:",
  "  say: {action: send, summary: Say something, channel: {$ref: '#/channels/room'}, messages: [{$ref: '#/channels/room/messages/said'}]}",
  "",
].join("\n");

/** The reference `channelReference` renders for the room channel. */
const ROOM_REFERENCE = [
  "",
  "---",
  "",
  "Channel `/rooms/{roomId}`",
  "",
  "Messages of one room.",
  "",
  "**Servers:** `prod` (`wss chat.example.com`)",
  "",
  "## Parameters",
  "",
  "- [`roomId`](#roomId): The room",
  "",
  "## Operations",
  "",
  "### SEND say",
  "",
  "Say something",
  "",
  "Messages: `Said`",
  "",
  "## Messages",
  "",
  "### Said",
  "",
  "Payload:",
  "",
  "- `text` `string`: What was said",
  "",
  "```json Example",
  "{",
  '  "text": "<string>"',
  "}",
  "```",
  "",
  "## Source",
  "",
  "Generated from `/realtime/chat.asyncapi.yaml`: `yq '.[\"channels\"][\"room\"]' /realtime/chat.asyncapi.yaml`",
  "",
].join("\n");

const page = (title: string, asyncapi: string, extra = ""): string => `---\ntitle: ${title}\n${extra}asyncapi: "${asyncapi}"\n---\n\nWhat the room is for.\n`;

describe("front matter asyncapi", () => {
  let root: string;
  let runtime: DocsRuntime;
  const sh = async (command: string, groups: readonly string[] = []) => {
    const r = await runtime.readerState(localContext(readerWithGroups(groups))).shell.run(command);
    return r.stdout + r.stderr;
  };

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "Chat", navigation: { pages: ["index", "guides/chat", "guides/by-address", "guides/audit", "guides/missing", "guides/nospec", "staff/audit"] } },
      "index.mdx": "# Home\n",
      "guides/chat.mdx": page("Chat room", "/realtime/chat.asyncapi.yaml room"),
      // The channel alone, by its address: matched among the site's AsyncAPI specs.
      "guides/by-address.mdx": page("Room by address", "/rooms/{roomId}"),
      "guides/audit.mdx": page("Audit", "audit"),
      "guides/missing.mdx": page("Missing", "/realtime/chat.asyncapi.yaml nope"),
      "guides/nospec.mdx": page("No spec", "other.asyncapi.yaml room"),
      "staff/audit.mdx": page("Audit for staff", "realtime/chat.asyncapi.yaml audit", "groups: [staff]\n"),
      "realtime/chat.asyncapi.yaml": CHAT,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(() => runtime.close());

  it("a page shows its prose, then the channel's reference as its generated page shows it; the channel alone is found by its address", async () => {
    expect(await sh("cat /guides/chat.mdx")).toBe(page("Chat room", "/realtime/chat.asyncapi.yaml room") + ROOM_REFERENCE);
    expect(await sh("tail -n +5 /guides/by-address.mdx")).toBe(`\nWhat the room is for.\n${ROOM_REFERENCE}`);
    // Loaded and mounted though docs.json names no AsyncAPI spec.
    expect(await sh("ls /realtime")).toBe("chat.asyncapi.yaml\n");
  });

  it("the Source line of a YAML spec's page runs in the docs shell and prints the channel as YAML (jq, which reads JSON only, failed)", async () => {
    const line = ROOM_REFERENCE.split("\n").find((l) => l.startsWith("Generated from")) ?? "";
    const command = /: `(.*)`$/.exec(line)?.[1] ?? "";
    expect(command).toBe(`yq '.["channels"]["room"]' /realtime/chat.asyncapi.yaml`);
    expect(await sh(command)).toBe(
      [
        "address: /rooms/{roomId}",
        "description: Messages of one room.",
        "parameters:",
        "  roomId:",
        "    description: The room",
        "messages:",
        "  said:",
        "    name: Said",
        "    payload:",
        "      type: object",
        "      properties:",
        "        text:",
        "          type: string",
        "          description: What was said",
        "",
      ].join("\n"),
    );
  });

  it("search finds the page by what only its reference says", async () => {
    const hits = await runtime.search(localContext(), { query: "What was said" });
    expect(hits.map((h) => h.page.path).sort()).toEqual(["/guides/by-address", "/guides/chat"]);
  });

  it("a channel restricted beyond the page's readers is not shown on it, to anyone; its group's own page shows it", async () => {
    const audit = page("Audit", "audit");
    expect(await sh("cat /guides/audit.mdx")).toBe(audit);
    expect(await sh("cat /guides/audit.mdx", ["staff"])).toBe(audit);
    expect(await sh("grep -rl AUDITSECRET /")).toBe("");
    const staff = await sh("cat /staff/audit.mdx", ["staff"]);
    expect(staff).toContain("\n---\n\nChannel `/audit`\n\nAUDITSECRET trail.\n");
    expect(await sh("grep -rl AUDITSECRET /", ["staff"])).toBe("/realtime/chat.asyncapi.yaml\n/staff/audit.mdx\n");
    const anonymous = await runtime.search(localContext(), { query: "AUDITSECRET trail" });
    expect(anonymous.map((h) => h.page.path)).toEqual([]);
  });

  it("the page's HTML shows the prose, then the channel; the restricted channel's is not on the open page", async () => {
    const h = await startBridge({ root, authMode: "partial", apps: true });
    try {
      const html = async (path: string) => (await fetch(`${h.origin}${path}`, { headers: { accept: "text/html" } })).text();
      const chat = await html("/guides/chat");
      expect(chat.indexOf("What the room is for.")).toBeGreaterThan(-1);
      expect(chat.indexOf("What was said")).toBeGreaterThan(chat.indexOf("What the room is for."));
      const audit = await html("/guides/audit");
      expect(audit).toContain("What the room is for.");
      expect(audit).not.toContain("AUDITSECRET");
    } finally {
      await h.close();
    }
  });

  it("check says which pages show no channel, and why, at their asyncapi line", async () => {
    expect((await runCli(["check", "--dir", root])).stdout).toBe(
      [
        'guides/audit.mdx:3 asyncapi: warning: front matter asyncapi "audit" names a channel that is restricted to groups that not every reader of this page is in: it is not shown on the page',
        'guides/missing.mdx:3 asyncapi: warning: front matter asyncapi "/realtime/chat.asyncapi.yaml nope" matches no channel of realtime/chat.asyncapi.yaml (by channel id, then address): the page shows no channel',
        'guides/nospec.mdx:3 asyncapi: warning: front matter asyncapi "other.asyncapi.yaml room" names no spec found in the repository ("other.asyncapi.yaml", from its root, then this page\'s folder): the page shows no channel',
        "checked docs.json and 7 pages: 0 errors, 3 warnings",
        "",
      ].join("\n"),
    );
  });
});

describe("front matter asyncapi naming a spec only a restricted page names", () => {
  const OPS = ["asyncapi: 3.0.0", "info: {title: Ops, version: '1'}", "channels:", "  deploys: {address: deploys, description: DEPLOYSECRET feed.}", ""].join("\n");
  let root: string;
  let runtime: DocsRuntime;
  const sh = async (command: string, groups: readonly string[] = []) => {
    const r = await runtime.readerState(localContext(readerWithGroups(groups))).shell.run(command);
    return r.stdout + r.stderr;
  };
  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "Ops", navigation: { pages: ["index", "guides/deploys", "staff/deploys"] } },
      "index.mdx": "# Home\n",
      "staff/deploys.mdx": page("Deploys", "internal/ops.asyncapi.yaml deploys", "groups: [staff]\n"),
      // Names the channel alone: the one spec holding it is the staff's, so not a candidate here.
      "guides/deploys.mdx": page("Deploys", "deploys"),
      "internal/ops.asyncapi.yaml": OPS,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(() => runtime.close());

  it("nothing of the channel reaches anonymous readers; a group reader reads it on the group's page", async () => {
    expect(await sh("ls /internal")).toBe("ls: cannot access '/internal': No such file or directory\n");
    expect(await sh("cat /guides/deploys.mdx")).toBe(page("Deploys", "deploys"));
    expect(await sh("grep -rl DEPLOYSECRET /")).toBe("");
    expect((await runtime.search(localContext(), { query: "DEPLOYSECRET feed" })).map((h) => h.page.path)).toEqual([]);
    expect(await sh("cat /guides/deploys.mdx", ["staff"])).toBe(page("Deploys", "deploys"));
    expect(await sh("grep -rl DEPLOYSECRET /", ["staff"])).toBe("/internal/ops.asyncapi.yaml\n/staff/deploys.mdx\n");
    expect((await runtime.search(localContext(readerWithGroups(["staff"])), { query: "DEPLOYSECRET feed" })).map((h) => h.page.path)).toEqual(["/staff/deploys"]);
    expect((await runCli(["check", "--dir", root])).stdout).toBe(
      [
        'guides/deploys.mdx:3 asyncapi: warning: front matter asyncapi "deploys" names a channel that is in a spec file restricted to groups that not every reader of this page is in: it is not shown on the page',
        "checked docs.json and 3 pages: 0 errors, 1 warning",
        "",
      ].join("\n"),
    );
  });
});

describe("front matter asyncapi naming a channel several specs hold", () => {
  it("shows the first spec's by file name, and says so", async () => {
    const spec = (title: string) => ["asyncapi: 3.0.0", `info: {title: ${title}, version: '1'}`, "channels:", `  room: {address: room, description: ${title} room.}`, ""].join("\n");
    const root = writeRepo({
      "docs.json": { name: "Two", navigation: { groups: [{ group: "A", asyncapi: "b.asyncapi.yaml" }, { group: "B", asyncapi: "a.asyncapi.yaml" }, { group: "P", pages: ["room"] }] } },
      "room.mdx": page("Room", "room"),
      "a.asyncapi.yaml": spec("Alpha"),
      "b.asyncapi.yaml": spec("Beta"),
    });
    const fs = await runCli(["fs", "--dir", root, "sed -n 10,12p /room.mdx"]);
    expect(fs.stdout).toBe("Channel `room`\n\nAlpha room.\n");
    expect((await runCli(["check", "--dir", root])).stdout).toBe(
      [
        'room.mdx:3 asyncapi: warning: front matter asyncapi "room" names no spec, and 2 specs have that channel (a.asyncapi.yaml, b.asyncapi.yaml): the page shows a.asyncapi.yaml\'s, the first by file name; name one as "<spec file> room"',
        // The channel shown also has its generated page (group B names its spec).
        "room.mdx:3 asyncapi: warning: channel room (a.asyncapi.yaml) has two pages: the generated /api-reference/room-1 and room.mdx (front matter asyncapi); both show the channel: remove one (the page, or the spec from docs.json's navigation) to keep one",
        "checked docs.json and 1 page (+2 generated from API specs): 0 errors, 2 warnings",
        "",
      ].join("\n"),
    );
  });
});

describe("front matter asyncapi beside another page of the channel, or another API key (issue 25)", () => {
  const OPENAPI = JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1" }, paths: { "/orders": { get: { summary: "List orders", responses: { "200": { description: "OK" } } } } }, components: { schemas: { Order: { type: "object" } } } });

  it("says when a channel has its generated page and a channel page, as an operation's two pages are said (before: nothing)", async () => {
    const root = writeRepo({
      "docs.json": { name: "Chat", navigation: { groups: [{ group: "API", asyncapi: "realtime/chat.asyncapi.yaml" }, { group: "Guides", pages: ["guides/chat", "guides/audit"] }] } },
      "guides/chat.mdx": page("Chat room", "realtime/chat.asyncapi.yaml room"),
      // Only the staff see the audit channel's generated page; this page shows it to no one.
      "guides/audit.mdx": page("Audit", "audit"),
      "realtime/chat.asyncapi.yaml": CHAT,
    });
    expect((await runCli(["check", "--dir", root])).stdout).toBe(
      [
        'guides/audit.mdx:3 asyncapi: warning: front matter asyncapi "audit" names a channel that is restricted to groups that not every reader of this page is in: it is not shown on the page',
        "guides/chat.mdx:3 asyncapi: warning: channel room (realtime/chat.asyncapi.yaml) has two pages: the generated /api-reference/room and guides/chat.mdx (front matter asyncapi); both show the channel: remove one (the page, or the spec from docs.json's navigation) to keep one",
        "checked docs.json and 2 pages (+2 generated from API specs): 0 errors, 2 warnings",
        "",
      ].join("\n"),
    );
  });

  it("says when a page has asyncapi with openapi or openapi-schema, naming both keys (before: silent, the channel not shown)", async () => {
    const root = writeRepo({
      "docs.json": { name: "Shop", navigation: { pages: ["orders", "order", "room"] } },
      "orders.mdx": page("Orders", "chat.asyncapi.yaml room", 'openapi: "shop.json GET /orders"\n'),
      "order.mdx": page("Order", "room", "openapi-schema: Order\n"),
      "room.mdx": page("Room", "chat.asyncapi.yaml room"),
      "shop.json": OPENAPI,
      "chat.asyncapi.yaml": CHAT,
    });
    expect((await runCli(["check", "--dir", root])).stdout).toBe(
      [
        'order.mdx:4 asyncapi: warning: front matter asyncapi "room" is on a page with front matter openapi-schema "Order" as well: the page shows the openapi-schema reference only, no channel; keep one of the two keys',
        'orders.mdx:4 asyncapi: warning: front matter asyncapi "chat.asyncapi.yaml room" is on a page with front matter openapi "shop.json GET /orders" as well: the page shows the openapi reference only, no channel; keep one of the two keys',
        "checked docs.json and 3 pages: 0 errors, 2 warnings",
        "",
      ].join("\n"),
    );
    // What each page shows is as before: the openapi reference, the schema, the channel.
    const fs = await runCli(["fs", "--dir", root, "grep -c 'Channel `/rooms' /orders.mdx /order.mdx /room.mdx"]);
    expect(fs.stdout).toBe("/orders.mdx:0\n/order.mdx:0\n/room.mdx:1\n");
  });
});
