import { execFile, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO, fixture } from "../helpers/paths.js";

const run = promisify(execFile);
// Inside the repository (node_modules/.cache), so that packages resolve as from dist/.
const OUT = join(REPO, "node_modules", ".cache", `svc-mcp-bundle-test-${process.pid}`);
let cacheHome: string;

beforeAll(async () => {
  await run(process.execPath, [join(REPO, "scripts", "build.mjs"), OUT], { cwd: REPO });
  cacheHome = mkdtempSync(join(tmpdir(), "svc-bundle-cache-"));
}, 120_000);
afterAll(() => {
  rmSync(OUT, { recursive: true, force: true });
  rmSync(cacheHome, { recursive: true, force: true });
});

/** Run the bundled CLI in a new process, as bin/svc-mcp.js does when dist/ is fresh. */
async function bundled(args: string[]): Promise<{ code: number; stdout: string }> {
  const script = `const { main } = await import(${JSON.stringify(join(OUT, "cli.mjs"))}); process.exitCode = await main(${JSON.stringify(args)});`;
  return run(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, XDG_CACHE_HOME: cacheHome }, maxBuffer: 64 << 20 }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
  );
}

describe("the esbuild bundle", () => {
  it("is split by command, and runs check on a part of spree as the sources do (validators, spec cache), cold and warm", async () => {
    expect(readdirSync(OUT).filter((f) => /^(check|nav|serve)-.*\.mjs$/.test(f)).length).toBe(3);
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

  it("serves --http with filesystem commands in its shell worker (dist/shell-worker.mjs)", async () => {
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
      const client = new Client({ name: "bundle-test", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(origin)));
      const result = await client.callTool({ name: "query_docs_filesystem_nimbus_storage", arguments: { command: "wc -c /guides/webhooks.mdx" } });
      expect(result.content).toEqual([{ type: "text", text: "489 /guides/webhooks.mdx\n" }]);
      await client.close();
      // The pages' assets come from dist/web/, as built beside the chunks.
      const base = new URL(origin).origin;
      for (const name of ["playground.js", "dashboard.js", "dashboard.css", "pages.css"]) {
        const res = await fetch(`${base}/_svc/assets/${name}`);
        expect([name, res.status, await res.text()]).toEqual([name, 200, readFileSync(join(OUT, "web", name), "utf8")]);
      }
    } finally {
      child.kill("SIGINT");
      rmSync(state, { recursive: true, force: true });
    }
  });
});
