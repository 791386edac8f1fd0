/**
 * Security row 207's residue: when every server an AsyncAPI 2 channel's `servers` list named is
 * one a stray rule restricts, the reader's copy cut the list whole, and a channel without
 * `servers` is on every server: the copy and the channel's page said the channel was on every
 * server the reader could see. Now the list is written as `x-svc-servers: "not shown"` in the
 * reader's copy of the file, and the page says `**Servers:** not shown` (the HTML page
 * `Servers: not shown`). Through the SDK client (anonymous and staff) and the HTML page.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { startBridge } from "../bridge/harness.js";
import { connect } from "../helpers/mcp.js";
import { writeRepo } from "./helpers.js";

const A2 = [
  "asyncapi: 2.6.0",
  "info: {title: T, version: '1'}",
  "servers:",
  "  pub: {url: pub.example.com, protocol: mqtt}",
  "  staffsrv:",
  "    url: staffhost.example.com",
  "    protocol: mqtt",
  "    x-svc: {metadata: {groups: [staff]}}",
  "channels:",
  "  mixed:",
  "    servers: [pub, staffsrv]",
  "    subscribe: {message: {payload: {type: string}}}",
  "  only:",
  "    # the staff broker only",
  "    servers:",
  "      - staffsrv",
  "",
  "    subscribe: {message: {payload: {type: string}}}",
  "  flow:",
  "    servers: [staffsrv]",
  "    publish: {message: {payload: {type: string}}}",
  "  every:",
  "    subscribe: {message: {payload: {type: string}}}",
  "",
].join("\n");

const FS = "query_docs_filesystem_srv";

describe("an AsyncAPI 2 channel every server of which the reader may not see", () => {
  let root: string;
  let runtime: DocsRuntime;

  beforeAll(async () => {
    root = writeRepo({ "docs.json": { name: "Srv", navigation: { groups: [{ group: "A2", asyncapi: "a2.yaml" }] } }, "a2.yaml": A2 });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("the reader's copy of the file says its servers are not shown, not that it is on every server", async () => {
    const anon = await connect(runtime);
    expect(anon.text(await anon.call(FS, { command: "cat /a2.yaml" }))).toBe(
      [
        "asyncapi: 2.6.0",
        "info: {title: T, version: '1'}",
        "servers:",
        "  pub: {url: pub.example.com, protocol: mqtt}",
        "channels:",
        "  mixed:",
        "    servers: [pub]",
        "    subscribe: {message: {payload: {type: string}}}",
        "  only:",
        '    x-svc-servers: "not shown"',
        "",
        "    subscribe: {message: {payload: {type: string}}}",
        "  flow:",
        '    x-svc-servers: "not shown"',
        "    publish: {message: {payload: {type: string}}}",
        // Named none: on every server, as written.
        "  every:",
        "    subscribe: {message: {payload: {type: string}}}",
        "",
      ].join("\n"),
    );
    await anon.close();
  });

  it("the channel pages say so, for every reader (a page is one file for all); the group's readers keep the file as written", async () => {
    for (const reader of [undefined, readerWithGroups(["staff"])]) {
      const c = reader === undefined ? await connect(runtime) : await connect(runtime, reader);
      expect(c.text(await c.call(FS, { command: "grep -r '^\\*\\*Servers:' /api-reference | sort" }))).toBe(
        [
          "/api-reference/every.mdx:**Servers:** `pub` (`mqtt pub.example.com`)",
          "/api-reference/flow.mdx:**Servers:** not shown",
          "/api-reference/mixed.mdx:**Servers:** `pub` (`mqtt pub.example.com`)",
          "/api-reference/only.mdx:**Servers:** not shown",
          "",
        ].join("\n"),
      );
      if (reader !== undefined) expect(c.text(await c.call(FS, { command: "cat /a2.yaml" }))).toBe(A2);
      await c.close();
    }
  });

  it("the HTML page says the same", async () => {
    const h = await startBridge({ root, authMode: "partial", apps: true });
    try {
      const lines = async (path: string): Promise<string[]> => (await (await fetch(`${h.origin}${path}`, { headers: { accept: "text/html" } })).text()).split("\n").filter((l) => l.includes("Servers:"));
      expect(await lines("/api-reference/only")).toEqual(['<p class="meta">Servers: not shown</p>']);
      expect(await lines("/api-reference/every")).toEqual(['<p class="meta">Servers: <code>pub</code> (<code>mqtt pub.example.com</code>)</p>']);
    } finally {
      await h.close();
    }
  });
});
