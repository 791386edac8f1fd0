import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";

/**
 * A pipe, a device or a link out of the root at docs.json or an ignore file is refused the same
 * way whether or not a site cache is there (issue 25, adversary round 38 F4): the cache's check
 * of its configuration files read them with a plain `readFileSync`, which waited forever on a
 * pipe (a silent hang at start, and the main thread stuck, deaf to SIGTERM) and followed a link
 * out of the root. Each run is a process of its own, spawned without blocking the tests: a hang
 * on the old code is this suite's test timeout (vitest.config.ts), and the process is killed after.
 */

const made: string[] = [];
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-config-pipes-"));
  made.push(dir);
  return dir;
}

const SITE: Record<string, string> = {
  "docs.json": JSON.stringify({ name: "Pipes", navigation: { pages: ["index"] } }),
  "index.mdx": "# Home\n",
  "secret/plan.mdx": "# Plan\n",
  ".svcignore": "secret/\n",
};

/** A repository in `site/` of a fresh folder, and a home of its own (its cache and state) beside it. */
function repo(): { site: string; home: string } {
  const dir = temp();
  const site = join(dir, "site");
  for (const [rel, text] of Object.entries(SITE)) {
    mkdirSync(dirname(join(site, rel)), { recursive: true });
    writeFileSync(join(site, rel), text);
  }
  return { site, home: join(dir, "home") };
}

/** `svc-mcp serve` over stdio with its input closed at once (it starts, serves nothing, stops). */
function serve(site: string, home: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(REPO, "bin/svc-mcp.js"), "serve"], { cwd: site, env: { PATH: process.env.PATH, HOME: home }, stdio: ["ignore", "ignore", "pipe"] });
  running.push(child);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

/** The one cache file a first start wrote. */
function cacheFile(home: string): string {
  const sites = join(home, ".cache/svc-mcp/sites");
  const files = readdirSync(sites);
  expect(files).toHaveLength(1);
  return join(sites, files[0] as string);
}

const started = (home: string): string =>
  `svc-mcp: project "pipes" (from the site name; set --project-id to change it); state in ${home}/.local/state/svc-mcp/pipes\n` +
  `svc-mcp: serving "Pipes" (1 page) over stdio; tools search_pipes, query_docs_filesystem_pipes, submit_feedback; watching for changes\n`;
const stopped = (name: string, why: string): string => `svc-mcp: cannot read ${name}: ${why}; the files it excludes would be served, so nothing is (make it readable, or remove it)\n`;
const outOfDate = (file: string, name: string): string => `svc-mcp: search cache ${file} is out of date (${name} cannot be read): reading and indexing the site again\n`;

const mkfifo = (path: string): void => void execFileSync("mkfifo", [path]);
const linkOut = (path: string): void => symlinkSync(join(REPO, "package.json"), path);

describe("an ignore file that is a pipe or links out stops the start (exit 2) with one message, with a cache or without", () => {
  const cases: [string, string, (path: string) => void, string][] = [
    [".svcignore is a pipe", ".svcignore", mkfifo, "not a regular file"],
    [".mintignore is a pipe", ".mintignore", mkfifo, "not a regular file"],
    [".svcignore links outside the repository", ".svcignore", linkOut, "the link leads outside the repository, so it is not read"],
  ];
  it.each(cases)("%s", async (_name, file, make, why) => {
    const { site, home } = repo();
    expect(await serve(site, home)).toEqual({ code: 0, stderr: started(home) });
    const cache = cacheFile(home);
    rmSync(join(site, file), { force: true });
    make(join(site, file));
    const fresh = join(dirname(home), "fresh");
    expect([await serve(site, home), await serve(site, fresh)]).toEqual([
      { code: 2, stderr: outOfDate(cache, file) + stopped(file, why) },
      { code: 2, stderr: stopped(file, why) },
    ]);
  });
});

describe("docs.json that is a pipe", () => {
  it("at start without a cache: said, served as unconfigured, the cache written without waiting on it; the next start does not take that cache", async () => {
    const { site, home } = repo();
    rmSync(join(site, "docs.json"));
    mkfifo(join(site, "docs.json"));
    const unconfigured =
      "svc-mcp: 1 error in docs.json; run `svc-mcp check` for details\n" +
      `svc-mcp: project "site" (from the site name; set --project-id to change it); state in ${home}/.local/state/svc-mcp/site\n` +
      `svc-mcp: serving "site" (1 page) over stdio; tools search_site, query_docs_filesystem_site, submit_feedback; watching for changes\n`;
    expect(await serve(site, home)).toEqual({ code: 0, stderr: unconfigured });
    const cache = cacheFile(home);
    expect(await serve(site, home)).toEqual({ code: 0, stderr: outOfDate(cache, "docs.json") + unconfigured });
  });

  it("with a cache of the good docs.json: the same as without one, never the cached configuration", async () => {
    const { site, home } = repo();
    expect(await serve(site, home)).toEqual({ code: 0, stderr: started(home) });
    const cache = cacheFile(home);
    rmSync(join(site, "docs.json"));
    mkfifo(join(site, "docs.json"));
    const fresh = join(dirname(home), "fresh");
    const [withCache, without] = [await serve(site, home), await serve(site, fresh)];
    expect(withCache).toEqual({ code: 0, stderr: outOfDate(cache, "docs.json") + without.stderr.replaceAll(fresh, home) });
    expect(without.stderr).toContain("svc-mcp: 1 error in docs.json; run `svc-mcp check` for details\n");
  });
});

describe("while serving with a cache", () => {
  it("an ignore file turned into a pipe keeps the last good rules, said once, and the server goes on answering", async () => {
    const { site, home } = repo();
    expect(await serve(site, home)).toEqual({ code: 0, stderr: started(home) });
    const child = spawn(process.execPath, [join(REPO, "bin/svc-mcp.js"), "serve"], { cwd: site, env: { PATH: process.env.PATH, HOME: home }, stdio: ["pipe", "pipe", "pipe"] });
    running.push(child);
    const lines = (stream: NodeJS.ReadableStream): AsyncIterator<string> => createInterface({ input: stream })[Symbol.asyncIterator]();
    const stderr = lines(child.stderr);
    const stdout = lines(child.stdout);
    const next = async (from: AsyncIterator<string>): Promise<string> => (await from.next()).value as string;
    const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    expect([await next(stderr), await next(stderr)].join("\n") + "\n").toBe(started(home));
    // Replaced in one step (a pipe made beside the repository, renamed over the file): an `rm`
    // first would be a missing ignore file for as long as the watcher reports it apart.
    mkfifo(join(dirname(site), "pipe"));
    renameSync(join(dirname(site), "pipe"), join(site, ".svcignore"));
    expect(await next(stderr)).toBe("svc-mcp: .svcignore cannot read (not a regular file); still applying the last good ignore rules until it is fixed");
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    expect(JSON.parse(await next(stdout))).toMatchObject({ id: 1, result: { serverInfo: { name: "svc-mcp" } } });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "query_docs_filesystem_pipes", arguments: { command: "find / -type f" } } });
    const answer = JSON.parse(await next(stdout)) as { id: number; result: { content: { text: string }[] } };
    expect([answer.id, answer.result.content.map((c) => c.text)]).toEqual([2, ["/index.mdx\n/skill.md\n"]]);
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const rest: string[] = [];
    for (let line = await stderr.next(); line.done !== true; line = await stderr.next()) rest.push(line.value);
    expect([code, rest]).toEqual([0, []]);
  });
});
