import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Issue 25: a client that writes a flood of bad lines on stdin made a stdio server write one
 * stderr line per line, without bound. Each request is still answered on stdout (and nothing
 * else is written there); stderr gets the first few refusals and then a count. A real spawned
 * server, its stdin closed after 1,000 unparseable lines and a ping.
 */
const BIN = join(REPO, "bin", "svc-mcp.js");
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';
const PARSE_ERROR = "Parse error: the line is not valid JSON (Unexpected token 'g', \"garbage\" is not valid JSON)";

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

describe("serve over stdio, flooded with bad lines", () => {
  it("answers each on stdout, and writes five lines and a count on stderr", async () => {
    const child = spawn(process.execPath, [BIN, "serve", "--dir", repo.dir, "--state", state, "--no-watch"], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => void (stdout += t));
    child.stderr.setEncoding("utf8").on("data", (t: string) => void (stderr += t));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin.end(`${INIT}\n${"garbage\n".repeat(1000)}{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    expect(await exited).toBe(0);
    // Each distinct answer and how often it came (the refusals are written before the SDK answers initialize).
    const answers = new Map<string, number>();
    for (const line of stdout.split("\n").filter((l) => l !== "")) {
      const { result, ...rest } = JSON.parse(line) as { result?: unknown };
      const key = JSON.stringify(result !== undefined && (rest as { id?: unknown }).id === 1 ? { ...rest, result: "(initialize)" } : { ...rest, result });
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(answers)).toEqual({
      [JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: PARSE_ERROR } })]: 1000,
      [JSON.stringify({ jsonrpc: "2.0", id: 1, result: "(initialize)" })]: 1,
      [JSON.stringify({ jsonrpc: "2.0", id: 2, result: {} })]: 1,
    });
    const refused = stderr.split("\n").filter((l) => l.includes("MCP:"));
    expect(refused).toEqual([
      ...Array.from({ length: 4 }, () => `svc-mcp: MCP: refused request null: -32700 ${PARSE_ERROR}`),
      `svc-mcp: MCP: refused request null: -32700 ${PARSE_ERROR} (later refused lines are counted, not logged, until none for 60 s)`,
      "svc-mcp: MCP: 995 more lines refused, not logged (1000 in this episode)",
    ]);
  });
});
