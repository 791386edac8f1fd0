import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { SqliteUnavailableError } from "../../src/store/sqlite.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { type InstalledPackage, NPM_ENV, packAndInstall } from "../helpers/installed-package.js";
import { REPO } from "../helpers/paths.js";
import { freshDatabase, itPostgres } from "../helpers/postgres.js";
import { makeRepo } from "../helpers/repo.js";
import { TestClient } from "../helpers/test-client.js";

/**
 * The npm package as a user gets it: `npm pack` (which builds the bundle), then
 * `npm install -g` of the tarball into an empty prefix, offline: no dependencies, nothing to
 * compile. Then every command of the installed `svc-mcp`, first without better-sqlite3 (which npm
 * never installs with it), then with it installed beside the package as the message says.
 */
const exec = promisify(execFile);
const SPEC = `openapi: 3.0.3
info: {title: Acme API, version: "1"}
paths:
  /buckets:
    get:
      summary: List buckets
      responses: {"200": {description: OK}}
`;
const SITE = {
  "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["index"] }, { group: "API", openapi: "openapi.yaml" }] } }),
  "index.mdx": "---\ntitle: Welcome\n---\n\nAcme stores files in buckets.\n",
  "openapi.yaml": SPEC,
};
const TOOLS = ["search_acme", "query_docs_filesystem_acme"];

let pkg: InstalledPackage;
let site: ReturnType<typeof makeRepo>;
let home: ReturnType<typeof makeRepo>;
let env: Record<string, string>;
beforeAll(async () => {
  pkg = await packAndInstall();
  site = makeRepo(SITE);
  home = makeRepo({});
  // PATH: this Node (the bin's `#!/usr/bin/env node`) and the prefix's bin, as after a global install.
  env = { HOME: home.dir, XDG_STATE_HOME: join(home.dir, "state"), XDG_CACHE_HOME: join(home.dir, "cache"), PATH: `${join(pkg.prefix, "bin")}:${join(process.execPath, "..")}:/usr/bin:/bin` };
});
afterAll(() => {
  pkg?.cleanup();
  site?.cleanup();
  home?.cleanup();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the installed `svc-mcp` (the link in the prefix's bin); never throws. */
async function svcMcp(args: string[], cwd = home.dir): Promise<Run> {
  return exec(pkg.bin, args, { cwd, env, maxBuffer: 64 << 20 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: Run) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

/** The same command run from the checkout's sources, in-process. */
async function fromSources(args: string[]): Promise<Run> {
  return runCli(args, { cwd: home.dir, env: { ...env, SVC_MCP_CACHE: "off" } });
}

/** `du -sb`: bytes of everything under `dir`. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

async function listTools(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<string[]> {
  const client = new TestClient({ name: "package-test", version: "1" });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe("npm install -g of the packed tarball", () => {
  it("prints nothing but its summary, installs one package (no dependencies), under 15 MB", () => {
    expect(pkg.installOutput.stderr).toBe("");
    expect(pkg.installOutput.stdout).toMatch(/^\nadded 1 package in [\d.]+m?s\n$/);
    expect(readdirSync(join(pkg.prefix, "lib", "node_modules"))).toEqual(["svc-mcp"]);
    expect(existsSync(join(pkg.root, "node_modules"))).toBe(false);
    expect(bytesUnder(pkg.prefix)).toBeLessThan(15 << 20);
  });

  it("ships the bundle, the entry point, README, LICENSE and an installer's package.json, nothing else", () => {
    expect([...new Set(pkg.files.map((f) => f.split("/")[0]))]).toEqual(["LICENSE", "README.md", "bin", "dist", "package.json"]);
    // The entry point, and what it runs serve through on Node 20 (Node 22 keeps its own compile cache).
    expect(pkg.files.filter((f) => f.startsWith("bin/")).sort()).toEqual(["bin/code-cache.js", "bin/svc-mcp.js"]);
    // The bundle's chunks and the pages' assets in one archive (npx extracts the tarball three
    // times per run, and the file count is what costs); not their source maps.
    expect(pkg.files.filter((f) => f.startsWith("dist/"))).toEqual([expect.stringMatching(/^dist\/svc-mcp-[0-9a-f]{16}\.br$/)]);
    // No scripts (npm would list `prepare` as an unreviewed install script), no dependencies.
    const manifest = JSON.parse(readFileSync(join(pkg.root, "package.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(manifest).filter((k) => !k.startsWith("_"))).toEqual(["name", "version", "description", "type", "license", "bin", "files", "engines", "peerDependencies", "peerDependenciesMeta"]);
    expect([manifest.peerDependencies, manifest.peerDependenciesMeta]).toEqual([{ "better-sqlite3": "^12.9.0" }, { "better-sqlite3": { optional: true } }]);
    // The checkout's package.json is untouched by the pack (prepack strips a copy's, postpack restores it).
    expect(Object.keys(JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as object)).toContain("devDependencies");
  });
});

describe("the installed svc-mcp, without better-sqlite3", () => {
  it("--version and --help", async () => {
    expect(await svcMcp(["--version"])).toEqual({ code: 0, stdout: "0.1.0\n", stderr: "" });
    expect(await svcMcp(["--help"])).toEqual(await fromSources(["--help"]));
  });

  it("check, nav, schema, search and fs print what the sources print, with nothing on stderr", async () => {
    for (const args of [["check"], ["nav"], ["schema"], ["search", "buckets"], ["fs", "find / -type f | sort"], ["fs", "jq --version; jq -nc '{} | .a.b = 1'"]]) {
      const argv = [...args, ...(args[0] === "schema" ? [] : ["--dir", site.dir])];
      const [installed, sources] = [await svcMcp(argv), await fromSources(argv)];
      expect([args[0], installed]).toEqual([args[0], { ...sources, stderr: "" }]);
    }
  });

  it("keeps a spec cache that a second run reads (a hit: the entry is read and touched, not written again)", async () => {
    const specs = join(home.dir, "cache", "svc-mcp", "specs");
    const first = await svcMcp(["check", "--dir", site.dir]);
    const entries = readdirSync(specs).filter((f) => f.endsWith(".bin"));
    expect([first, entries.length]).toEqual([{ code: 0, stdout: "checked docs.json and 1 page (+1 generated from API specs): no problems\n", stderr: "" }, 1]);
    const entry = join(specs, entries[0] as string);
    const inode = statSync(entry).ino;
    utimesSync(entry, 0, 0);
    expect(await svcMcp(["check", "--dir", site.dir])).toEqual(first);
    // A miss would parse the spec again and write a new file (a new inode); a hit reads this one
    // and marks it used (its time moves off 1970).
    expect([readdirSync(specs).filter((f) => f.endsWith(".bin")), statSync(entry).ino, statSync(entry).mtimeMs > 0]).toEqual([entries, inode, true]);
  });

  it("serve answers an MCP client over stdio, saying (not warning) that the feedback tool needs SQLite", async () => {
    const transport = new StdioClientTransport({ command: pkg.bin, args: ["serve", "--dir", site.dir, "--no-watch"], env, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    expect(await listTools(transport)).toEqual(TOOLS);
    expect(stderr).toBe(
      `svc-mcp: project "acme" (from the site name; set --project-id to change it); state in ${join(home.dir, "state", "svc-mcp", "acme")}\n` +
        "svc-mcp: submit_feedback is left out: feedback is kept in SQLite, and the SQLite module (better-sqlite3) is not installed (npm install -g better-sqlite3@12 beside a global svc-mcp adds it)\n" +
        'svc-mcp: serving "Acme" (1 page, +1 generated from API specs) over stdio; tools search_acme, query_docs_filesystem_acme\n',
    );
  });

  it("a state command says what it needs, and creates nothing", async () => {
    // Reading feedback that was never kept needs no database: there is none.
    expect(await svcMcp(["feedback", "list", "--dir", site.dir])).toEqual({ code: 0, stdout: "No feedback matches.\n", stderr: "" });
    for (const args of [["users", "list"], ["keys", "list"], ["credentials", "list"], ["redirect-domains", "list"], ["mcp", "status"], ["serve", "--http", "--port", "0"]]) {
      const r = await svcMcp([...args, "--dir", site.dir]);
      const what = args[0] === "serve" ? "serve --http" : args[0];
      expect([args[0], r.code, r.stdout, r.stderr.split("\n")[0]]).toEqual([
        args[0],
        1,
        "",
        `svc-mcp: ${what} keeps its state in SQLite, and the SQLite module (better-sqlite3, which svc-mcp does not install because it is native) is not installed or could not load: Cannot find module 'better-sqlite3'`,
      ]);
      // serve --http says so before it reads the docs (it read and indexed them first, printing what the load found).
      if (args[0] === "serve") expect(r.stderr).toBe(`svc-mcp: ${new SqliteUnavailableError("Cannot find module 'better-sqlite3'").explain("serve")}\n`);
    }
    // No state of the project: at most the caches' key, which the spec cache's first write makes
    // (docs/security.md, "A cache this user's svc-mcp did not write").
    const state = join(home.dir, "state");
    const left = existsSync(state) ? (readdirSync(state, { recursive: true }) as string[]) : [];
    expect(left.filter((f) => f !== "svc-mcp" && f !== join("svc-mcp", "cache-key"))).toEqual([]);
  });

  itPostgres("keeps its state in PostgreSQL without any native module (pg is in the bundle)", async () => {
    const db = await freshDatabase();
    try {
      const added = await withStdin(["users", "add", "sam", "--password-stdin", "--state", db.url], "correct horse battery staple\n");
      expect([added.code, /warn/i.test(added.stderr)]).toEqual([0, false]);
      const listed = await svcMcp(["users", "list", "--state", db.url, "--dir", site.dir]);
      expect([listed.code, listed.stdout.includes("sam"), listed.stderr]).toEqual([0, true, ""]);
    } finally {
      await db.drop();
    }
  });

  it("install writes `svc-mcp` (the one on PATH is this installation), and that command serves an MCP client", async () => {
    const project = makeRepo({});
    try {
      expect(await svcMcp(["install", "--editor", "cursor", "--dir", site.dir], project.dir)).toEqual({
        code: 0,
        stdout: `Added MCP server "acme" (stdio: svc-mcp serve --dir ${site.dir}) in ${join(project.dir, ".cursor", "mcp.json")} for Cursor.\n`,
        stderr: `Cursor starts the server itself when it needs the docs, with the svc-mcp on its PATH (this installation, ${join(pkg.root, "bin", "svc-mcp.js")}).\n`,
      });
      const { command, args } = (JSON.parse(readFileSync(join(project.dir, ".cursor", "mcp.json"), "utf8")) as { mcpServers: { acme: { command: string; args: string[] } } }).mcpServers.acme;
      expect(await listTools(new StdioClientTransport({ command, args: [...args, "--no-watch"], env, stderr: "ignore" }))).toEqual(TOOLS);
    } finally {
      project.cleanup();
    }
  });

  it("connect --stdio prints this installation's command", async () => {
    const r = await svcMcp(["connect", "--stdio", "--json", "--dir", site.dir]);
    expect([r.code, r.stderr, (JSON.parse(r.stdout) as Record<string, string>).mcp]).toEqual([0, "", `svc-mcp serve --dir ${site.dir}`]);
  });

  it("npx --package <tarball> svc-mcp serve answers an MCP client (offline: nothing to fetch)", async () => {
    const transport = new StdioClientTransport({
      command: "npx",
      args: ["--offline", "--yes", "--package", pkg.tarball, "svc-mcp", "serve", "--dir", site.dir, "--no-watch"],
      env: { ...env, ...NPM_ENV, npm_config_cache: pkg.npmCache },
      cwd: home.dir,
      stderr: "ignore",
    });
    expect(await listTools(transport)).toEqual(TOOLS);
  });
});

describe("the bundle archive (dist/svc-mcp-<hash>.br), unpacked by the first run", () => {
  /** Another `npm install -g` of the same tarball, into a new prefix: nothing unpacked yet. */
  async function freshInstall(): Promise<{ prefix: string; root: string; archive: string; bin: string; cleanup: () => void }> {
    const scratch = makeRepo({});
    const prefix = join(scratch.dir, "prefix");
    await exec("npm", ["install", "-g", "--offline", "--prefix", prefix, pkg.tarball], { env: { ...process.env, ...NPM_ENV, npm_config_cache: pkg.npmCache } });
    const root = join(prefix, "lib", "node_modules", "svc-mcp");
    const [archive] = readdirSync(join(root, "dist"));
    return { prefix, root, archive: archive as string, bin: join(prefix, "bin", "svc-mcp"), cleanup: scratch.cleanup };
  }
  const run = (bin: string, args: string[], runEnv = env): Promise<Run> =>
    exec(bin, args, { cwd: home.dir, env: runEnv }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: Run) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it("is unpacked once, into dist/<hash>/, by whichever of several first runs gets there first; later runs use that copy", async () => {
    const fresh = await freshInstall();
    try {
      const hash = fresh.archive.slice("svc-mcp-".length, -".br".length);
      const ok = { code: 0, stdout: "0.1.0\n", stderr: "" };
      expect(await Promise.all([1, 2, 3].map(() => run(fresh.bin, ["--version"])))).toEqual([ok, ok, ok]);
      // The losers' copies are gone: only the archive and one unpacked bundle.
      expect(readdirSync(join(fresh.root, "dist")).sort()).toEqual([hash, fresh.archive].sort());
      const cli = join(fresh.root, "dist", hash, "cli.mjs");
      const inode = statSync(cli).ino;
      expect(await run(fresh.bin, ["--version"])).toEqual(ok);
      expect(statSync(cli).ino).toBe(inode);
      // jq.wasm: the real jq, beside the chunks (src/engine/shell/jq/jq-module.ts finds it there);
      // serve's CommonJS script, which bin/code-cache.js runs on Node 20 (scripts/serve-script.mjs).
      expect(readdirSync(join(fresh.root, "dist", hash)).filter((f) => !f.endsWith(".mjs")).sort()).toEqual([expect.stringMatching(/^cli-[0-9a-f]{16}\.cjs$/), "jq.wasm", "web"]);
    } finally {
      fresh.cleanup();
    }
  });

  it("where the package's folder is not writable, goes under the user's cache folder, and the commands still find their package", async () => {
    const fresh = await freshInstall();
    const dist = join(fresh.root, "dist");
    const beside = join(fresh.prefix, "lib", "node_modules", "better-sqlite3");
    // Unwritable even for root (these tests may run as root, whom permissions do not stop).
    const lock = async (on: boolean) => (process.getuid?.() === 0 ? exec("chattr", [on ? "+i" : "-i", dist]) : chmodSync(dist, on ? 0o555 : 0o755));
    await lock(true);
    try {
      symlinkSync(join(REPO, "node_modules", "better-sqlite3"), beside);
      const freshEnv = { ...env, PATH: `${join(fresh.prefix, "bin")}:${join(process.execPath, "..")}:/usr/bin:/bin` };
      const connect = await run(fresh.bin, ["connect", "--stdio", "--json", "--dir", site.dir], freshEnv);
      expect([connect.code, connect.stderr, (JSON.parse(connect.stdout) as Record<string, string>).mcp]).toEqual([0, "", `svc-mcp serve --dir ${site.dir}`]);
      // better-sqlite3 is found beside the package, not beside the unpacked copy.
      expect(await run(fresh.bin, ["keys", "list", "--dir", site.dir], freshEnv)).toMatchObject({ code: 0, stderr: "" });
      const hash = fresh.archive.slice("svc-mcp-".length, -".br".length);
      expect([readdirSync(dist), existsSync(join(home.dir, "cache", "svc-mcp", "bundle", hash, "cli.mjs"))]).toEqual([[fresh.archive], true]);
    } finally {
      await lock(false);
      fresh.cleanup();
    }
  });
  it("never runs a copy under the cache folder that is not the archive's (the cache folder may be inside a docs repository): beside the package first, else replaced", async () => {
    const fresh = await freshInstall();
    const dist = join(fresh.root, "dist");
    const hash = fresh.archive.slice("svc-mcp-".length, -".br".length);
    const cached = join(home.dir, "cache", "svc-mcp", "bundle", hash);
    const plant = (): void => {
      rmSync(cached, { recursive: true, force: true });
      mkdirSync(cached, { recursive: true });
      writeFileSync(join(cached, "cli.mjs"), 'export async function main() { process.stdout.write("planted\\n"); return 0; }\n');
    };
    const lock = async (on: boolean) => (process.getuid?.() === 0 ? exec("chattr", [on ? "+i" : "-i", dist]) : chmodSync(dist, on ? 0o555 : 0o755));
    const ok = { code: 0, stdout: "0.1.0\n", stderr: "" };
    try {
      plant();
      expect(await run(fresh.bin, ["--version"])).toEqual(ok);
      expect(readdirSync(dist).sort()).toEqual([hash, fresh.archive].sort());
      rmSync(join(dist, hash), { recursive: true });
      plant();
      await lock(true);
      expect(await run(fresh.bin, ["--version"])).toEqual(ok);
      expect([readdirSync(dist), readFileSync(join(cached, "cli.mjs"), "utf8").includes("planted")]).toEqual([[fresh.archive], false]);
    } finally {
      await lock(false);
      fresh.cleanup();
    }
  });
});

describe("the installed svc-mcp with better-sqlite3 installed beside it (npm install -g better-sqlite3@12)", () => {
  // The checkout's build, linked where `npm install -g` would put it: compiling it again here
  // would take a minute and a compiler.
  const beside = () => join(pkg.prefix, "lib", "node_modules", "better-sqlite3");
  beforeAll(() => symlinkSync(join(REPO, "node_modules", "better-sqlite3"), beside()));
  afterAll(() => unlinkSync(beside()));

  it("runs the state commands", async () => {
    const runs: [string, Run][] = [];
    for (const args of [
      ["users", "add", "sam", "--password-stdin"],
      ["users", "list"],
      ["keys", "list"],
      ["credentials", "list"],
      ["redirect-domains", "list"],
      ["mcp", "status"],
      ["feedback", "list"],
    ]) {
      runs.push([args.join(" "), args.includes("--password-stdin") ? await withStdin(args, "correct horse battery staple\n") : await svcMcp([...args, "--dir", site.dir])]);
    }
    for (const [what, r] of runs) expect([what, r.code, /warn/i.test(r.stderr)]).toEqual([what, 0, false]);
    expect(runs[1]?.[1].stdout).toContain("sam");
  });

  it("serve --http answers an MCP client, with the feedback tool", async () => {
    const child = spawn(pkg.bin, ["serve", "--http", "--port", "0", "--no-watch", "--dir", site.dir], { env, stdio: ["ignore", "ignore", "pipe"] });
    try {
      const url = await urlOf(child);
      expect(await listTools(new StreamableHTTPClientTransport(new URL(url)))).toEqual([...TOOLS, "submit_feedback"]);
    } finally {
      // Waited for: a server still draining writes its state under HOME, which afterAll removes
      // (under load, `rm -r` of it then failed with ENOTEMPTY).
      const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
      child.kill("SIGTERM");
      await exited;
    }
  });
});

function withStdin(args: string[], input: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(pkg.bin, [...args, "--dir", site.dir], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The public MCP URL `serve --http` prints on stderr. */
function urlOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      const m = /MCP \(public\): +(\S+)$/.exec(line);
      if (m !== null) resolve(m[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}:\n${lines.join("\n")}`)));
  });
}
