import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { type Harness, postJson, startBridge, tempDir } from "./harness.js";

/**
 * The official MCP conformance suite's `authorization` command against our authorization
 * server: its metadata scenario, and the authorization-code grant, where this test is the
 * person's browser (it opens the URL the suite prints, signs in on our page and follows the
 * redirect to the suite's callback). The suite needs Node >= 22, which the `node` package
 * provides beside it as a devDependency.
 */

const require = createRequire(import.meta.url);
function suite(): { cli: string; node: string } | string {
  let pkg: string;
  try {
    pkg = require.resolve("@modelcontextprotocol/conformance/package.json");
  } catch {
    return "@modelcontextprotocol/conformance is not installed";
  }
  const node = join(REPO, "node_modules", "node", "bin", "node");
  if (!existsSync(node)) return "the node package (Node >= 22, which the suite needs) is not installed";
  const major = Number(/^v(\d+)/.exec(execFileSync(node, ["--version"], { encoding: "utf8" }))?.[1] ?? 0);
  if (major < 22) return `node_modules/node is Node ${major}; the suite needs 22 or later`;
  const { bin } = JSON.parse(readFileSync(pkg, "utf8")) as { bin: Record<string, string> | string };
  const entry = typeof bin === "string" ? bin : Object.values(bin)[0];
  if (entry === undefined) return "@modelcontextprotocol/conformance names no executable";
  return { cli: join(dirname(pkg), entry), node };
}
const found = suite();

/** A port nothing listens on (the suite's callback server binds it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Every check.json the run wrote, as `scenario: [check id, status]`. */
function checksIn(dir: string): Record<string, [string, string][]> {
  const out: Record<string, [string, string][]> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith("checks.json")) continue;
    const scenario = /^authorization-server-(.+)-\d{4}-/.exec(entry)?.[1] ?? entry;
    const checks = JSON.parse(readFileSync(join(dir, entry), "utf8")) as { id: string; status: string }[];
    out[scenario] = checks.map((c) => [c.id, c.status]);
  }
  return out;
}

describe.skipIf(typeof found === "string")(`conformance authorization${typeof found === "string" ? ` (skipped: ${found})` : ""}`, () => {
  let h: Harness;
  let out: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    h = await startBridge({ authMode: "partial", mcp: "enabled" });
    await h.state.addUser("sam", "sam-password-1", ["staff"]);
    out = tempDir("svc-mcp-conformance-");
  });
  afterAll(async () => {
    await h.close();
    out.cleanup();
  });

  it("passes every check of both scenarios, at the 2026-07-28 revision", async () => {
    const { cli, node } = found as { cli: string; node: string };
    // A public client with a loopback callback, any port (RFC 8252), as a desktop tool registers.
    const reg = await postJson(h.urls.register, { redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none", application_type: "native", client_name: "conformance" });
    const clientId = (reg.body as { client_id: string }).client_id;
    const port = await freePort();
    const args = [cli, "authorization", "--url", h.urls.issuer, "--client-id", clientId, "--port", String(port), "--spec-version", "2026-07-28", "--output-dir", out.dir];
    const child = spawn(node, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let browsing: Promise<void> | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^(http:\/\/\S+\/authed\/mcp\/oauth\/authorize\?\S+)$/m.exec(stdout)?.[1];
      if (url !== undefined && browsing === undefined) browsing = signInAsBrowser(new URL(url));
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    await browsing;
    expect(checksIn(out.dir)).toEqual({
      "authorization-server-metadata-endpoint": [
        ["authorization-server-metadata", "SUCCESS"],
        ["authorization-server-metadata-cimd", "SUCCESS"],
      ],
      "authorization-code-grant": [["authorization-code-grant", "SUCCESS"]],
    });
    expect(code).toBe(0);
  });

  /** What a person's browser does with the URL: show the page, sign in, follow the 302 to the callback. */
  async function signInAsBrowser(url: URL): Promise<void> {
    expect((await fetch(url)).status).toBe(200);
    const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), username: "sam", password: "sam-password-1", action: "login" });
    const login = await fetch(`${url.origin}${url.pathname}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form, redirect: "manual" });
    expect(login.status).toBe(302);
    expect((await fetch(login.headers.get("location") as string)).status).toBe(200);
  }
});
