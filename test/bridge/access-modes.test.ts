import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FS, type Harness, INIT, SEARCH, accessRepo, credentialTokens, mcpClient, postJson, runCli, startBridge, userTokens } from "./harness.js";

/**
 * The site's auth setting and the MCP toggle, exactly as the README states them, changed by
 * the CLI while the server runs (the server reads them at every request).
 */

let repo: ReturnType<typeof accessRepo>;
let h: Harness;
const token: Record<"sam" | "ned" | "credential", string> = { sam: "", ned: "", credential: "" };

const ALL = "api\nguides\nindex.mdx\ninternal\npartners\nquickstart.mdx\nstatus.mdx\n";
const UNGROUPED = "api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\nstatus.mdx\n";
const DISABLED = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32000, message: "The MCP server of the Nimbus Storage documentation is not enabled", data: { reason: "mcp_disabled" } },
};

beforeAll(async () => {
  repo = accessRepo();
  h = await startBridge({ root: repo.dir });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  await h.state.addUser("ned", "ned-password-1", []);
  token.sam = (await userTokens(h, "sam", "sam-password-1")).access_token;
  token.ned = (await userTokens(h, "ned", "ned-password-1")).access_token;
  token.credential = (await credentialTokens(h)).access_token;
});
afterAll(async () => {
  await h.close();
  repo.cleanup();
});

/** Change a setting the way an owner does: the CLI, against the running server's state. */
async function cli(...argv: string[]) {
  const r = await runCli([...argv, "--dir", repo.dir, "--state", h.stateDir]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
}

async function ls(who: "anonymous" | keyof typeof token, command = "ls /"): Promise<string> {
  const c = who === "anonymous" ? await mcpClient(h.urls.mcp) : await mcpClient(h.urls.authedMcp, { token: token[who] });
  try {
    return await c.text(FS, { command });
  } finally {
    await c.close();
  }
}

async function status(url: string, bearer?: string) {
  return postJson(url, INIT, bearer === undefined ? {} : { Authorization: `Bearer ${bearer}` });
}

describe("public docs (the default)", () => {
  it("serve /mcp without enabling: anonymous readers get pages without groups and public ones", async () => {
    expect(await ls("anonymous")).toBe(UNGROUPED);
    expect(await ls("ned")).toBe(UNGROUPED);
    expect(await ls("sam")).toBe(ALL);
    expect(await ls("credential")).toBe(ALL);
  });

  it("turn off with `mcp disable` (both endpoints answer 403) and back on with `mcp enable`", async () => {
    expect(await cli("mcp", "disable")).toBe(
      "Disabled the MCP server: /mcp and /authed/mcp answer 403. A running server applies this at its next request.\n" +
        "site auth    public\n" +
        "MCP server   disabled (enable with `svc-mcp mcp enable`)\n" +
        "/mcp         no sign-in; pages without `groups`, and pages marked `public: true`\n" +
        "/authed/mcp  bearer token required; a person reads public pages and their groups' pages; a client credential reads every page\n",
    );
    for (const [url, bearer] of [[h.urls.mcp, undefined], [h.urls.authedMcp, token.sam]] as const) {
      const r = await status(url, bearer);
      expect(r.status).toBe(403);
      expect(r.body).toEqual(DISABLED);
    }
    await cli("mcp", "enable");
    expect((await status(h.urls.mcp)).status).toBe(200);
  });
});

describe("partially authenticated docs", () => {
  it("start disabled until the owner enables the server", async () => {
    // A fresh state: the owner has not chosen yet, so the mode's default applies.
    const fresh = await startBridge({ root: repo.dir, authMode: "partial" });
    try {
      expect((await status(fresh.urls.mcp)).body).toEqual(DISABLED);
      expect((await status(fresh.urls.authedMcp)).status).toBe(403);
      const out = await runCli(["mcp", "status", "--dir", repo.dir, "--state", fresh.stateDir]);
      expect(out.stdout).toBe(
        "site auth    partial\n" +
          "MCP server   disabled: docs with authentication start disabled (enable with `svc-mcp mcp enable`)\n" +
          "/mcp         no sign-in; pages without `groups`, and pages marked `public: true`\n" +
          "/authed/mcp  bearer token required; a person reads public pages and their groups' pages; a client credential reads every page\n",
      );
      await runCli(["mcp", "enable", "--dir", repo.dir, "--state", fresh.stateDir]);
      expect((await status(fresh.urls.mcp)).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it("once enabled, /mcp serves public content only and /authed/mcp scopes to the token", async () => {
    await cli("mcp", "auth", "partial");
    await cli("mcp", "enable");
    expect(await ls("anonymous")).toBe(UNGROUPED);
    expect(await ls("ned")).toBe(UNGROUPED);
    expect(await ls("sam")).toBe(ALL);
    expect(await ls("credential")).toBe(ALL);
    expect((await status(h.urls.authedMcp)).status).toBe(401);
  });
});

describe("fully authenticated docs", () => {
  it("serve anonymous readers only `public: true` pages; signed-in readers ungrouped pages plus their groups'", async () => {
    expect(await cli("mcp", "auth", "full")).toContain("Site auth set to full.");
    expect(await ls("anonymous")).toBe("status.mdx\n");
    expect(await ls("ned")).toBe(UNGROUPED);
    expect(await ls("sam")).toBe(ALL);
    expect(await ls("credential")).toBe(ALL);
  });

  it("search only public pages for /mcp, and offer anonymous readers no generated skill", async () => {
    const paths = async (c: Awaited<ReturnType<typeof mcpClient>>) => {
      const r = await c.client.callTool({ name: SEARCH, arguments: { query: "signed url", pageSize: 3 } });
      return (r.structuredContent as { results: { path: string }[] }).results.map((x) => x.path);
    };
    const anon = await mcpClient(h.urls.mcp);
    expect(await paths(anon)).toEqual([]);
    expect((await anon.client.listResources()).resources).toEqual([]);
    await anon.close();
    const ned = await mcpClient(h.urls.authedMcp, { token: token.ned });
    expect((await paths(ned))[0]).toBe("/guides/access-control");
    expect((await ned.client.listResources()).resources.map((r) => r.uri)).toEqual(["docs://nimbus_storage/skill.md"]);
    await ned.close();
  });

  it("apply a change to an open session at its next request", async () => {
    const c = await mcpClient(h.urls.mcp);
    expect(await c.text(FS, { command: "ls /" })).toBe("status.mdx\n");
    await cli("mcp", "auth", "partial");
    expect(await c.text(FS, { command: "ls /" })).toBe(UNGROUPED);
    await cli("mcp", "disable");
    await expect(c.client.callTool({ name: FS, arguments: { command: "ls /" } })).rejects.toThrow(
      'Error POSTing to endpoint: {"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"The MCP server of the Nimbus Storage documentation is not enabled","data":{"reason":"mcp_disabled"}}}',
    );
    await cli("mcp", "enable");
    expect(await c.text(FS, { command: "ls /" })).toBe(UNGROUPED);
    await c.close();
  });
});
