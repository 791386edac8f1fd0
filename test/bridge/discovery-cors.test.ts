import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, accessRepo, startBridge, userTokens } from "./harness.js";

/**
 * The discovery documents are public and read by browser-based clients from their own origin:
 * every answer (errors included) carries `Access-Control-Allow-Origin: *`, whatever the
 * `Origin`, and their CORS preflight is answered. The Host check (DNS rebinding) still applies,
 * and the MCP and OAuth paths keep their own origin rules.
 */
let repo: ReturnType<typeof accessRepo>;
let h: Harness;
let staff: string;
const FOREIGN = "https://agent.elsewhere.example";

beforeAll(async () => {
  repo = accessRepo();
  h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled" });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
});
afterAll(async () => {
  await h.close();
  repo.cleanup();
});

/** The response's CORS headers, by lower-case name. */
function corsHeaders(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers].filter(([name]) => name.startsWith("access-control-") || name === "vary"));
}

/** Each discovery document: what it is, and its path. */
const DOCUMENTS: readonly [string, string][] = [
  ["/.well-known/mcp", "/.well-known/mcp"],
  ["the /mcp server card", "/mcp/server-card"],
  ["the /authed/mcp server card", "/authed/mcp/server-card"],
  ["the MCP catalog", "/.well-known/mcp/catalog.json"],
  ["the AI catalog", "/.well-known/ai-catalog.json"],
  ["the Agent Skills index", "/.well-known/agent-skills/index.json"],
  ["a SKILL.md", "/.well-known/agent-skills/oncall/SKILL.md"],
  ["the main card", "/.well-known/mcp/server-card.json"],
  ["the main card (SEP-1649's path)", "/.well-known/mcp.json"],
  ["/mcp's card (.json)", "/mcp/server-card.json"],
  ["every card", "/.well-known/mcp/server-cards.json"],
];

/** The CORS headers of every answer: any origin, and the ETag readable (for `If-None-Match`). */
const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "ETag" };

describe("discovery documents from any origin", () => {
  it.each(DOCUMENTS)("GET of %s answers with Access-Control-Allow-Origin: *", async (name, path) => {
    const res = await fetch(`${h.origin}${path}`, { headers: { Origin: FOREIGN } });
    // The staff-only skill is a 404 to an anonymous reader: an error a browser client may read too.
    expect({ status: res.status, cors: corsHeaders(res) }).toEqual({ status: name === "a SKILL.md" ? 404 : 200, cors: CORS });
  });

  it("answers without an Origin alike", async () => {
    const res = await fetch(h.urls.serverCard);
    expect(corsHeaders(res)).toEqual(CORS);
  });

  it("serves a token's share cross-origin: the staff-only skill with the staff token", async () => {
    const res = await fetch(h.urls.agentSkill("oncall"), { headers: { Origin: FOREIGN, Authorization: `Bearer ${staff}` } });
    // A token's bytes: `Vary: Authorization`, so no cache hands them to another token.
    expect({ status: res.status, cors: corsHeaders(res) }).toEqual({ status: 200, cors: { ...CORS, vary: "Authorization" } });
    expect(await res.text()).toContain("STAFF-SKILL-44D1");
  });

  it("answers the CORS preflight of each document with 204 and exactly the CORS headers", async () => {
    for (const [name, path] of DOCUMENTS) {
      const res = await fetch(`${h.origin}${path}`, {
        method: "OPTIONS",
        headers: { Origin: FOREIGN, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
      });
      expect({ name, status: res.status, cors: corsHeaders(res), body: await res.text() }).toEqual({
        name,
        status: 204,
        cors: {
          "access-control-allow-origin": "*",
          "access-control-allow-methods": "GET, HEAD, OPTIONS",
          "access-control-allow-headers": "Authorization, Accept, If-None-Match",
          "access-control-max-age": "600",
        },
        body: "",
      });
    }
  });

  it("still refuses a Host that is not served here (DNS rebinding)", async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(h.urls.serverCard, { headers: { Host: "evil.example:80", Origin: FOREIGN } }, (r) => {
        let text = "";
        r.on("data", (d: Buffer) => (text += d.toString()));
        r.on("end", () => resolve({ status: r.statusCode ?? 0, body: text }));
      });
      req.on("error", reject);
      req.end();
    });
    expect({ status: res.status, body: JSON.parse(res.body) as unknown }).toEqual({
      status: 403,
      body: { error: { code: "forbidden_host", message: 'Host "evil.example:80" is not served here' } },
    });
  });

  it("keeps the origin rules of the MCP endpoint and the OAuth metadata", async () => {
    const mcp = await fetch(h.urls.mcp, { method: "POST", headers: { Origin: FOREIGN, "Content-Type": "application/json" }, body: "{}" });
    expect({ status: mcp.status, cors: corsHeaders(mcp) }).toEqual({ status: 403, cors: {} });
    const metadata = await fetch(h.urls.protectedResourceMetadata, { headers: { Origin: FOREIGN } });
    expect({ status: metadata.status, cors: corsHeaders(metadata) }).toEqual({ status: 403, cors: {} });
  });
});
