import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Adversary round 16 F5: a line longer than the SDK's stdio buffer (10 MiB with its newline) made
 * the SDK's transport close itself; the process lived on and answered nothing more. Such a line is
 * now answered (-32600, with its id when its start names one) and the session goes on. A real
 * spawned server: a request of exactly 10 MiB (the first length the SDK refused), a line of 11 MB
 * with no id, then a ping.
 */
const BIN = join(REPO, "bin", "svc-mcp.js");
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';
const MAX = 10 * 1024 * 1024;

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

describe("serve over stdio, sent a line longer than a message may be", () => {
  it("answers it with its id and goes on serving", async () => {
    const child = spawn(process.execPath, [BIN, "serve", "--dir", repo.dir, "--state", state, "--no-watch"], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => void (stdout += t));
    child.stderr.setEncoding("utf8").on("data", (t: string) => void (stderr += t));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const start = '{"jsonrpc":"2.0","id":"big-7","method":"tools/call","params":{"name":"search","arguments":{"query":"';
    const end = '"}}}';
    const exact = `${start}${"a".repeat(MAX - start.length - end.length)}${end}`;
    expect(Buffer.byteLength(exact)).toBe(MAX);
    child.stdin.end(`${INIT}\n${exact}\n${"b".repeat(11_000_000)}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    expect(await exited).toBe(0);
    const answers = stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: unknown })
      .map((a) => (a.id === 1 ? { id: 1, result: "(initialize)" } : a))
      // The refusals are written as the lines arrive, before the SDK answers initialize: by id.
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
    const tooLong = (bytes: number): string => `Invalid Request: the line is ${bytes} bytes long; a message over stdio may be at most ${MAX - 1} bytes`;
    expect(answers).toEqual([
      { id: 1, result: "(initialize)" },
      { jsonrpc: "2.0", id: 2, result: {} },
      { jsonrpc: "2.0", id: "big-7", error: { code: -32600, message: tooLong(MAX) } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: tooLong(11_000_000) } },
    ]);
    expect(stderr.split("\n").filter((l) => l.includes("MCP:"))).toEqual([
      `svc-mcp: MCP: refused request "big-7": -32600 ${tooLong(MAX)}`,
      `svc-mcp: MCP: refused request null: -32600 ${tooLong(11_000_000)}`,
    ]);
  });
});
