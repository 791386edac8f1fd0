import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { build } from "esbuild";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, startBridge } from "../bridge/harness.js";
import { REPO } from "../helpers/paths.js";
import { describeBrowser, launchBrowser, type TestBrowser } from "../helpers/browser.js";
import { petsRepo, startTestApi } from "./site.js";

/**
 * The API playground's MCP App in headless Chromium, hosted by the official ext-apps `AppBridge`
 * (test/web/mcp-app-host.ts): the document `resources/read` gives, its form filled and sent; the
 * Send goes host -> official SDK client -> the real bridge over HTTP (2026-07-28) -> the relay ->
 * a loopback API, and the app shows the answer. No request leaves the page but the test's own.
 */
const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };

let api: Awaited<ReturnType<typeof startTestApi>>;
let h: Harness;
let b: TestBrowser;
let client: Client;
let hostScript: string;

beforeAll(async () => {
  api = await startTestApi();
  h = await startBridge({ root: petsRepo(api.origin), playgroundApps: true });
  client = new Client({ name: "apps-host", version: "1.0.0" }, { capabilities: UI, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(h.urls.mcp)));
  const bundled = await build({ absWorkingDir: REPO, entryPoints: ["test/web/mcp-app-host.ts"], bundle: true, format: "esm", platform: "browser", target: ["chrome100"], write: false, logLevel: "warning" });
  hostScript = bundled.outputFiles[0]!.text;
  b = await launchBrowser();
});
afterAll(async () => {
  await b?.close();
  await client?.close();
  await h?.close();
  await api?.close();
});

describeBrowser("the API playground as an MCP App, in a real browser", () => {
  it("renders the page's form in the host, sends through the relay as the reader, and shows the answer", async () => {
    const uri = "ui://pets/playground/api-reference/pets/get-a-pet";
    const read = await client.readResource({ uri });
    const html = (read.contents[0] as { text: string }).text;
    const page = await b.newPage();
    const calls: unknown[] = [];
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.exposeFunction("svcAppHtml", () => html);
    await page.exposeFunction("svcCallTool", async (params: { name: string; arguments?: Record<string, unknown> }) => {
      // The tool call as the host forwards it (the app's own progress token stays between them).
      const call = { name: params.name, ...(params.arguments !== undefined ? { arguments: params.arguments } : {}) };
      calls.push(call);
      return client.callTool(call);
    });
    await page.setContent(`<!doctype html><html><body><script type="module">${hostScript.replace(/<\/script/gi, "<\\/script")}</script></body></html>`);
    await page.waitForSelector('body[data-app-initialized="true"]');
    const app = page.frameLocator("iframe");
    await app.locator('form[data-ready="true"]').waitFor();
    expect(await app.locator('[data-testid="endpoint"]').innerText()).toBe(`${api.origin}/v1/pets/{petId}`);
    expect(await app.locator('[data-testid="param-petId"]').inputValue()).toBe("rex");
    await app.locator('[data-testid="auth-key"]').fill("k-77");
    await app.locator('[data-testid="param-petId"]').fill("fido");
    await app.locator('[data-testid="playground-send"]').click();
    await app.locator('[data-testid="playground-response"] :is([data-testid="response-body"], [data-testid="playground-error"])').waitFor();
    expect(await app.locator('[data-testid="playground-error"]').count()).toBe(0);

    expect(await app.locator('[data-testid="response-status"]').innerText()).toBe("200 OK");
    expect(JSON.parse(await app.locator('[data-testid="response-body"]').innerText())).toEqual({ path: "/v1/pets/fido", query: "species=dog", body: null });
    expect(calls).toEqual([
      { name: "api_request_pets", arguments: { page: "/api-reference/pets/get-a-pet", method: "GET", url: `${api.origin}/v1/pets/fido`, query: { species: "dog" }, headers: { "X-Api-Key": "k-77" } } },
    ]);
    expect(api.received.at(-1)).toMatchObject({ method: "GET", url: "/v1/pets/fido?species=dog", headers: { "x-api-key": "k-77" } });
    // The app loads nothing: the only document the browser fetched is the host's blank page.
    expect(b.requests.filter((u) => !u.startsWith("about:") && !u.startsWith("data:"))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the relay's refusal in the app, as the page does", async () => {
    // Statistics: `playground: none`, so the app shows the notice and no form at all.
    const stats = await client.readResource({ uri: "ui://pets/playground/api-reference/pets/statistics" });
    const html = (stats.contents[0] as { text: string }).text;
    expect([/<button[^>]*data-testid="playground-send"/.test(html), html.includes("The playground is turned off for this page.")]).toEqual([false, true]);
  });
});
