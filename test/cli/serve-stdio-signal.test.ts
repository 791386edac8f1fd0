import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Adversary round 17 F4: `serve` over stdio took SIGTERM or SIGINT and did not exit while its
 * client held stdin open (a supervisor, `timeout`, a hung client): the open pipe kept the process
 * alive until the client closed it. A real spawned server, stdin left open, stopped by each signal.
 */
const BIN = join(REPO, "bin", "svc-mcp.js");
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';

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

describe("serve over stdio, asked to stop while its stdin is open", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`exits 0 on ${signal}`, async () => {
      const child = spawn(process.execPath, [BIN, "serve", "--dir", repo.dir, "--state", state, "--no-watch"], { stdio: "pipe" });
      let stdout = "";
      const answered = new Promise<void>((resolve) =>
        child.stdout.setEncoding("utf8").on("data", (t: string) => {
          stdout += t;
          if (stdout.includes('"id":1')) resolve();
        }),
      );
      child.stderr.resume();
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once("exit", (code, sig) => resolve([code, sig])));
      child.stdin.write(`${INIT}\n`);
      await answered;
      child.kill(signal);
      expect(await exited).toEqual([0, null]);
      child.stdin.destroy();
    });
  }
});
