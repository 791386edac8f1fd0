import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO } from "../bridge/harness.js";
import { REPO } from "../helpers/paths.js";

/**
 * Faults of the state folder end in clear answers (issue 25, item 8), on real file systems: the
 * server runs in a private mount namespace (`unshare`) holding a tiny tmpfs, read-only or filled
 * up, so the errors are the kernel's own (EROFS, ENOSPC), not mocks.
 * - A read-only state folder at start: one line naming it and why, exit 2, nothing served.
 * - The state's disk full while serving: 503 with Retry-After and `state_unavailable`, and one
 *   log line for the whole episode, not a stack trace per request.
 */

/** Whether this machine lets a test make a mount namespace (root, or unprivileged user namespaces). */
const CAN_MOUNT = spawnSync("unshare", ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /tmp 2>/dev/null"]).status === 0;
const describeMounts = describe.skipIf(!CAN_MOUNT && process.env.CI !== "true");

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * `svc-mcp serve --http` inside a mount namespace where a fresh temp folder is a tmpfs of `size`,
 * after `setup` (shell, `$MNT` is the folder). `args` may name the folder as `<mnt>`.
 */
function serveIn(size: string, setup: string, args: readonly string[]): { child: ChildProcess; mnt: string } {
  const mnt = mkdtempSync(join(tmpdir(), "svc-mnt-"));
  dirs.push(mnt);
  const cli = [process.execPath, join(REPO, "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", "--no-watch", "--dir", DEMO, ...args.map((a) => a.replace("<mnt>", mnt))]
    .map((a) => `'${a}'`)
    .join(" ");
  const script = `mount -t tmpfs -o size=${size} tmpfs "$MNT" && ${setup} && exec ${cli}`;
  const child = spawn("unshare", ["-rm", "sh", "-c", script], { env: { ...process.env, MNT: mnt }, stdio: ["ignore", "pipe", "pipe"] });
  return { child, mnt };
}

function linesOf(child: ChildProcess, stream: "stdout" | "stderr"): string[] {
  const lines: string[] = [];
  createInterface({ input: child[stream]! }).on("line", (l) => void lines.push(l));
  return lines;
}

const exited = (child: ChildProcess): Promise<number | null> => new Promise((resolve) => child.once("exit", (code) => resolve(code)));

describeMounts("the state folder's faults", () => {
  it("read-only at start: one line naming the folder and why, exit 2", async () => {
    const cli = `'${process.execPath}' '${join(REPO, "bin", "svc-mcp.js")}'`;
    // An empty folder, and one holding the databases of an earlier run.
    for (const setup of ['mkdir "$MNT/state"', `mkdir "$MNT/state" && ${cli} redirect-domains add tool.example --state "$MNT/state" >/dev/null`]) {
      const { child } = serveIn("4m", `${setup} && mount -o remount,ro "$MNT"`, ["--state", "<mnt>/state"]);
      const out = linesOf(child, "stdout");
      const err = linesOf(child, "stderr");
      const code = await exited(child);
      expect({ code, out, err: err.map((l) => l.replace(/\/tmp\/svc-mnt-\w+/, "<mnt>")) }).toEqual({
        code: 2,
        out: [],
        err: ["svc-mcp: cannot use the state folder <mnt>/state: the file system is read-only (EROFS); give another with --state, or make it writable"],
      });
    }
  });

  it("full while serving: 503 state_unavailable with Retry-After, one log line for the episode", async () => {
    const { child, mnt } = serveIn("4m", 'mkdir "$MNT/state"', ["--state", "<mnt>/state", "--project-id", "docs"]);
    const err = linesOf(child, "stderr");
    const origin = await new Promise<string>((resolve, reject) => {
      const check = (): void => {
        const line = err.find((l) => /MCP \(public\): +\S+\/mcp$/.test(l));
        if (line !== undefined && err.some((l) => l.includes("site auth"))) resolve((/MCP \(public\): +(\S+)\/mcp$/.exec(line) as RegExpExecArray)[1] as string);
        else if (child.exitCode !== null) reject(new Error(err.join("\n")));
      };
      child.stderr?.on("data", () => setImmediate(check));
      child.once("exit", check);
    });
    const send = () => fetch(`${origin}/v1/feedback/docs/rating`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ path: "/index", helpful: false }) });
    expect((await send()).status).toBe(201);
    // Fill the server's tmpfs to the last block, through its own view of the file system.
    const filler = `/proc/${child.pid}/root${mnt}/filler`;
    const fd = openSync(filler, "w");
    const block = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) writeSync(fd, block);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
    } finally {
      closeSync(fd);
    }
    const answers = [];
    for (let i = 0; i < 20; i++) {
      const res = await send();
      answers.push([res.status, res.headers.get("retry-after"), await res.json()]);
    }
    const full = [503, "30", { error: { code: "state_unavailable", message: "the state storage is full; retry later" } }];
    expect(answers).toEqual(Array.from({ length: 20 }, () => full));
    // Room again: the next write succeeds.
    rmSync(filler);
    expect((await send()).status).toBe(201);
    child.kill("SIGTERM");
    await exited(child);
    const faults = err.filter((l) => /full|SQLITE|rror|^\s+at /.test(l));
    expect(faults).toEqual(["svc-mcp: error: the state storage is full (SQLITE_FULL): answering 503 with Retry-After until it clears; later failures of this kind are counted, not logged"]);
  });
});
