import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Stdin's end waits for the requests read before it (`src/mcp/stdio-drain.ts`), but only up to
 * `LIMITS.mcp.stdinDrainMs` (65 s): past it the process still stops, with one stderr line, and
 * exits 0. The bound is lowered here through `SVC_MCP_STDIN_DRAIN_MS` so the test does not wait
 * 65 s. The request still running at the bound is a shell command that never ends by itself
 * (an awk loop, ended by the shell's own 5 s limit): far longer than the 0.2 s bound, so the
 * bound is reached first however busy the machine is. Without the bound the process would
 * answer the call at its limit and exit then, without the line.
 */
const BIN = join(REPO, "bin", "svc-mcp.js");

let repo: { dir: string; cleanup: () => void };
let state: string;
beforeAll(() => {
  repo = makeRepo({ "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Start", pages: ["index"] }] } }), "index.mdx": "---\ntitle: Home\n---\n\nWelcome widgets.\n" });
  state = mkdtempSync(join(tmpdir(), "svc-mcp-state-"));
});
afterAll(() => {
  repo.cleanup();
  rmSync(state, { recursive: true, force: true });
});

const line = (message: object): string => `${JSON.stringify(message)}\n`;

/** Runs `serve` over stdio with `input` written and stdin closed at once; its exit code and outputs. */
async function serve(input: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, "serve", "--dir", repo.dir, "--state", state, "--no-watch", "--no-fetch-remote"], { stdio: "pipe", env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => void (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => void (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.stdin.end(input);
  return { code: await exited, stdout, stderr };
}

const INITIALIZE = line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) + line({ jsonrpc: "2.0", method: "notifications/initialized" });

it("a request still running when the bound passes is dropped with one stderr line, and the process exits 0", async () => {
  const loop = line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "query_docs_filesystem_acme", arguments: { command: "awk 'BEGIN{while(1){}}'" } } });
  const { code, stdout, stderr } = await serve(INITIALIZE + loop, { SVC_MCP_STDIN_DRAIN_MS: "200" });
  expect(code).toBe(0);
  // The initialize answer only: the call's was never written.
  expect(stdout.split("\n").filter((l) => l !== "").map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1]);
  expect(stderr).toBe(
    `svc-mcp: project "acme" (from the site name; set --project-id to change it); state in ${state}\n` +
      'svc-mcp: serving "Acme" (1 page) over stdio; tools search_acme, query_docs_filesystem_acme, submit_feedback\n' +
      "svc-mcp: stdin closed; 1 request still unanswered after 0.2 s dropped\n",
  );
});

it("a bound that is not a whole number of milliseconds is refused before the docs load, exit 2", async () => {
  const { code, stdout, stderr } = await serve(INITIALIZE, { SVC_MCP_STDIN_DRAIN_MS: "1.5" });
  expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: "", stderr: 'svc-mcp: SVC_MCP_STDIN_DRAIN_MS must be a whole number of milliseconds, got "1.5"\n' });
});
