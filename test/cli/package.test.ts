import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InstalledPackage, packAndInstall } from "../helpers/installed-package.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * The npm package as a user gets it: `npm pack` (which builds the bundle), then `npm install`
 * of the tarball into an empty project, without optional dependencies (no better-sqlite3: what
 * a machine where the native module could not be built gets). Then the installed `svc-mcp`.
 */
const exec = promisify(execFile);
const ONE_PAGE = {
  "docs.json": JSON.stringify({ name: "Acme", navigation: { pages: ["index"] } }),
  "index.mdx": "---\ntitle: Welcome\n---\n\nAcme stores files in buckets.\n",
};

let pkg: InstalledPackage;
let site: ReturnType<typeof makeRepo>;
let home: ReturnType<typeof makeRepo>;
beforeAll(async () => {
  pkg = await packAndInstall({ omitOptional: true });
  site = makeRepo(ONE_PAGE);
  home = makeRepo({});
}, 300_000);
afterAll(() => {
  pkg?.cleanup();
  site?.cleanup();
  home?.cleanup();
});

/** Run the installed `svc-mcp`; never throws, resolves to what it printed and its exit code. */
async function svcMcp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return exec(pkg.bin, args, { cwd: pkg.dir, env: { ...process.env, HOME: home.dir, XDG_STATE_HOME: join(home.dir, "state") } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe("the npm package", () => {
  it("ships the bundle, the entry point, README and LICENSE, nothing else", () => {
    expect([...new Set(pkg.files.map((f) => f.split("/")[0]))]).toEqual(["LICENSE", "README.md", "bin", "dist", "package.json"]);
    expect(pkg.files.filter((f) => f.startsWith("bin/"))).toEqual(["bin/svc-mcp.js"]);
    // The bundle's chunks and the pages' assets; not their source maps (the sources are not shipped either).
    expect(pkg.files.filter((f) => f.startsWith("dist/") && !f.endsWith(".mjs")).sort()).toEqual(["dist/web/dashboard.css", "dist/web/dashboard.js", "dist/web/pages.css", "dist/web/playground.js", "dist/web/preview.js", "dist/web/site.css"]);
    expect(["dist/cli.mjs", "dist/shell-worker.mjs"].filter((f) => !pkg.files.includes(f))).toEqual([]);
  });

  it("installs without tsx, esbuild or TypeScript (tsx runs a checkout's sources only), and here without better-sqlite3", () => {
    const installed = readdirSync(join(pkg.dir, "node_modules"));
    expect(["tsx", "esbuild", "typescript", "better-sqlite3"].filter((p) => installed.includes(p))).toEqual([]);
    expect(existsSync(join(pkg.dir, "node_modules", "svc-mcp", "dist", "cli.mjs"))).toBe(true);
  });

  it("svc-mcp --version", async () => {
    expect(await svcMcp(["--version"])).toEqual({ code: 0, stdout: "0.1.0\n", stderr: "" });
  });

  it("svc-mcp check", async () => {
    expect(await svcMcp(["check", "--dir", site.dir])).toEqual({ code: 0, stdout: "checked docs.json and 1 page: no problems\n", stderr: "" });
  });

  it("svc-mcp serve answers initialize and tools/list over stdio, without the feedback tool when SQLite is missing", async () => {
    const transport = new StdioClientTransport({
      command: pkg.bin,
      args: ["serve", "--dir", site.dir, "--no-watch"],
      env: { ...(process.env as Record<string, string>), XDG_STATE_HOME: join(home.dir, "state") },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "package-test", version: "1" });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toEqual({ name: "svc-mcp", title: "Acme docs", version: "0.1.0" });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["search_acme", "query_docs_filesystem_acme"]);
      const r = await client.callTool({ name: "search_acme", arguments: { query: "buckets" } });
      expect((r.structuredContent as { results: { path: string }[] }).results.map((x) => x.path)).toEqual(["/index"]);
    } finally {
      await client.close();
    }
    expect(stderr).toBe(
      `svc-mcp: project "acme" (from the site name; set --project-id to change it); state in ${join(home.dir, "state", "svc-mcp", "acme")}\n` +
        "svc-mcp: submit_feedback is left out: feedback is kept in SQLite, and the SQLite module (better-sqlite3) is not installed\n" +
        'svc-mcp: serving "Acme" (1 page) over stdio; tools search_acme, query_docs_filesystem_acme\n',
    );
  });

  it("a state command says what it needs when better-sqlite3 is missing, and creates nothing", async () => {
    expect(await svcMcp(["users", "list", "--dir", site.dir])).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "svc-mcp: users keeps its state in SQLite, and the SQLite module (better-sqlite3, an optional dependency) is not installed or could not load: Cannot find module 'better-sqlite3'\n" +
        "Install it where svc-mcp is installed: npm install better-sqlite3 (for a global svc-mcp: npm install -g better-sqlite3). " +
        "npm fetches a prebuilt binary for this platform or builds one with Python 3, make and a C++ compiler; " +
        "npm 12 runs that step only for packages you allow (npm approve-scripts better-sqlite3, or --allow-scripts=better-sqlite3).\n" +
        "Without it, serve over stdio, search, fs, check, nav and schema work; serve --http and the commands that keep state " +
        "(feedback, keys, mcp, users, credentials, redirect-domains) do not; or keep the state in PostgreSQL (--state postgres://...).\n",
    });
    expect(existsSync(join(home.dir, "state"))).toBe(false);
  });

  it("a --dir that does not exist is a message and exit 2, not a stack trace", async () => {
    expect(await svcMcp(["serve", "--dir", "no/such/docs"])).toEqual({ code: 2, stdout: "", stderr: "svc-mcp: --dir no/such/docs: no such folder\n" });
  });
});
