import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, REPO } from "../helpers/paths.js";

/**
 * Adversary round 61 F1 (High): `svc-mcp serve` run inside its docs folder, as the README shows,
 * then the folder replaced by a deploy's rename (`mv docs docs.old && mv release2 docs && rm -rf
 * docs.old`). The site reloaded from the new tree, but the process's working folder was gone, and
 * every worker thread started after failed as Node read it (`ENOENT: uv_cwd`): HTML pages answered
 * 503 "could not start" and the docs shell's new workers the same, until a restart. The process
 * now works from the file system's root; the folder it was run in is read once, at the start.
 */
describe("serve started inside a docs root that a deploy replaces", () => {
  const base = mkdtempSync(join(tmpdir(), "svc-cwd-"));
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill("SIGKILL");
    rmSync(base, { recursive: true, force: true });
  });

  it("renders pages from the new tree in a worker started after the rename", async () => {
    const docs = join(base, "docs");
    cpSync(fixture("demo"), docs, { recursive: true });
    cpSync(fixture("demo"), join(base, "release2"), { recursive: true });
    mkdirSync(join(base, "state"));
    writeFileSync(join(base, "release2", "quickstart.mdx"), "---\ntitle: Quickstart two\n---\n\nThe second release.\n");
    child = spawn(process.execPath, [join(REPO, "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", "--state", join(base, "state"), "--no-fetch-remote"], {
      cwd: docs,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const lines: string[] = [];
    const waiters: { test: (line: string) => boolean; resolve: () => void; reject: (e: Error) => void }[] = [];
    let exited: Error | undefined;
    const seen = (test: (line: string) => boolean): Promise<void> =>
      new Promise((resolve, reject) => {
        if (lines.some(test)) resolve();
        else if (exited !== undefined) reject(exited);
        else waiters.push({ test, resolve, reject });
      });
    let origin = "";
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      const m = /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line);
      if (m !== null) origin = m[1] as string;
      for (const w of waiters.splice(0)) {
        if (w.test(line)) w.resolve();
        else waiters.push(w);
      }
    });
    child.once("exit", (code) => {
      exited = new Error(`svc-mcp serve exited with ${code}:\n${lines.join("\n")}`);
      for (const w of waiters.splice(0)) w.reject(exited);
    });
    await seen((line) => line.includes("site auth"));
    // The deploy: the root renamed away, the release renamed in, the old tree deleted.
    renameSync(docs, join(base, "docs.old"));
    renameSync(join(base, "release2"), docs);
    rmSync(join(base, "docs.old"), { recursive: true, force: true });
    await seen((line) => line === `svc-mcp: the docs root ${docs} was replaced; loading the whole site from it again`);
    // The page's first render starts the render pool's first worker, after the rename. The
    // reload from the new tree may not have ended yet (no event says so over HTTP): the page is
    // the last good state's or the new one's, either rendered.
    const page = await fetch(`${origin}/quickstart`, { headers: { accept: "text/html" } });
    const html = await page.text();
    const title = /<title>[^<]*<\/title>/.exec(html)?.[0] ?? html;
    expect([page.status, ["<title>Quickstart</title>", "<title>Quickstart two</title>"].includes(title) ? "a release's page" : title, lines.filter((l) => l.includes("uv_cwd"))]).toEqual([200, "a release's page", []]);
  });

  it("under --workers, each worker process reads relative paths against the folder the command was run in", async () => {
    // The primary leaves its working folder as every process does; its workers start in the
    // root too and are told the folder (`SVC_MCP_LAUNCH_CWD`), so `--dir docs --state st` still
    // name the folders beside the command.
    const at = join(base, "workers");
    cpSync(fixture("demo"), join(at, "docs"), { recursive: true });
    mkdirSync(join(at, "st"));
    const proc = spawn(process.execPath, [join(REPO, "bin", "svc-mcp.js"), "serve", "--http", "--workers", "2", "--port", "0", "--dir", "docs", "--state", "st", "--no-fetch-remote", "--no-watch"], {
      cwd: at,
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      const lines: string[] = [];
      const origin = await new Promise<string>((resolve, reject) => {
        let url: string | undefined;
        createInterface({ input: proc.stderr! }).on("line", (line) => {
          lines.push(line);
          const m = /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line);
          if (m !== null) url = m[1];
          if (url !== undefined && line.includes("site auth")) resolve(url);
        });
        proc.once("exit", (code) => reject(new Error(`svc-mcp serve exited with ${code}:\n${lines.join("\n")}`)));
      });
      const page = await fetch(`${origin}/quickstart`, { headers: { accept: "text/html" } });
      expect([page.status, /<title>[^<]*<\/title>/.exec(await page.text())?.[0], existsSync(join(at, "st", "feedback.db"))]).toEqual([200, "<title>Quickstart</title>", true]);
    } finally {
      proc.kill("SIGKILL");
    }
  });
});
