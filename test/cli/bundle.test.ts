import { execFile, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinCommandNames } from "../../src/engine/shell/docs-shell.js";
import { runCli } from "../helpers/cli.js";
import { REPO, fixture } from "../helpers/paths.js";
import { TestClient } from "../helpers/test-client.js";

const run = promisify(execFile);
// Inside the repository (node_modules/.cache), so that packages resolve as from dist/.
const OUT = join(REPO, "node_modules", ".cache", `svc-mcp-bundle-test-${process.pid}`);
let cacheHome: string;

beforeAll(async () => {
  await run(process.execPath, [join(REPO, "scripts", "build.mjs"), OUT], { cwd: REPO });
  cacheHome = mkdtempSync(join(tmpdir(), "svc-bundle-cache-"));
});
afterAll(() => {
  rmSync(OUT, { recursive: true, force: true });
  rmSync(cacheHome, { recursive: true, force: true });
});

/** What esbuild's metafile (written beside the chunks by scripts/build.mjs) says of the chunks. */
interface Metafile {
  outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[]; inputs: Record<string, unknown> }>;
}
function metafile(): Metafile {
  return JSON.parse(readFileSync(join(OUT, "meta.json"), "utf8")) as Metafile;
}

/** Run the bundled CLI in a new process, as bin/svc-mcp.js does when dist/ is fresh. */
async function bundled(args: string[]): Promise<{ code: number; stdout: string }> {
  const script = `const { main } = await import(${JSON.stringify(join(OUT, "cli.mjs"))}); process.exitCode = await main(${JSON.stringify(args)});`;
  return run(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, XDG_CACHE_HOME: cacheHome }, maxBuffer: 64 << 20 }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
  );
}

/** `svc-mcp fs --dir fixtures/demo LINE` through the bundle, with all it prints. */
async function bundledShell(line: string, options: readonly string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = `const { main } = await import(${JSON.stringify(join(OUT, "cli.mjs"))}); process.exitCode = await main(process.argv.slice(1));`;
  return run(process.execPath, ["--input-type=module", "-e", script, "fs", ...options, "--dir", fixture("demo"), line], { env: { ...process.env, XDG_CACHE_HOME: cacheHome }, maxBuffer: 64 << 20 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe("the esbuild bundle", () => {
  it("is split by command, and runs check on a part of spree as the sources do (validators, spec cache), cold and warm", async () => {
    expect(readdirSync(OUT).filter((f) => /^(check|nav|serve)-[A-Z0-9]+\.mjs$/.test(f)).length).toBe(3);
    const root = fixture("spree-subset");
    const fromSources = await runCli(["check", "--dir", root, "--json"]);
    const cold = await bundled(["check", "--dir", root, "--json"]);
    expect(readdirSync(join(cacheHome, "svc-mcp", "specs")).filter((f) => f.endsWith(".bin")).length).toBe(1);
    const warm = await bundled(["check", "--dir", root, "--json"]);
    expect([cold, warm]).toEqual([
      { code: fromSources.code, stdout: fromSources.stdout },
      { code: fromSources.code, stdout: fromSources.stdout },
    ]);
  });

  it("serve loads neither the shell's interpreter, the HTTP stack nor docs.json's schema and validation before it answers tools/list (they are imported when used: a start from the persistent cache reads no docs.json)", () => {
    // The chunks `node bin/svc-mcp.js serve` loads as it starts: the CLI chunk, the serve
    // command's, and everything they import statically; and the modules in them. The build's
    // metafile says (the chunks are minified: no comment names a module any more).
    const outputs = metafile().outputs;
    const serve = Object.keys(outputs).find((f) => /(^|\/)serve-[A-Z0-9]+\.mjs$/.test(f));
    const loaded = new Set<string>();
    const queue = [Object.keys(outputs).find((f) => /(^|\/)cli\.mjs$/.test(f)) as string, String(serve)];
    for (let f = queue.pop(); f !== undefined; f = queue.pop()) {
      if (loaded.has(f)) continue;
      loaded.add(f);
      for (const i of outputs[f]?.imports ?? []) if (i.kind === "import-statement" && i.external !== true) queue.push(i.path);
    }
    const modules = new Set<string>();
    for (const f of loaded) for (const input of Object.keys(outputs[f]?.inputs ?? {})) modules.add(/^(node_modules\/(?:@[^/]+\/)?[^/]+|src\/.+)/.exec(input)?.[1] ?? input);
    // The check would pass on a bundle it cannot read: it must see the SDK the server is built on.
    expect(modules.has("node_modules/@modelcontextprotocol/server")).toBe(true);
    const deferred = [...modules].filter((m) => /^node_modules\/(just-bash|re2js|fuse\.js|hono|@hono\/node-server)$|^src\/(bridge\/(http-server|bridge|auth\/|web\/web-app)|engine\/shell\/(docs-shell|commands\/)|config\/docs-json\/(schema|validate)\.ts$)/.test(m));
    expect(deferred).toEqual([]);
  });

  it("holds zod's English messages and no other language's (zodEnglishOnly: 300 kB less for serve to parse)", () => {
    const locales = new Set<string>();
    for (const output of Object.values(metafile().outputs)) for (const input of Object.keys(output.inputs)) if (/node_modules\/zod\/v4\/locales\//.test(input)) locales.add(input.replace(/^.*\//, ""));
    expect([...locales].sort()).toEqual(["en.js", "index.js"]);
  });

  // The tests below once ran only our own commands (`wc`, `cat`) through the bundle; just-bash's
  // commands load lazily, and with a work budget every one of them imported a chunk the bundle
  // left out (flag-coverage): `echo hi` failed in the npm package only (issue 25).
  it("runs just-bash's commands in svc-mcp fs as the sources do: echo, printf, seq, awk, jq, base64, tac and a pipe", async () => {
    const line = [
      "echo hi",
      "printf '%s-%03d\\n' a 7",
      "seq 2 4",
      "awk 'BEGIN { print 6 * 7 }'",
      // just-bash's awk as corrected at build time (src/engine/shell/just-bash-patches.mjs)
      "awk 'BEGIN { print int(-3.7), 1e20 }'",
      // the real jq (jq.wasm beside the chunks, run in the one-shot shell worker)
      "jq -nc '[1, 2] | map(. * 10)'",
      "jq --version",
      "echo svc | base64",
      "seq 3 | tac",
      "grep -c Webhook /guides/webhooks.mdx | awk '{ print $1 + 1 }'",
    ].join("; ");
    const expected = { code: 0, stdout: "hi\na-007\n2\n3\n4\n42\n-3 100000000000000000000\n[10,20]\njq-1.8.2\nc3ZjCg==\n3\n2\n1\n2\n", stderr: "" };
    expect(await runCli(["fs", "--dir", fixture("demo"), line])).toEqual(expected);
    expect(await bundledShell(line)).toEqual(expected);
  });

  it("runs every command the docs shell offers as the sources do (each one's --help: its status and the length of what it prints)", async () => {
    const names = builtinCommandNames();
    const line = `for c in ${names.join(" ")}; do out=$($c --help </dev/null 2>&1); echo "$c $? \${#out}"; done`;
    // A hundred commands in one line: on a busy machine more than the tool's 5 s, so the line gets an hour.
    const fromSources = await runCli(["fs", "--time-limit", "3600", "--dir", fixture("demo"), line]);
    // Not vacuous: every command answered, most of them with their usage.
    expect(fromSources.stdout.split("\n").filter((l) => /^\S+ 0 [1-9]/.test(l)).length).toBeGreaterThan(names.length - 10);
    expect(await bundledShell(line, ["--time-limit", "3600"])).toEqual(fromSources);
  });

  it("serves --http with filesystem commands in its shell worker (dist/shell-worker.mjs) and pages rendered in its render worker (dist/render-worker.mjs)", async () => {
    const state = mkdtempSync(join(tmpdir(), "svc-bundle-state-"));
    const script = `const { main } = await import(${JSON.stringify(join(OUT, "cli.mjs"))}); process.exitCode = await main(process.argv.slice(1));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script, "serve", "--http", "--port", "0", "--no-watch", "--dir", fixture("demo"), "--state", state], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stderr }).on("line", (line) => {
          const m = /MCP \(public\): +(\S+)$/.exec(line);
          if (m !== null) resolve(m[1] as string);
        });
        child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const client = new TestClient({ name: "bundle-test", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(origin)));
      const result = await client.callTool({ name: "query_docs_filesystem_nimbus_storage", arguments: { command: "wc -c /guides/webhooks.mdx" } });
      expect(result.content).toEqual([{ type: "text", text: "489 /guides/webhooks.mdx\n" }]);
      await client.close();
      // The pages' assets come from dist/web/, as built beside the chunks.
      const base = new URL(origin).origin;
      const page = await fetch(`${base}/guides/webhooks`, { headers: { accept: "text/html" } });
      const html = await page.text();
      expect([page.status, html.includes('<h2 id="events">'), html.includes("<td><code>object.created</code></td>")]).toEqual([200, true, true]);
      for (const name of ["playground.js", "dashboard.js", "dashboard.css", "pages.css"]) {
        const res = await fetch(`${base}/_svc/assets/${name}`);
        expect([name, res.status, await res.text()]).toEqual([name, 200, readFileSync(join(OUT, "web", name), "utf8")]);
      }
    } finally {
      // Removed once the server has exited: one still stopping writes its state there.
      const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
      child.kill("SIGINT");
      await exited;
      rmSync(state, { recursive: true, force: true });
    }
  });
});

/**
 * `svc-mcp serve --dir fixtures/demo` over stdio, started from the chunks (`cjs` false) or, as
 * bin/svc-mcp.js does on Node 20, from the CommonJS script with its code cache under `codeDir`:
 * the tool list, two searches and two shell commands it answers, and what became of the cache.
 */
async function serveAnswers(cjs: boolean, codeDir: string): Promise<{ state: string; answers: unknown[] }> {
  const script = readdirSync(OUT).find((f) => /^cli-[0-9a-f]{16}\.cjs$/.test(f)) as string;
  const driver = cjs
    ? `import { runWithCodeCache } from ${JSON.stringify(pathToFileURL(join(REPO, "bin", "code-cache.js")).href)};
const run = runWithCodeCache(${JSON.stringify(join(OUT, script))}, ${JSON.stringify(codeDir)}, Buffer.alloc(32, 7));
process.stderr.write("code cache: " + run.state + "\\n");
process.once("exit", () => run.save());
process.exitCode = await run.exports.main(process.argv.slice(1));`
    : `const { main } = await import(${JSON.stringify(join(OUT, "cli.mjs"))}); process.exitCode = await main(process.argv.slice(1));`;
  const state = mkdtempSync(join(tmpdir(), "svc-bundle-state-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--input-type=module", "-e", driver, "serve", "--no-watch", "--dir", fixture("demo"), "--state", state],
    env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cacheHome },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new TestClient({ name: "bundle-test", version: "1" });
  try {
    await client.connect(transport);
    const answers: unknown[] = [(await client.listTools()).tools];
    for (const query of ["webhook signature", "upload a file"]) answers.push(await client.callTool({ name: "search_nimbus_storage", arguments: { query } }));
    for (const command of ["ls / | head -5", "rg -il webhook / | sort"]) answers.push(await client.callTool({ name: "query_docs_filesystem_nimbus_storage", arguments: { command } }));
    return { state: /code cache: (\w+)/.exec(stderr)?.[1] ?? "chunks", answers };
  } finally {
    await client.close();
    rmSync(state, { recursive: true, force: true });
  }
}

describe("serve's CommonJS script (dist/cli-<hash>.cjs: Node 20's code cache, bin/code-cache.js)", () => {
  it("answers over stdio as the chunks do, with no code cache and with the one the first start wrote", async () => {
    const codeDir = join(cacheHome, "svc-mcp", "code");
    const chunks = await serveAnswers(false, codeDir);
    expect(JSON.stringify(chunks.answers)).toContain("/guides/webhooks");
    const first = await serveAnswers(true, codeDir);
    const second = await serveAnswers(true, codeDir);
    expect([first.state, second.state]).toEqual(["none", "accepted"]);
    expect(first.answers).toEqual(chunks.answers);
    expect(second.answers).toEqual(chunks.answers);
  });

  it("is shipped in the archive and holds the same fingerprint as the chunks (caches keyed by it are shared)", async () => {
    const name = readdirSync(OUT).find((f) => /^cli-[0-9a-f]{16}\.cjs$/.test(f)) as string;
    const script = readFileSync(join(OUT, name), "utf8");
    const chunk = readdirSync(OUT).filter((f) => f.endsWith(".mjs")).map((f) => readFileSync(join(OUT, f), "utf8")).join("\n");
    // scripts/build.mjs's fingerprint, as code-fingerprint.ts joins it into its hash (esbuild folds the two strings).
    const fingerprintOf = (text: string): string[] => [...new Set([...text.matchAll(/"bundle ([0-9a-f]{64})"/g)].map((m) => m[1] as string))];
    expect(fingerprintOf(script)).toEqual(fingerprintOf(chunk));
    expect(fingerprintOf(script).length).toBe(1);
    const { writeArchive } = (await import(pathToFileURL(join(REPO, "scripts", "bundle-archive.mjs")).href)) as { writeArchive(dist: string): string };
    const archive = brotliDecompressSync(readFileSync(join(OUT, writeArchive(OUT))));
    const lines = archive.subarray(0, archive.indexOf(10, archive.indexOf(10) + 1)).toString().split("\n");
    expect((JSON.parse(lines[1] as string) as [string, number][]).filter(([path]) => path.endsWith(".cjs"))).toEqual([[name, Buffer.byteLength(script)]]);
  });
});

describe("the bundle is self-contained", () => {
  const bundlePlugins = () => import(pathToFileURL(join(REPO, "scripts", "bundle-plugins.mjs")).href) as Promise<{ EXTERNAL: string[]; LEFT_OUT_JUST_BASH_CHUNKS: string[]; leftOutMessage: (name: string) => string }>;

  it("the package declares no runtime dependencies: every library is in the bundle", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as Record<string, unknown>;
    expect([pkg.dependencies, pkg.optionalDependencies, pkg.peerDependencies]).toEqual([undefined, undefined, { "better-sqlite3": "^12.9.0" }]);
  });

  it("imports nothing but Node's modules and the optional native ones", async () => {
    const { EXTERNAL } = await bundlePlugins();
    const imported = new Set<string>();
    for (const output of Object.values(metafile().outputs)) for (const i of output.imports) if (i.external === true) imported.add(i.path);
    // The check would pass on a metafile it cannot read: the chunks import Node's modules.
    expect(imported.has("node:fs")).toBe(true);
    expect([...imported].filter((s) => !isBuiltin(s) && !s.startsWith("./") && !EXTERNAL.includes(s)).sort()).toEqual([]);
  });

  it("every chunk loads where no node_modules is in reach, and a left-out just-bash chunk is a refusal, not a file", async () => {
    const { LEFT_OUT_JUST_BASH_CHUNKS, leftOutMessage } = await bundlePlugins();
    const alone = mkdtempSync(join(tmpdir(), "svc-bundle-alone-"));
    try {
      cpSync(OUT, alone, { recursive: true });
      // The worker entries expect to run in a worker thread (the serve tests run them there).
      const chunks = readdirSync(alone).filter((f) => f.endsWith(".mjs") && !["shell-worker.mjs", "analysis-worker.mjs", "render-worker.mjs", "page-read-worker.mjs", "jq-thread.mjs"].includes(f));
      const script = `const out = {}; for (const f of ${JSON.stringify(chunks)}) { try { await import("./" + f); } catch (e) { out[f] = String(e.message).split("\\n")[0]; } } console.log(JSON.stringify(out));`;
      const r = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: alone, env: { PATH: process.env.PATH ?? "" }, maxBuffer: 16 << 20 });
      expect(JSON.parse(r.stdout)).toEqual({});
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
    // just-bash's command chunks join the interpreter's chunk (fewer files for npm to unpack);
    // the left-out ones are only their refusal.
    const files = readdirSync(OUT).filter((f) => f.endsWith(".mjs"));
    expect(files.filter((f) => /^[a-z0-9-]+-[A-Z0-9]{8}-[A-Z0-9]{8}\.mjs$/.test(f))).toEqual([]);
    const text = files.map((f) => readFileSync(join(OUT, f), "utf8")).join("\n");
    expect(LEFT_OUT_JUST_BASH_CHUNKS.filter((n) => !text.includes(JSON.stringify(leftOutMessage(n))))).toEqual([]);
  });

  it("no command the docs shell offers loads a just-bash chunk the bundle leaves out", async () => {
    const { LEFT_OUT_JUST_BASH_CHUNKS } = await bundlePlugins();
    const index = readFileSync(join(REPO, "node_modules", "just-bash", "dist", "bundle", "index.js"), "utf8");
    const chunkOf = new Map([...index.matchAll(/\{name:"([^"]+)",load:async\(\)=>\(await import\("\.\/chunks\/([a-z0-9-]+?)-[A-Z0-9]+\.js"\)\)/g)].map((m) => [m[1] as string, m[2] as string]));
    expect(chunkOf.size).toBeGreaterThan(80);
    expect(builtinCommandNames().filter((n) => LEFT_OUT_JUST_BASH_CHUNKS.includes(chunkOf.get(n) ?? ""))).toEqual([]);
    // And the commands it leaves out are ones the shell does not offer.
    expect([...chunkOf].filter(([, chunk]) => LEFT_OUT_JUST_BASH_CHUNKS.includes(chunk)).map(([name]) => name)).toEqual(["html-to-markdown", "gzip", "gunzip", "zcat", "tar", "sqlite3", "python3", "python", "js-exec", "node", "curl"]);
  });
});
