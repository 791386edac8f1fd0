import { afterAll, beforeAll, expect, it } from "vitest";
import { openSession, PROTOCOL, postJson, SEARCH } from "../bridge/harness.js";
import { fixture } from "../helpers/paths.js";
import { describePostgres, freshDatabase } from "../helpers/postgres.js";
import { type ServeProcess, startServe } from "../helpers/serve-http.js";

/** Two `serve --http` processes on one PostgreSQL database share their hourly limits. */
describePostgres("serve --http --state postgres://...", () => {
  let db: { url: string; drop: () => Promise<void> };
  let servers: ServeProcess[] = [];
  beforeAll(async () => {
    db = await freshDatabase();
    const args = ["--dir", fixture("demo"), "--state", db.url, "--rate-limit", "search=5", "--no-shell-worker"];
    // One after the other: the first migrates, the second finds the schema current.
    servers = [await startServe(args), await startServe(args)];
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => (s.child.once("exit", resolve), s.child.kill("SIGTERM")))));
    await db.drop();
  });

  it("says where its state is (without a password), and counts search calls across both: the sixth is refused on either", async () => {
    expect(servers[0]!.lines.some((l) => l.endsWith(`state in ${db.url}`))).toBe(true);
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: SEARCH, arguments: { query: "bucket" } } });
    const sessions = await Promise.all(servers.map((s) => openSession(`${s.origin}/mcp`)));
    const post = (i: number, id: number) => postJson(`${servers[i]!.origin}/mcp`, call(id), { "mcp-session-id": sessions[i]!, "mcp-protocol-version": PROTOCOL });
    const statuses = await Promise.all([0, 1, 0, 1, 0, 1, 0].map((i, n) => post(i, n + 1).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(2);
    const over = await post(1, 99);
    expect(over.status).toBe(429);
    expect((over.body as { error: { message: string } }).error.message).toMatch(/^Rate limit exceeded: at most 5 search calls per hour on this documentation site\. Retry after \d+ seconds\.$/);
    expect((await post(0, 100)).status).toBe(429);
  });
});
