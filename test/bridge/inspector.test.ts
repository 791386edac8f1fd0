import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { type Harness, credentialTokens, startBridge } from "./harness.js";

/**
 * Smoke test with the official MCP Inspector CLI. `@modelcontextprotocol/inspector-cli` (a pinned
 * devDependency) is the program `npx @modelcontextprotocol/inspector --cli` runs; its launcher
 * takes the same arguments.
 */
const launcher = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/build/cli.js");
const exec = promisify(execFile);
/**
 * The standalone inspector-cli finds its own package.json by testing `../package.json` against
 * the working directory (an upstream quirk): run it from a folder whose parent has one.
 */
const run = (args: string[]) => exec(process.execPath, [launcher, ...args], { timeout: 60_000, cwd: join(REPO, "test") });

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
