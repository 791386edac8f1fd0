import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { DEMO, type Harness, credentialTokens, startBridge } from "./harness.js";

/**
 * Smoke test with the official MCP Inspector CLI, through `npm run inspector`
 * (scripts/inspector.mjs runs the pinned `@modelcontextprotocol/inspector-cli`, the program
 * `npx @modelcontextprotocol/inspector --cli` runs, with the same arguments). It runs from the
 * temp folder: on its own the inspector CLI fails wherever the working folder's parent has no
 * package.json.
 */
const exec = promisify(execFile);
const run = (args: string[]) => exec(process.execPath, [join(REPO, "scripts", "inspector.mjs"), ...args], { timeout: 300_000, cwd: tmpdir() });

let h: Harness;
beforeAll(async () => {
  h = await startBridge();
});
afterAll(() => h.close());

describe("MCP Inspector CLI", () => {
  it("lists the tools of /mcp", async () => {
    const { stdout } = await run(["--cli", h.urls.mcp, "--method", "tools/list"]);
    const { tools } = JSON.parse(stdout) as { tools: { name: string; annotations: object }[] };
    expect(tools.map((t) => t.name)).toEqual(["search_nimbus_storage", "query_docs_filesystem_nimbus_storage"]);
  });

  it("lists the tools of a stdio server it starts (svc-mcp serve)", async () => {
    const { stdout } = await run(["--cli", process.execPath, join(REPO, "bin", "svc-mcp.js"), "serve", "--dir", DEMO, "--no-watch", "--method", "tools/list"]);
    const { tools } = JSON.parse(stdout) as { tools: { name: string }[] };
    expect(tools.map((t) => t.name)).toEqual(["search_nimbus_storage", "query_docs_filesystem_nimbus_storage", "submit_feedback"]);
  });

  it("calls a tool on /authed/mcp with a bearer token", async () => {
    const { access_token } = await credentialTokens(h);
    const { stdout } = await run([
      "--cli",
      h.urls.authedMcp,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${access_token}`,
      "--method",
      "tools/call",
      "--tool-name",
      "query_docs_filesystem_nimbus_storage",
      "--tool-arg",
      "command=ls /internal",
    ]);
    expect((JSON.parse(stdout) as { content: { text: string }[] }).content[0]?.text).toBe("runbook.mdx\n");
  });
});
