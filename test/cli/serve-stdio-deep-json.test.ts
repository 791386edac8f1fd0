import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Adversary round 60 F2/F3 over stdio: a line of valid JSON nested thousands deep overflowed the
 * stack of the SDK's schemas, answered `-32603 Maximum call stack size exceeded`. It is now refused
 * on its text before it is parsed: `-32600` naming the bound, with the request's id; a
 * notification is only logged. Values are not counted over stdio (one client, nobody else to
 * stall): a line of 20,000 values is served. A real spawned server.
 */
const BIN = join(REPO, "bin", "svc-mcp.js");
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';
const nested = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);

let repo: { dir: string; cleanup: () => void };
let state: string;
beforeAll(() => {
  repo = makeRepo({ "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Start", pages: ["index"] }] } }), "index.mdx": "---\ntitle: Home\n---\n\nWelcome.\n" });
  state = mkdtempSync(join(tmpdir(), "svc-mcp-state-"));
});
afterAll(() => {
  repo.cleanup();
  rmSync(state, { recursive: true, force: true });
});

describe("serve over stdio, sent a line nested too deep", () => {
  it("answers it -32600 with its id, logs a notification, and goes on serving", async () => {
    const child = spawn(process.execPath, [BIN, "serve", "--dir", repo.dir, "--state", state, "--no-watch"], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => void (stdout += t));
    child.stderr.setEncoding("utf8").on("data", (t: string) => void (stderr += t));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const lines = [
      INIT,
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      `{"jsonrpc":"2.0","id":"deep-3","method":"tools/list","params":{"x":${nested(30_000)}}}`,
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"x":${nested(3_000)}}}`,
      `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"x":[${Array(20_000).fill("[]").join(",")}]}}}`,
      '{"jsonrpc":"2.0","id":2,"method":"ping"}',
    ];
    child.stdin.end(`${lines.join("\n")}\n`);
    expect(await exited).toBe(0);
    const answers = stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: unknown })
      .map((a) => (a.id === 1 ? { id: 1, result: "(initialize)" } : a))
      // The refusal is written as its line arrives, before the SDK answers: by id.
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
    const message = "Invalid Request: the line nests arrays and objects more than 64 levels deep";
    expect(answers).toEqual([
      { id: 1, result: "(initialize)" },
      { jsonrpc: "2.0", id: 2, result: {} },
      { jsonrpc: "2.0", id: 4, result: {} },
      { jsonrpc: "2.0", id: "deep-3", error: { code: -32600, message, data: { reason: "json_depth", limit: 64 } } },
    ]);
    expect(stderr.split("\n").filter((l) => l.includes("MCP:"))).toEqual([
      `svc-mcp: MCP: refused request "deep-3": -32600 ${message}`,
      `svc-mcp: MCP: refused a notification: -32600 ${message}`,
    ]);
  });
});
