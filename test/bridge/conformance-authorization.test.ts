import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checksIn, describeSuite, findSuite } from "../helpers/conformance.js";
import { type Harness, postJson, startBridge, tempDir } from "./harness.js";

/**
 * The official MCP conformance suite's `authorization` command against our authorization
 * server: its metadata scenario, and the authorization-code grant, where this test is the
 * person's browser (it opens the URL the suite prints, signs in on our page and follows the
 * redirect to the suite's callback). The suite needs Node >= 22, which the `node` package
 * provides through tools/node22 (a devDependency).
 */

const found = findSuite("conformance-2026");

/** A port nothing listens on (the suite's callback server binds it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeSuite(found, "conformance authorization", ({ cli, node }) => {
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
    expect(checksIn(out.dir, /^authorization-server-(.+)-\d{4}-/)).toEqual({
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
