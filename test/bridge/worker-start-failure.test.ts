import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * `serve --http --workers 2` whose worker cannot load the docs: the primary loads none itself, so
 * it is its first worker that finds the ignore file unreadable (the load fails closed, exit 2).
 * The worker said why and then lived on, its channel to the primary holding its event loop, and
 * the primary waited for it to serve: the server hung without another word. Now the worker ends
 * with its code, and the primary says so and stops with it.
 *
 * File permissions bind root only without the DAC override capabilities, so as root the process
 * runs without them (setpriv, as `test/vfs/fail-closed.test.ts` does): still root, still the owner
 * of the checkout and the temp folders wherever they are, but a file mode of 000 refuses it.
 */
const BIN = join(REPO, "bin", "svc-mcp.js");

let repo: { dir: string; cleanup: () => void };
let state: string;
let child: ChildProcess | undefined;
beforeAll(() => {
  repo = makeRepo({ "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Start", pages: ["index"] }] } }), "index.mdx": "# Home\n", ".svcignore": "drafts/\n" });
  chmodSync(join(repo.dir, ".svcignore"), 0o000);
  state = mkdtempSync(join(tmpdir(), "svc-mcp-state-"));
});
afterAll(() => {
  // Only if it hung (the test failed): the primary and its workers are not left behind.
  if (child?.exitCode === null) child.kill("SIGKILL");
  repo.cleanup();
  rmSync(state, { recursive: true, force: true });
});

it("a worker that cannot load the docs exits with its error; the primary says it exited before serving and stops with its code", async () => {
  const cli = [process.execPath, BIN, "serve", "--http", "--workers", "2", "--port", "0", "--dir", repo.dir, "--state", state, "--no-watch"];
  const dropDacOverride = ["--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search", "--"];
  const [command, ...args] = process.getuid?.() === 0 ? ["setpriv", ...dropDacOverride, ...cli] : cli;
  const run = spawn(command as string, args, { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH, HOME: state, SVC_MCP_CACHE: "off" } });
  child = run;
  let stdout = "";
  let stderr = "";
  run.stdout.setEncoding("utf8").on("data", (text: string) => void (stdout += text));
  run.stderr.setEncoding("utf8").on("data", (text: string) => void (stderr += text));
  const code = await new Promise<number | null>((resolve) => run.once("exit", (exitCode) => resolve(exitCode)));
  expect({ code, stdout, stderr }).toEqual({
    code: 2,
    stdout: "",
    stderr:
      "svc-mcp: cannot read .svcignore: permission denied; the files it excludes would be served, so nothing is (make it readable, or remove it)\n" +
      "svc-mcp: a worker process exited with code 2 before it was serving; stopping\n",
  });
});
