import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Issue 25: a JSON-RPC id JSON.parse cannot read exactly (`12345678901234567890`, past 2^53 - 1;
 * `1e400`, out of a double's range) was echoed changed (`12345678901234567000`; null). Such an
 * id is refused by name, and the refusal echoes it as the client wrote it; so is a fraction. Raw
 * lines to a real spawned server, its answers compared as text (JSON.parse would change them).
 */
const BIN = join(REPO, "bin", "svc-mcp.js");
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';
const TOO_BIG = JSON.stringify({
  code: -32600,
  message: 'Invalid Request: the "id" member must be a string or an integer from -9007199254740991 to 9007199254740991: a number past that cannot be echoed exactly (send it as a string)',
});

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

describe("serve over stdio, ids a double cannot hold", () => {
  it("refuses each by name and echoes its text exactly; the largest exact integer is served", async () => {
    const child = spawn(process.execPath, [BIN, "serve", "--dir", repo.dir, "--state", state, "--no-watch"], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => void (stdout += t));
    child.stderr.setEncoding("utf8").on("data", (t: string) => void (stderr += t));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin.write(`${INIT}\n`);
    await new Promise<void>((resolve) => child.stdout.on("data", () => stdout.includes('"id":1') && resolve()));
    const from = stdout.length;
    child.stdin.end(
      [
        '{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
        '{"jsonrpc":"2.0","id": -1E+300 ,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
        '{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}',
        "",
      ].join("\n"),
    );
    expect(await exited).toBe(0);
    expect(stdout.slice(from)).toBe(
      [
        `{"jsonrpc":"2.0","id":12345678901234567890,"error":${TOO_BIG}}`,
        `{"jsonrpc":"2.0","id":1e400,"error":${TOO_BIG}}`,
        `{"jsonrpc":"2.0","id":-1E+300,"error":${TOO_BIG}}`,
        `{"jsonrpc":"2.0","id":1.5,"error":${JSON.stringify({ code: -32600, message: 'Invalid Request: the "id" member must be a string or an integer' })}}`,
        '{"result":{},"jsonrpc":"2.0","id":9007199254740991}',
        "",
      ].join("\n"),
    );
    expect(stderr.split("\n").filter((l) => l.includes("refused"))[0]).toBe(
      'svc-mcp: MCP: refused request 12345678901234567890: -32600 Invalid Request: the "id" member must be a string or an integer from -9007199254740991 to 9007199254740991: a number past that cannot be echoed exactly (send it as...',
    );
  });
});
