import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, accessRepo, postJson, startBridge, userTokens } from "./harness.js";

/**
 * The servers that answer 2026-07-28 requests are used again once their request is answered
 * (`ServerPool`): over real HTTP, each request still gets what its own reader is due, the
 * instructions included (written when a server is made), and a site change is never answered
 * by a server made before it.
 */
let h: Harness;
let repo: ReturnType<typeof accessRepo>;
let staff: string;
let pat: string;
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "pool-test", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

beforeAll(async () => {
  repo = accessRepo();
  // A tab only staff readers see: their instructions name it.
  const docs = JSON.parse(readFileSync(join(repo.dir, "docs.json"), "utf8")) as { navigation: { tabs: unknown[] } };
  docs.navigation.tabs.push({ tab: "Staff handbook", groups: [{ group: "Operations", pages: ["internal/runbook"] }] });
  writeFileSync(join(repo.dir, "docs.json"), JSON.stringify(docs));
  h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled" });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
  await h.state.addUser("pat", "pat-password-1", []);
  pat = (await userTokens(h, "pat", "pat-password-1")).access_token;
});
afterAll(async () => {
  await h.close();
  repo.cleanup();
});

async function call(method: string, token?: string): Promise<Record<string, unknown>> {
  const url = token === undefined ? h.urls.mcp : h.urls.authedMcp;
  const headers = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }) };
  const r = await postJson(url, { jsonrpc: "2.0", id: 1, method, params: { _meta: ENVELOPE } }, headers);
  if (r.status !== 200) throw new Error(`${method}: ${r.status} ${r.text}`);
  return (r.body as { result: Record<string, unknown> }).result;
}

const instructions = async (token?: string): Promise<string> => (await call("server/discover", token)).instructions as string;
/** What a reader outside `staff` is told the site covers (anonymous or signed in alike). */
const ANONYMOUS_COVERS = "It covers: Guides, API reference.";
const STAFF_COVERS = "It covers: Guides, API reference, Staff handbook.";

describe("2026-07-28 servers used again", () => {
  it("answer each request as its own reader, however requests of readers interleave", async () => {
    // Two readers of the same endpoint (/authed/mcp), one of them in `staff`.
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => instructions(i % 2 === 0 ? pat : staff)));
    expect(answers.map((a) => (a.includes(STAFF_COVERS) ? "staff" : a.includes(ANONYMOUS_COVERS) ? "anonymous" : a))).toEqual(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? "anonymous" : "staff")));
    // One after the other, a reader's server is the same one again: no new server is kept.
    const idle = h.bridge.endpoint.servers.size;
    for (let i = 0; i < 5; i++) expect(await instructions(pat)).toContain(ANONYMOUS_COVERS);
    expect(h.bridge.endpoint.servers.size).toBe(idle);
  });

  it("never answer with a server made before a site change", async () => {
    expect(await instructions()).toMatch(/^Documentation for Nimbus Storage: /);
    const docs = JSON.parse(readFileSync(join(repo.dir, "docs.json"), "utf8")) as { name: string };
    writeFileSync(join(repo.dir, "docs.json"), JSON.stringify({ ...docs, name: "Nimbus Vault" }));
    await h.runtime.applyChanges(["docs.json"]);
    const discovered = await call("server/discover");
    expect((discovered.instructions as string).slice(0, 40)).toBe("Documentation for Nimbus Vault: Object s");
    expect(await instructions(staff)).toContain("Use search_nimbus_vault to find pages");
  });
});
