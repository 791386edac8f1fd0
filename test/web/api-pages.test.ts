import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startBridge, userTokens } from "../bridge/harness.js";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { describeBrowser, launchBrowser, offMachine, type Page, type TestBrowser } from "../helpers/browser.js";
import { petsRepo, startTestApi } from "./site.js";

/**
 * The API pages in headless Chromium, over the real bridge as `serve --http` mounts it, against
 * a local test API: the reference with its anchors, the playground for each content type and
 * each display rule, the site sign-in, and that no request leaves 127.0.0.1.
 */

let api: Awaited<ReturnType<typeof startTestApi>>;
let h: Harness;
let direct: Harness;
let b: TestBrowser;

const PAGE = {
  get: "/api-reference/pets/get-a-pet",
  photo: "/api-reference/pets/pet-photo",
  bark: "/api-reference/pets/pet-bark",
  video: "/api-reference/pets/pet-video",
  stats: "/api-reference/pets/statistics",
  members: "/api-reference/pets/members-area",
  kennel: "/api-reference/pets/kennel-staff-tools",
  vault: "/api-reference/pets/vault-vault-op-61",
  channel: "/api-reference/petadopted",
  adopt: "/adopt",
};

beforeAll(async () => {
  api = await startTestApi();
  h = await startBridge({ root: petsRepo(api.origin), authMode: "partial", apps: true });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  await h.state.addUser("sue", "sue-password-1", ["sales"]);
  direct = await startBridge({ root: petsRepo(api.origin, { playground: { url: "full", proxy: false } }), apps: true });
});
afterAll(async () => {
  await b?.close();
  await h?.close();
  await direct?.close();
  await api?.close();
});

async function bearerFor(name: string, password: string): Promise<string> {
  return (await userTokens(h, name, password)).access_token;
}

async function open(page: Page, origin: string, path: string): Promise<void> {
  const res = await page.goto(`${origin}${path}`);
  expect(res?.status(), path).toBe(200);
}

/** Fill the playground, send, and wait for the answer's body element. */
async function send(page: Page, fields: Record<string, string> = {}): Promise<{ tag: string; status: string }> {
  await page.waitForSelector('form[data-ready="true"]');
  for (const [testid, value] of Object.entries(fields)) await page.fill(`[data-testid="${testid}"]`, value);
  await page.click('[data-testid="playground-send"]');
  const body = await page.waitForSelector('[data-testid="playground-response"] [data-testid="response-body"]');
  return { tag: await body.evaluate((e) => e.tagName.toLowerCase()), status: await page.innerText('[data-testid="response-status"]') };
}

/** What the playground area offers this reader: the form, a sign-in link, or the notice's text. */
async function playgroundOffer(page: Page): Promise<string> {
  if ((await page.$('[data-testid="playground-send"]')) !== null) return "form";
  if ((await page.$('[data-testid="playground-sign-in"]')) !== null) return "sign-in";
  return page.innerText(".playground .notice");
}

async function signIn(page: Page, name: string, password: string, returnTo: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${h.origin}/_svc/login?return=${encodeURIComponent(returnTo)}`);
  await page.fill("#username", name);
  await page.fill("#password", password);
  await Promise.all([page.waitForURL(`${h.origin}${returnTo}`), page.click('button[type="submit"]')]);
}

describeBrowser("API pages in a real browser", () => {
  let page: Page;
  beforeAll(async () => {
    b = await launchBrowser();
    page = await b.newPage();
  });

  it("shows the operation: method, full URL, description, parameters with anchors, responses and examples", async () => {
    await open(page, h.origin, `${PAGE.get}#species`);
    expect(await page.innerText("h1")).toBe("Get a pet");
    expect(await page.innerText(".endpoint")).toBe(`GET ${api.origin}/v1/pets/{petId}`);
    expect(await page.innerText("article .description")).toBe("Returns one pet by its id.");
    expect(await page.$$eval(".field[id]", (els) => els.map((e) => e.id))).toEqual(["petId", "species", "X-Trace", "response-id", "response-name"]);
    // Each also answers to the hosted platform's anchor (`#query-species`).
    expect(await page.$$eval(".field > .alias", (els) => els.map((e) => e.id))).toEqual(["path-petId", "query-species", "header-X-Trace"]);
    // The link `{docs_url}/<page>#species` lands on the parameter.
    expect(await page.evaluate(() => document.querySelector(":target")?.id)).toBe("species");
    expect(await page.innerText("#species")).toBe('species string\n\nFilter by species.\n\none of: "dog", "cat"');
    expect(await page.$$eval("figure.code figcaption", (els) => els.map((e) => e.textContent))).toEqual(["cURL", "Python", "Response 200"]);
    expect(await page.$$eval("h2", (els) => els.map((e) => e.textContent))).toEqual(["Try it", "Path parameters", "Query parameters", "Headers", "Responses", "Examples"]);
  });

  it("prefills the form from the spec's examples (api.examples.prefill) and sends it through the relay: JSON in a <pre>", async () => {
    await open(page, h.origin, PAGE.get);
    expect(await page.inputValue('[data-testid="param-petId"]')).toBe("rex");
    expect(await page.inputValue('[data-testid="param-species"]')).toBe("dog");
    const before = api.received.length;
    const answer = await send(page, { "param-species": "cat", "param-X-Trace": "trace-7", "auth-key": "key-123" });
    expect(answer).toEqual({ tag: "pre", status: "200 OK" });
    expect(await page.innerText('[data-testid="response-body"]')).toBe(JSON.stringify({ path: "/v1/pets/rex", query: "species=cat", body: null }, null, 2));
    const got = api.received.slice(before);
    expect(got.map((r) => [r.method, r.url, r.headers["x-trace"], r.headers["x-api-key"]])).toEqual([["GET", "/v1/pets/rex?species=cat", "trace-7", "key-123"]]);
    expect(await page.innerText(".response details summary")).toMatch(/^Headers \(\d+\)$/);
  });

  it.each([
    [PAGE.photo, "img", "/v1/pets/rex/photo"],
    [PAGE.bark, "audio", "/v1/pets/rex/bark"],
    [PAGE.video, "video", "/v1/pets/rex/video"],
  ])("%s: the answer is shown as <%s>", async (path, tag, upstreamPath) => {
    await open(page, h.origin, path);
    const before = api.received.length;
    expect(await send(page)).toEqual({ tag, status: "200 OK" });
    expect(api.received.slice(before).map((r) => r.url)).toEqual([upstreamPath]);
    const el = await page.$('[data-testid="response-body"]');
    if (tag === "img") {
      await page.waitForFunction(() => (document.querySelector('[data-testid="response-body"]') as HTMLImageElement).complete);
      expect(await el!.evaluate((e) => [(e as HTMLImageElement).naturalWidth, (e as HTMLImageElement).src.slice(0, 22)])).toEqual([1, "data:image/png;base64,"]);
    } else {
      expect(await el!.evaluate((e) => (e as HTMLMediaElement).controls)).toBe(true);
    }
  });

  it("a front-matter page shows the author's prose first, then the operation; nested body fields anchor with their parent path", async () => {
    await open(page, h.origin, `${PAGE.adopt}#owner.email`);
    expect(await page.$$eval("main > *", (els) => els.map((e) => e.tagName.toLowerCase() + (e.className !== "" ? `.${e.className}` : "")))).toEqual(["p.eyebrow", "section.prose", "article.operation", "nav.pager"]);
    expect(await page.innerText('[data-testid="page-prose"]')).toBe("Adopting a pet\n\nADOPT-PROSE-17 Fill in the form below to adopt.");
    expect(await page.$$eval(".field[id]", (els) => els.map((e) => e.id))).toEqual(["name", "owner", "owner.email"]);
    expect(await page.evaluate(() => document.querySelector(":target")?.id)).toBe("owner.email");
    // Nested fields are folded under their parent; a link to one opens the fold.
    expect(await page.isVisible("#owner\\.email")).toBe(true);
    await page.goto(`${h.origin}${PAGE.adopt}`);
    expect(await page.isVisible("#owner\\.email")).toBe(false);
    await page.goto(`${h.origin}${PAGE.adopt}#body-owner-email`);
    await page.waitForSelector('body[data-ready="true"]');
    expect([await page.evaluate(() => document.querySelector(":target")?.parentElement?.id), await page.isVisible("#owner\\.email")]).toEqual(["owner.email", true]);
    expect(JSON.parse(await page.inputValue('[data-testid="playground-body"]'))).toEqual({ name: "Rex", owner: { email: "user@example.com" } });
    const before = api.received.length;
    expect(await send(page, { "playground-body": '{"name":"Bo"}' })).toEqual({ tag: "pre", status: "201 Created" });
    expect(api.received.slice(before).map((r) => [r.method, r.url, r.headers["content-type"], r.body])).toEqual([["POST", "/v1/pets", "application/json", '{"name":"Bo"}']]);
  });

  it("an AsyncAPI channel page shows its address, parameters with anchors and messages, and no playground", async () => {
    await open(page, h.origin, `${PAGE.channel}#petId`);
    expect(await page.innerText(".endpoint")).toBe("CHANNEL pets.{petId}.adopted");
    expect(await page.evaluate(() => document.querySelector(":target")?.id)).toBe("petId");
    expect(await page.$('[data-testid="playground-send"]')).toBeNull();
  });

  it("shows a bad JSON body as an error, and sends nothing", async () => {
    await open(page, h.origin, PAGE.adopt);
    const before = api.received.length;
    await page.fill('[data-testid="playground-body"]', "{nope");
    await page.click('[data-testid="playground-send"]');
    expect(await (await page.waitForSelector('[data-testid="playground-error"]')).innerText()).toMatch(/^The body is not valid JSON: /);
    expect(api.received.length).toBe(before);
  });

  describe("display rules, for an anonymous reader and signed-in readers in and out of the page's groups", () => {
    const expected: Record<string, Record<string, string>> = {
      anonymous: { get: "form", stats: "The playground is turned off for this page.", members: "sign-in", kennel: "sign-in" },
      sam: { get: "form", stats: "The playground is turned off for this page.", members: "form", kennel: "form" },
      sue: { get: "form", stats: "The playground is turned off for this page.", members: "form", kennel: "The playground of this page is limited to the groups staff." },
    };
    it.each(Object.keys(expected))("%s", async (who) => {
      if (who === "anonymous") await page.context().clearCookies();
      else await signIn(page, who, `${who}-password-1`, PAGE.get);
      const seen: Record<string, string> = {};
      for (const name of ["get", "stats", "members", "kennel"] as const) {
        await open(page, h.origin, PAGE[name]);
        seen[name] = await playgroundOffer(page);
      }
      expect(seen).toEqual(expected[who]);
      // The page itself: `public: true` keeps the kennel page readable by everyone; the vault page (groups: staff) is staff's only.
      const vault = await page.goto(`${h.origin}${PAGE.vault}`);
      expect(vault?.status()).toBe(who === "sam" ? 200 : 404);
    });

    it("a signed-in reader in the page's groups sends through the relay with the session cookie", async () => {
      await signIn(page, "sam", "sam-password-1", PAGE.kennel);
      expect(await page.innerText('[data-testid="signed-in-as"]')).toBe("sam");
      expect(await send(page)).toEqual({ tag: "pre", status: "200 OK" });
      const cookies = await page.context().cookies(h.origin);
      expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.secure, c.path])).toEqual([["svc_session", true, "Lax", false, "/"]]);
    });

    it("signing out ends the session: the kennel page offers sign-in again", async () => {
      await signIn(page, "sam", "sam-password-1", PAGE.kennel);
      await Promise.all([page.waitForURL(`${h.origin}${PAGE.kennel}`), page.click('form.who button[type="submit"]')]);
      expect(await playgroundOffer(page)).toBe("sign-in");
    });

    it("a wrong password shows the sign-in page again with the error", async () => {
      await page.context().clearCookies();
      await page.goto(`${h.origin}/_svc/login?return=${encodeURIComponent(PAGE.kennel)}`);
      await page.fill("#username", "sam");
      await page.fill("#password", "wrong-password");
      await page.click('button[type="submit"]');
      expect(await page.innerText(".error")).toBe("Wrong user name or password.");
      expect(await page.context().cookies(h.origin)).toEqual([]);
    });
  });

  it("with api.playground.proxy false, the browser calls the API itself (the policy allows its origin)", async () => {
    await page.context().clearCookies();
    const res = await page.goto(`${direct.origin}${PAGE.get}`);
    expect(res?.headers()["content-security-policy"]).toContain(`connect-src 'self' ${api.origin};`);
    const before = api.received.length;
    expect(await send(page, { "param-species": "cat" })).toEqual({ tag: "pre", status: "200 OK" });
    const got = api.received.slice(before).filter((r) => r.method !== "OPTIONS");
    expect(got.map((r) => [r.method, r.url, r.headers.origin])).toEqual([["GET", "/v1/pets/rex?species=cat", direct.origin]]);
    await open(page, direct.origin, PAGE.photo);
    expect(await send(page)).toEqual({ tag: "img", status: "200 OK" });
    expect(await page.$eval('[data-testid="response-body"]', (e) => (e as HTMLImageElement).src.slice(0, 5))).toBe("blob:");
  });

  it("the site's icon (/favicon.ico, which browsers ask for on their own) is an image the browser decodes", async () => {
    await open(page, h.origin, PAGE.get);
    const size = await page.evaluate(async () => {
      const img = new Image();
      img.src = "/favicon.ico";
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    });
    expect(size).toEqual([32, 32]);
  });

  it("no request left 127.0.0.1: pages, scripts, styles, relay and API calls alike", () => {
    expect(b.requests.length).toBeGreaterThan(20);
    expect(offMachine(b.requests)).toEqual([]);
    // And the pages did nothing their Content-Security-Policy had to refuse.
    expect(b.refused).toEqual([]);
    const origins = new Set(b.requests.filter((u) => u.startsWith("http")).map((u) => new URL(u).origin));
    expect([...origins].sort()).toEqual([h.origin, direct.origin, api.origin].sort());
  });
});

describe("API pages over HTTP", () => {
  it("a page the reader may not read answers exactly as a page that does not exist: a 404 page offering the sign-in", async () => {
    const get = async (path: string) => {
      const res = await fetch(`${h.origin}${path}`, { headers: { accept: "text/html" } });
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        if (k !== "date" && k !== "content-length") headers[k] = v;
      });
      return { status: res.status, headers, body: (await res.text()).replaceAll(path, "<path>").replaceAll(encodeURIComponent(path), "<path>") };
    };
    const missing = await get(`${PAGE.vault}-missing`);
    expect([missing.status, missing.headers["content-type"]]).toEqual([404, "text/html; charset=utf-8"]);
    expect(missing.body).toContain('<h1>Page not found</h1><p>There is no page at <code><path></code>.</p><p>If the page is for signed-in readers, <a href="/_svc/login?return=<path>" data-testid="not-found-sign-in">sign in</a> first.</p>');
    expect(await get(PAGE.vault)).toEqual(missing);
    // A reader in another group gets the same page, without the sign-in (they are signed in).
    const sue = await bearerFor("sue", "sue-password-1");
    const other = await fetch(`${h.origin}${PAGE.vault}`, { headers: { accept: "text/html", authorization: `Bearer ${sue}` } });
    expect([other.status, (await other.text()).includes("not-found-sign-in")]).toEqual([404, false]);
  });

  it("serves its pages with a strict Content-Security-Policy and its scripts from this server", async () => {
    const res = await fetch(`${h.origin}${PAGE.get}`, { headers: { accept: "text/html" } });
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    const html = await res.text();
    expect([...html.matchAll(/(?:src|href)="([^"#]+)"/g)].map((m) => m[1]).filter((u) => !u!.startsWith("/"))).toEqual([]);
    const script = await fetch(`${h.origin}/_svc/assets/playground.js`);
    expect([script.status, script.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
  });

  it("prefills only required parameters with api.examples.defaults: required, and nothing without prefill", async () => {
    const values = async (site: Harness, path: string) => {
      const html = await (await fetch(`${site.origin}${path}`, { headers: { accept: "text/html" } })).text();
      const inputs = [...html.matchAll(/<input name="([^"]+)" data-in="[^"]+" value="([^"]*)"/g)].map((m) => [m[1], m[2]]);
      const body = /<textarea name="body"[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1];
      return { inputs, ...(body !== undefined ? { body: body.replace(/&quot;/g, '"') } : {}) };
    };
    const required = await startBridge({ root: petsRepo(api.origin, { examples: { languages: ["curl"], prefill: true, defaults: "required" } }), apps: true });
    const none = await startBridge({ root: petsRepo(api.origin, { examples: { languages: ["curl"] } }), apps: true });
    try {
      expect(await values(required, PAGE.get)).toEqual({ inputs: [["petId", "rex"], ["species", ""], ["X-Trace", ""]] });
      expect(await values(required, PAGE.adopt)).toEqual({ inputs: [], body: JSON.stringify({ name: "Rex" }, null, 2) });
      expect(await values(none, PAGE.get)).toEqual({ inputs: [["petId", ""], ["species", ""], ["X-Trace", ""]] });
      expect(await values(none, PAGE.adopt)).toEqual({ inputs: [], body: "" });
    } finally {
      await required.close();
      await none.close();
    }
  });

  it("signing in goes back only to a path on this site, and sets the session cookie's flags", async () => {
    const login = async (returnTo: string, origin = h.origin) => {
      const res = await fetch(`${origin}/_svc/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ return: returnTo, username: "sam", password: "sam-password-1" }).toString(),
      });
      return [res.status, res.headers.get("location"), res.headers.get("set-cookie")?.replace(/svc_session=[A-Za-z0-9_-]{43}/, "svc_session=<token>")];
    };
    const cookie = "svc_session=<token>; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax";
    expect(await login(PAGE.kennel)).toEqual([303, PAGE.kennel, cookie]);
    for (const elsewhere of ["//evil.example/x", "/\\evil.example", "https://evil.example/", "kennel"]) expect(await login(elsewhere)).toEqual([303, "/", cookie]);
  });

  it("over https (--public-url https://...) the session cookie is Secure too", async () => {
    const app = createWebApp({ runtime: h.runtime, state: h.state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: "https://docs.example.com" });
    const res = await app.fetch(
      new Request("http://127.0.0.1/_svc/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ return: "/", username: "sam", password: "sam-password-1" }).toString(),
      }),
    );
    expect(res.headers.get("set-cookie")?.replace(/svc_session=[A-Za-z0-9_-]{43}/, "svc_session=<token>")).toBe("svc_session=<token>; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure");
  });

  it("/favicon.ico is an icon browsers may keep a day, never a 404", async () => {
    for (const method of ["GET", "HEAD"]) {
      const res = await fetch(`${h.origin}/favicon.ico`, { method });
      const body = Buffer.from(await res.arrayBuffer());
      expect([method, res.status, res.headers.get("content-type"), res.headers.get("cache-control"), body.subarray(0, 4).toString("hex"), method === "GET" ? body.subarray(22, 26).toString("latin1") : ""]).toEqual([
        method,
        200,
        "image/x-icon",
        "public, max-age=86400",
        method === "GET" ? "00000100" : "",
        method === "GET" ? "\x89PNG" : "",
      ]);
    }
  });

  it("without Accept: text/html a page path answers as before (the MCP and API clients' JSON 404)", async () => {
    const res = await fetch(`${h.origin}${PAGE.get}`);
    expect([res.status, await res.json()]).toEqual([404, { error: { code: "not_found", message: `nothing at GET ${PAGE.get}` } }]);
  });
});
