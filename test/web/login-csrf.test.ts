import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startBridge } from "../bridge/harness.js";
import { describeBrowser, launchBrowser, type TestBrowser } from "../helpers/browser.js";
import { petsRepo } from "./site.js";

/**
 * Login CSRF (issue 25, item 3): a foreign page must not sign a browser in (as the attacker's
 * account) nor out. `POST /_svc/login` and `/_svc/logout` accept a form only from this server's
 * own origin; a browser request from any other origin (or `Origin: null`, a sandboxed frame or
 * a redirect chain) is refused with the same 403 JSON as the MCP endpoints' origin policy.
 */

let h: Harness;
beforeAll(async () => {
  h = await startBridge({ root: petsRepo("http://127.0.0.1:9"), authMode: "partial", apps: true });
  await h.state.addUser("mallory", "mallory-password-1", ["staff"]);
});
afterAll(async () => {
  await h?.close();
});

const form = new URLSearchParams({ return: "/", username: "mallory", password: "mallory-password-1" }).toString();

async function post(path: string, headers: Record<string, string>): Promise<{ status: number; body: unknown; cookie: string | null }> {
  const res = await fetch(`${h.origin}${path}`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: form });
  const text = await res.text();
  return { status: res.status, body: res.headers.get("content-type")?.includes("json") === true ? (JSON.parse(text) as unknown) : "html", cookie: res.headers.get("set-cookie") };
}

describe("the site sign-in refuses forms from other origins", () => {
  for (const origin of ["https://evil.example", "null", "http://127.0.0.1:1", "http://localhost:8080"]) {
    for (const path of ["/_svc/login", "/_svc/logout"]) {
      it(`${path} from Origin ${origin}: 403, no cookie`, async () => {
        expect(await post(path, { origin })).toEqual({
          status: 403,
          body: { error: { code: "forbidden_origin", message: `Origin ${origin} may not post to ${path}; use the form on this site` } },
          cookie: null,
        });
      });
    }
  }

  it("a browser that says cross-site without an Origin (Sec-Fetch-Site) is refused too", async () => {
    expect(await post("/_svc/login", { "sec-fetch-site": "cross-site" })).toEqual({
      status: 403,
      body: { error: { code: "forbidden_origin", message: "a cross-site request may not post to /_svc/login; use the form on this site" } },
      cookie: null,
    });
  });

  it("the server's own origin (Origin: null beside same-origin is our no-referrer pages' own form), and a client that sends no Origin (not a browser), sign in", async () => {
    const cases: Record<string, string>[] = [{ origin: h.origin, "sec-fetch-site": "same-origin" }, { origin: "null", "sec-fetch-site": "same-origin" }, {}];
    for (const headers of cases) {
      const res = await post("/_svc/login", headers);
      expect([res.status, res.cookie?.startsWith("svc_session=")]).toEqual([303, true]);
    }
  });
});

/** A page on another origin whose script posts a sign-in form to the bridge on load. */
async function foreignSite(target: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const html = `<!doctype html><form id="f" method="post" action="${target}/_svc/login">
<input name="username" value="mallory"><input name="password" value="mallory-password-1"><input name="return" value="/">
</form><script>document.getElementById("f").submit()</script>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(html);
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  // `localhost` is another site than `127.0.0.1` for the browser: a cross-site post, as from evil.example.
  return { origin: `http://localhost:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describeBrowser("login CSRF in a real browser", () => {
  let b: TestBrowser;
  let foreign: Awaited<ReturnType<typeof foreignSite>>;
  beforeAll(async () => {
    b = await launchBrowser();
    foreign = await foreignSite(h.origin);
  });
  afterAll(async () => {
    await b?.close();
    await foreign?.close();
  });

  it("a foreign page's form post does not sign the browser in", async () => {
    const page = await b.newPage();
    const refused = page.waitForResponse((r) => r.url() === `${h.origin}/_svc/login`);
    await page.goto(foreign.origin);
    const res = await refused;
    expect([res.status(), await res.json()]).toEqual([
      403,
      { error: { code: "forbidden_origin", message: `Origin ${foreign.origin} may not post to /_svc/login; use the form on this site` } },
    ]);
    expect((await b.browser.cookies(h.origin)).map((c) => c.name)).toEqual([]);
    // The site's own form still signs in.
    await page.goto(`${h.origin}/_svc/login?return=/`);
    await page.fill("#username", "mallory");
    await page.fill("#password", "mallory-password-1");
    await Promise.all([page.waitForURL(`${h.origin}/`), page.click('button[type="submit"]')]);
    expect((await b.browser.cookies(h.origin)).map((c) => c.name)).toEqual(["svc_session"]);
  });
});
