import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, copyToTemp, fixture } from "../helpers/paths.js";

/**
 * `svc-mcp serve` over stdio in both protocol generations, with the official SDK v2 client in
 * a spawned process: the 2025-11-25 handshake, and 2026-07-28 (no `initialize`; notifications
 * on `subscriptions/listen`). One server per connection serves whichever the client opens with.
 */

const BIN = join(REPO, "bin", "svc-mcp.js");
const SEARCH = "search_nimbus_storage";
const FS = "query_docs_filesystem_nimbus_storage";

let repo: ReturnType<typeof copyToTemp>;
let state: string;
beforeAll(() => {
  repo = copyToTemp(fixture("demo"));
  state = mkdtempSync(join(tmpdir(), "svc-mcp-state-"));
});
afterAll(() => {
  repo.cleanup();
  rmSync(state, { recursive: true, force: true });
});

describe.each(["2025-11-25", "2026-07-28"] as const)("serve over stdio, protocol %s", (era) => {
  it("lists and calls both tools, and announces a page added", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "serve", "--dir", repo.dir, "--base-url", "https://docs.nimbus.example", "--state", state],
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-generations", version: "1.0.0" }, era === "2026-07-28" ? { versionNegotiation: { mode: { pin: era } } } : {});
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe(era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).slice(0, 2)).toEqual([SEARCH, FS]);
    const head = await client.callTool({ name: FS, arguments: { command: "head -2 /quickstart.mdx" } });
    expect((head.content as { text: string }[])[0]?.text).toBe('---\ntitle: "Quickstart"\n');
    const search = await client.callTool({ name: SEARCH, arguments: { query: "multipart upload parts", pageSize: 1 } });
    expect((search.content as { text: string }[])[0]?.text).toContain("https://docs.nimbus.example/guides/uploading-files#multipart-upload");

    const heard = new Promise<string>((resolve) => client.setNotificationHandler("notifications/resources/list_changed", () => resolve("resources changed")));
    const subscription = era === "2026-07-28" ? await client.listen({ resourcesListChanged: true }) : undefined;
    // A page added (the reader's readable pages change); an edit that changes none of the
    // reader's lists tells nobody, as over HTTP (adversary round 11, F3).
    writeFileSync(join(repo.dir, `added-${era}.mdx`), `---\ntitle: "Added"\n---\n\nAdded over ${era}.\n`);
    expect(await heard).toBe("resources changed");
    await subscription?.close();
    await client.close();
  });
});
