import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { workerExecArgv } from "../../src/engine/shell/worker-exec-argv.js";
import { fixture } from "../helpers/paths.js";
import { startServe } from "../helpers/serve-http.js";
import { stopProcess } from "../helpers/workers.js";
import { TestClient } from "../helpers/test-client.js";

describe("the docs shell worker's Node options", () => {
  it("keeps what loads code and drops process-wide options a worker thread refuses", () => {
    expect(
      workerExecArgv([
        "--max-old-space-size=4096",
        "--import",
        "tsx",
        "--stack-trace-limit=50",
        "--trace-gc",
        "--require=./preload.cjs",
        "--input-type=module",
        "--enable-source-maps",
        "--conditions",
        "development",
        "--experimental-vm-modules",
        "--expose-gc",
        "--title=docs",
        "--no-warnings",
      ]),
    ).toEqual(["--import", "tsx", "--require=./preload.cjs", "--enable-source-maps", "--conditions", "development", "--experimental-vm-modules", "--no-warnings"]);
  });

  it("keeps nothing of a plain start, and a value-taking option cut off at the end is dropped", () => {
    expect(workerExecArgv([])).toEqual([]);
    expect(workerExecArgv(["--import"])).toEqual([]);
  });
});

describe("serve --http started by node with process-wide options", () => {
  it("starts its shell workers and runs a filesystem command", async () => {
    const state = mkdtempSync(join(tmpdir(), "svc-mcp-execargv-"));
    const server = await startServe(["--dir", fixture("demo"), "--state", state], {}, ["--max-old-space-size=4096", "--stack-trace-limit=50", "--expose-gc"]);
    const client = new TestClient({ name: "execargv-test", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`)));
      const r = await client.callTool({ name: "query_docs_filesystem_nimbus_storage", arguments: { command: "head -2 /quickstart.mdx" } });
      expect(r.content).toEqual([{ type: "text", text: '---\ntitle: "Quickstart"\n' }]);
    } finally {
      await client.close();
      expect(await stopProcess(server.child)).toBe(0);
      rmSync(state, { recursive: true, force: true });
    }
  });
});
