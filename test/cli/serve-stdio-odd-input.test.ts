import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Adversary round 14 F3: over stdio, a request the SDK cannot parse (`params: [1]`, `"x"` or
 * null, `_meta: []`, a progress token that is an object, `jsonrpc: "1.0"`, broken JSON) got no
 * answer at all, only a zod dump on stderr. Each is now answered with the error HTTP answers it
 * with and the request's id (null where none can be read); a notification is never answered; a
 * byte order mark at the start of a line is dropped. Raw lines to a real spawned server.
 */
const BIN = join(REPO, "bin", "svc-mcp.js");
const CALL = (id: number, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
const QUERY = { name: "search_acme", arguments: { query: "widgets" } };

/** Each odd line, and the answer it gets (undefined: none). */
const CASES: [string, string, unknown][] = [
  ["params an array", CALL(101, [1]), { jsonrpc: "2.0", id: 101, error: { code: -32602, message: "Invalid params: params: must be an object (got an array)" } }],
  ["params a string", CALL(102, "x"), { jsonrpc: "2.0", id: 102, error: { code: -32600, message: 'Invalid Request: the "params" member must be an object' } }],
  ["params null", CALL(103, null), { jsonrpc: "2.0", id: 103, error: { code: -32600, message: 'Invalid Request: the "params" member must be an object' } }],
  ["_meta an array", CALL(104, { ...QUERY, _meta: [] }), { jsonrpc: "2.0", id: 104, error: { code: -32602, message: "Invalid params: params._meta: must be an object (got an array)" } }],
  [
    "a progress token that is an object",
    CALL(105, { ...QUERY, _meta: { progressToken: { a: 1 } } }),
    { jsonrpc: "2.0", id: 105, error: { code: -32602, message: "Invalid params: params._meta.progressToken: must be a string or an integer (got an object)" } },
  ],
  ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":106,"method":"ping"}', { jsonrpc: "2.0", id: 106, error: { code: -32600, message: 'Invalid Request: the "jsonrpc" member must be "2.0"' } }],
  ["an id that is no integer", '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', { jsonrpc: "2.0", id: 1.5, error: { code: -32600, message: 'Invalid Request: the "id" member must be a string or an integer' } }],
  [
    "broken JSON",
    '{"jsonrpc":"2.0","id":107,"method":"ping"',
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the line is not valid JSON (Expected ',' or '}' after property value in JSON at position 41)" } },
  ],
  ["a batch", '[{"jsonrpc":"2.0","id":108,"method":"ping"}]', { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: each message must be a JSON object" } }],
  ["a notification with params an array", '{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}', undefined],
  ["a byte order mark", '\uFEFF{"jsonrpc":"2.0","id":109,"method":"ping"}', { jsonrpc: "2.0", id: 109, result: {} }],
];

let repo: { dir: string; cleanup: () => void };
let state: string;
let child: ChildProcessWithoutNullStreams;
let stdout = "";
let stderr = "";
/** Resolvers of the answers awaited, by id. */
const waiting = new Map<number, (answer: unknown) => void>();
const lines: unknown[] = [];

beforeAll(async () => {
  repo = makeRepo({ "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Start", pages: ["index"] }] } }), "index.mdx": "---\ntitle: Home\n---\n\nWelcome widgets.\n" });
  state = mkdtempSync(join(tmpdir(), "svc-mcp-state-"));
  child = spawn(process.execPath, [BIN, "serve", "--dir", repo.dir, "--state", state, "--no-watch"], { stdio: "pipe" });
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    stdout += text;
    for (let end = stdout.indexOf("\n"); end !== -1; end = stdout.indexOf("\n")) {
      const message = JSON.parse(stdout.slice(0, end)) as { id?: unknown };
      stdout = stdout.slice(end + 1);
      lines.push(message);
      if (typeof message.id === "number") waiting.get(message.id)?.(message);
    }
  });
  child.stderr.setEncoding("utf8").on("data", (text: string) => void (stderr += text));
  await ask(1, '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}');
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
});
afterAll(async () => {
  // Removed once the server has exited: one still stopping may write its cache and state there.
  const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
  child.kill();
  await exited;
  repo.cleanup();
  rmSync(state, { recursive: true, force: true });
});

/** Write a line, then a ping, and give every line answered up to the ping's answer. */
async function ask(id: number, line: string): Promise<unknown> {
  const answered = new Promise((resolve) => waiting.set(id, resolve));
  child.stdin.write(`${line}\n`);
  return answered;
}

describe("serve over stdio answers each odd line as HTTP does", () => {
  it.each(CASES)("%s", async (_name, line, answer) => {
    const from = lines.length;
    const sync = 900 + from;
    child.stdin.write(`${line}\n`);
    await ask(sync, JSON.stringify({ jsonrpc: "2.0", id: sync, method: "ping" }));
    expect(lines.slice(from)).toEqual([...(answer !== undefined ? [answer] : []), { jsonrpc: "2.0", id: sync, result: {} }]);
  });

  it("writes one short line on stderr for each of the first five refused lines (later ones are counted: serve-stdio-flood.test.ts), and nothing but protocol on stdout", () => {
    expect(stdout).toBe("");
    const refused = stderr.split("\n").filter((l) => l.includes("refused"));
    expect(refused).toEqual([
      "svc-mcp: MCP: refused request 101: -32602 Invalid params: params: must be an object (got an array)",
      'svc-mcp: MCP: refused request 102: -32600 Invalid Request: the "params" member must be an object',
      'svc-mcp: MCP: refused request 103: -32600 Invalid Request: the "params" member must be an object',
      "svc-mcp: MCP: refused request 104: -32602 Invalid params: params._meta: must be an object (got an array)",
      "svc-mcp: MCP: refused request 105: -32602 Invalid params: params._meta.progressToken: must be a string or an integer (got an object) (later refused lines are counted, not logged, until none for 60 s)",
    ]);
    expect(stderr).not.toMatch(/ZodError|invalid_type|"path"/);
  });
});
