import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeSuite, findSuite } from "../helpers/conformance.js";
import { fixture } from "../helpers/paths.js";
import { type ServeProcess, startServe } from "../helpers/serve-http.js";

/**
 * The official MCP conformance suite's server scenarios against `svc-mcp serve --http` (the
 * bundled demo site, so it runs without ../shared), at both protocol generations: 2025-11-25
 * with the suite's 0.1 line and 2026-07-28 with its 0.2 line, every scenario of `--suite all`.
 * What does not apply to a docs server is listed with its reason in expected-failures-*.yml;
 * the suite exits non-zero on any other failure, and on an expected failure that passes.
 */

const REVISIONS = [
  { revision: "2025-11-25", found: findSuite("@modelcontextprotocol/conformance") },
  { revision: "2026-07-28", found: findSuite("conformance-2026") },
] as const;

let serve: ServeProcess;
let state: string;
let out: string;
beforeAll(async () => {
  state = mkdtempSync(join(tmpdir(), "svc-mcp-conformance-state-"));
  out = mkdtempSync(join(tmpdir(), "svc-mcp-conformance-"));
  serve = await startServe(["--dir", fixture("demo"), "--state", state, "--no-fetch-remote"]);
});
afterAll(async () => {
  const exited = new Promise((resolve) => serve.child.once("exit", resolve));
  serve.child.kill("SIGTERM");
  await exited;
  rmSync(state, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

for (const { revision, found } of REVISIONS) {
  describeSuite(found, `conformance server scenarios, ${revision}`, ({ cli, node }) => {
    it("passes every scenario that applies to a docs server", async () => {
      const baseline = join(import.meta.dirname, `expected-failures-${revision}.yml`);
      const args = [cli, "server", "--url", `${serve.origin}/mcp`, "--spec-version", revision, "--suite", "all", "--expected-failures", baseline, "--output-dir", join(out, revision)];
      const child = spawn(node, args, { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      // The suite's own summary says which scenario regressed or which entry went stale.
      expect({ code, summary: code === 0 ? "" : output.slice(output.indexOf("=== SUMMARY ===")) }).toEqual({ code: 0, summary: "" });
    });
  });
}
