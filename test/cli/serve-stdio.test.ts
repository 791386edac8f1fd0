import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { REPO, fixture } from "../helpers/paths.js";
import { TestClient } from "../helpers/test-client.js";

const BIN = join(REPO, "bin", "svc-mcp.js");

describe("svc-mcp serve (stdio)", () => {
  it("serves the docs to the SDK client over a spawned process", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "serve", "--dir", fixture("demo"), "--no-watch", "--base-url", "https://docs.nimbus.example"],
      stderr: "pipe",
    });
    const client = new TestClient({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_nimbus_storage", "query_docs_filesystem_nimbus_storage", "submit_feedback"]);
    const r = await client.callTool({ name: "query_docs_filesystem_nimbus_storage", arguments: { command: "head -3 /quickstart.mdx /index.mdx" } });
    expect((r.content as { text: string }[])[0]?.text).toBe(
      '==> /quickstart.mdx <==\n---\ntitle: "Quickstart"\ndescription: "Create a bucket and upload your first file."\n\n' +
        '==> /index.mdx <==\n---\ntitle: "Introduction"\ndescription: "Nimbus stores files in buckets and serves them over HTTPS."\n',
    );
    const s = await client.callTool({ name: "search_nimbus_storage", arguments: { query: "multipart upload parts", pageSize: 1 } });
    expect((s.structuredContent as { results: { url: string }[] }).results[0]?.url).toBe("https://docs.nimbus.example/guides/uploading-files#multipart-upload");
    await client.close();
  });

  it("writes nothing but JSON-RPC to stdout, and its logs to stderr", async () => {
    const stateHome = mkdtempSync(join(tmpdir(), "svc-mcp-state-"));
    const child = spawn(process.execPath, [BIN, "serve", "--dir", fixture("demo"), "--no-watch"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, XDG_STATE_HOME: stateHome },
    });
    let stdout = "";
    let stderr = "";
    let answered!: () => void;
    const threeAnswers = new Promise<void>((resolve) => (answered = resolve));
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (stdout.split("\n").filter((l) => l !== "").length >= 3) answered();
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const send = (msg: object): void => void child.stdin.write(`${JSON.stringify(msg)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "query_docs_filesystem_nimbus_storage", arguments: { command: "cat /nope.mdx" } } });
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search_nimbus_storage", arguments: { query: "x", pageSize: 99 } } });
    await threeAnswers;
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const lines = stdout.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(3);
    // Responses may arrive in any order (requests run concurrently): order them by id.
    const messages = lines
      .map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result?: unknown; error?: { code: number; message: string } })
      .sort((a, b) => a.id - b.id);
    for (const m of messages) expect(m.jsonrpc).toBe("2.0");
    expect(messages[1]?.result).toMatchObject({ isError: true, content: [{ type: "text", text: "cat: /nope.mdx: No such file or directory\n[exit code 1]" }] });
    expect(messages[2]?.result).toEqual({
      content: [{ type: "text", text: "Invalid arguments for search_nimbus_storage: pageSize: must be an integer from 1 to 50 (got 99)" }],
      isError: true,
    });
    expect(stderr).toBe(
      `svc-mcp: project "nimbus-storage" (from the site name; set --project-id to change it); state in ${stateHome}/svc-mcp/nimbus-storage\n` +
        'svc-mcp: serving "Nimbus Storage" (9 pages) over stdio; tools search_nimbus_storage, query_docs_filesystem_nimbus_storage, submit_feedback\n',
    );
    // No feedback was sent, so no state was created.
    expect(readdirSync(stateHome)).toEqual([]);
    rmSync(stateHome, { recursive: true, force: true });
  });
});
