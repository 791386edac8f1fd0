import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, mcpClient, startBridge } from "../bridge/harness.js";
import { describeBrowser, launchBrowser, offMachine, type Page, type TestBrowser } from "../helpers/browser.js";
import { previewRepo } from "./preview-site.js";

/**
 * The preview in headless Chromium, over the real bridge as `serve --http` (and `svc-mcp
 * preview`) mounts it: navigation and switchers, the components, the search box, the agent
 * panel against the MCP tool's own answer, who sees what, live reload, pages that try to run
 * script, and that nothing is fetched from off the machine.
 */

let h: Harness;
let b: TestBrowser;
let root: string;

beforeAll(async () => {
  root = previewRepo();
  h = await startBridge({ root, authMode: "partial", mcp: "enabled", apps: true, watch: true });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  // The render worker loaded before the first page (as `svc-mcp preview` has it): on a busy
  // machine loading it from the sources takes longer than a page's navigation timeout.
  await h.runtime.renderPool.start();
});
afterAll(async () => {
  await b?.close();
  await h?.close();
});

/** Open a page and wait for its script to be ready. */
async function open(page: Page, path: string, status = 200): Promise<void> {
  const res = await page.goto(`${h.origin}${path}`);
  expect(res?.status(), path).toBe(status);
  await page.waitForSelector('body[data-ready="true"]');
}

const texts = (page: Page, selector: string): Promise<string[]> => page.$$eval(selector, (els) => els.map((e) => (e.textContent ?? "").trim()));

async function signIn(page: Page, name: string, password: string, returnTo: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${h.origin}/_svc/login?return=${encodeURIComponent(returnTo)}`);
  await page.fill("#username", name);
  await page.fill("#password", password);
  await Promise.all([page.waitForURL(`${h.origin}${returnTo}`), page.click('button[type="submit"]')]);
  await page.waitForSelector('body[data-ready="true"]');
}

describeBrowser("the preview in a real browser", () => {
  let page: Page;
  beforeAll(async () => {
    b = await launchBrowser();
    page = await b.newPage();
  });

  it("navigation: tabs, groups (folded as docs.json says), breadcrumbs, previous and next", async () => {
    await open(page, "/components");
    expect(await texts(page, '[data-testid="tabs"] a')).toEqual(["Guides", "Reference"]);
    expect(await texts(page, '[data-testid="tabs"] a[aria-current="page"]')).toEqual(["Guides"]);
    expect(await texts(page, ".sidebar .group-title")).toEqual(["Start"]);
    expect(await texts(page, ".sidebar .nav-page a")).toEqual(["Introduction", "Components", "Deep dive"]);
    expect(await texts(page, ".sidebar .nav-page.current a")).toEqual(["Components"]);
    // "More" is `expanded: false`: folded until opened, open on its own page.
    expect(await page.isVisible('.sidebar a[href="/more/deep"]')).toBe(false);
    await page.click(".sidebar .nested summary");
    expect(await page.isVisible('.sidebar a[href="/more/deep"]')).toBe(true);
    expect(await page.innerText('[data-testid="eyebrow"]')).toBe("Guides/Start");
    expect([await page.innerText('[data-testid="previous"]'), await page.innerText('[data-testid="next"]')]).toEqual(["Previous\nIntroduction", "Next\nDeep dive"]);
    await Promise.all([page.waitForURL(`${h.origin}/more/deep`), page.click('[data-testid="next"]')]);
    expect(await page.isVisible('.sidebar a[href="/more/deep"]')).toBe(true);
    await Promise.all([page.waitForURL(`${h.origin}/reference/limits`), page.click('[data-testid="tabs"] >> text=Reference')]);
    expect([await page.innerText("h1"), await texts(page, ".sidebar .nav-page a")]).toEqual(["Limits", ["Limits"]]);
  });

  it("the version and language switchers lead to the same page in the other version or language", async () => {
    await open(page, "/components");
    await page.click('[data-testid="switch-version"] summary');
    await Promise.all([page.waitForURL(`${h.origin}/v1/components`), page.click('[data-testid="switch-version"] >> text=v1')]);
    expect([await page.innerText("h1"), await page.innerText('[data-testid="switch-version"] summary')]).toEqual(["Components v1", "Version v1"]);
    await open(page, "/components");
    await page.click('[data-testid="switch-language"] summary');
    await Promise.all([page.waitForURL(`${h.origin}/fr/components`), page.click('[data-testid="switch-language"] >> text=fr')]);
    expect([await page.innerText('[data-testid="switch-language"] summary'), await texts(page, '[data-testid="tabs"] a')]).toEqual(["Language fr", ["Guides", "Référence"]]);
    // An index page is found by its folder too.
    await page.click('[data-testid="switch-language"] summary');
    await Promise.all([page.waitForURL(`${h.origin}/components`), page.click('[data-testid="switch-language"] >> text=en')]);
  });

  it("a callout, tabs, a code group, steps and an accordion render and work", async () => {
    await open(page, "/components");
    expect(await texts(page, ".callout .callout-label")).toEqual(["Note", "Warning"]);
    expect(await page.innerText(".callout-note .callout-body")).toBe("NOTE-TEXT Read this first.");
    // Tabs: the first panel shows; a click shows the other.
    expect([await page.isVisible("text=TAB-NPM"), await page.isVisible("text=TAB-YARN")]).toEqual([true, false]);
    await page.click('.tabs button.tab:has-text("yarn")');
    expect([await page.isVisible("text=TAB-NPM"), await page.isVisible("text=TAB-YARN")]).toEqual([false, true]);
    // The code group: tabs named by each block's title, highlighted code.
    expect(await texts(page, ".code-group button.tab")).toEqual(["npm", "yarn"]);
    expect([await page.isVisible(".code-group code >> text=npm install orbit"), await page.isVisible(".code-group code >> text=yarn add orbit")]).toEqual([true, false]);
    await page.click('.code-group button.tab:has-text("yarn")');
    expect([await page.isVisible(".code-group code >> text=npm install orbit"), await page.isVisible(".code-group code >> text=yarn add orbit")]).toEqual([false, true]);
    expect(await texts(page, ".code-group code .hljs-comment")).toEqual(["# the CLI", "# the CLI"]);
    expect(await page.$$eval("ol.steps > li.step", (els) => els.map((e) => e.querySelector(".step-title")?.textContent))).toEqual(["Create a project", "Deploy it"]);
    // The accordion opens and closes without a script of the page's.
    expect(await page.isVisible("text=ACCORDION-BODY")).toBe(false);
    await page.click("details.accordion summary");
    expect(await page.isVisible("text=ACCORDION-BODY")).toBe(true);
    // A snippet, an unknown component's children, a field's anchor, the repository's image.
    expect(await page.isVisible("text=Shared text for Orbit.")).toBe(true);
    expect(await page.isVisible("text=MYSTERY-CHILD shown as its children.")).toBe(true);
    expect(await page.getAttribute(".field", "id")).toBe("body-user-email");
    expect(await page.$eval('img[alt="Orbit logo"]', (img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
  });

  it("the search box searches as this reader, in the page's version and language", async () => {
    await open(page, "/components");
    await page.fill('[data-testid="search-input"]', "requests per minute");
    await page.waitForSelector('[data-testid="search-result"]');
    expect(await texts(page, '[data-testid="search-result"] .result-title')).toEqual(["Limits"]);
    await Promise.all([page.waitForURL(`${h.origin}/reference/limits`), page.press('[data-testid="search-input"]', "Enter")]);
    // In French v2, the French page.
    await open(page, "/fr/components");
    await page.fill('[data-testid="search-input"]', "ORBIT-LIMITS-3");
    await page.waitForSelector('[data-testid="search-result"]');
    expect(await page.getAttribute('[data-testid="search-result"]', "href")).toBe("/fr/reference/limits");
    expect(await page.$$eval('[data-testid="search-result"]', (els) => els.every((e) => /^\/fr(\/|$)/.test(e.getAttribute("href") ?? "")))).toBe(true);
  });

  it("the agent panel shows the page as the shell's cat prints it, byte for byte, the sections search holds, and runs the tools", async () => {
    const mcp = await mcpClient(h.urls.mcp);
    const tool = h.runtime.names.filesystem;
    const cat = (await mcp.client.callTool({ name: tool, arguments: { command: "cat /components.mdx" } })).structuredContent as { stdout: string };
    await open(page, "/components?agent");
    await page.waitForSelector('[data-testid="agent-cat"]');
    expect(await page.$eval('[data-testid="agent-cat"]', (e) => e.textContent)).toBe(cat.stdout);
    expect(cat.stdout).toBe(readFileSync(join(root, "components.mdx"), "utf8").replace("import Secret from '/snippets/secret.mdx';\n", "").replace("<Secret />\n\n", ""));
    expect(await texts(page, '[data-testid="agent-sections"] .section-head strong')).toEqual(["(opening)", "Install", "Steps"]);
    await page.selectOption('[data-testid="agent-tool"]', "shell");
    await page.fill('[data-testid="agent-input"]', "rg -l HANDBOOK /");
    await page.click('[data-testid="agent-run"] button');
    await page.waitForFunction(() => document.querySelector('[data-testid="agent-output"]')?.textContent !== "...");
    const rg = await mcp.text(tool, { command: "rg -l HANDBOOK /" });
    expect(await page.$eval('[data-testid="agent-output"]', (e) => e.textContent)).toBe(rg);
    await page.selectOption('[data-testid="agent-tool"]', "search");
    await page.fill('[data-testid="agent-input"]', "requests per minute");
    await page.click('[data-testid="agent-run"] button');
    await page.waitForFunction(() => document.querySelector('[data-testid="agent-output"]')?.textContent?.startsWith("1. ") === true);
    expect(await page.$eval('[data-testid="agent-output"]', (e) => e.textContent)).toBe(await mcp.text(h.runtime.names.search, { query: "requests per minute" }));
    await mcp.close();
    // The button closes it, and the URL forgets it.
    await page.click('[data-testid="agent-toggle"]');
    expect([await page.isVisible('[data-testid="agent-panel"]'), new URL(page.url()).search]).toEqual([false, ""]);
  });

  it("a restricted page and snippet are absent for an anonymous reader and present after sign-in", async () => {
    await page.context().clearCookies();
    await open(page, "/components");
    expect(await texts(page, ".sidebar .group-title")).toEqual(["Start"]);
    expect(await page.isVisible("text=STAFF-SNIPPET-42")).toBe(false);
    await open(page, "/team/handbook", 404);
    expect(await page.innerText("h1")).toBe("Page not found");
    await signIn(page, "sam", "sam-password-1", "/components");
    expect(await texts(page, ".sidebar .group-title")).toEqual(["Start", "Team"]);
    expect(await page.isVisible("text=STAFF-SNIPPET-42 only staff read this.")).toBe(true);
    expect(await page.innerText('[data-testid="signed-in-as"]')).toBe("sam");
    await open(page, "/team/handbook");
    expect(await page.innerText(".prose")).toBe("HANDBOOK-7 The on-call rota.");
    // The agent panel reads as sam too: the import of the snippet is in sam's `cat`.
    await open(page, "/components?agent");
    await page.waitForSelector('[data-testid="agent-cat"]');
    expect(await page.$eval('[data-testid="agent-cat"]', (e) => e.textContent)).toBe(readFileSync(join(root, "components.mdx"), "utf8"));
    await page.context().clearCookies();
  });

  it("live reload: an edit re-renders the open page", async () => {
    await open(page, "/more/deep");
    await page.waitForSelector('body[data-live="ready"]');
    expect(await page.innerText(".prose")).toBe("Deep text.");
    const file = join(root, "more/deep.mdx");
    writeFileSync(file, readFileSync(file, "utf8").replace("Deep text.", "LIVE-EDIT-9 Deeper text."));
    await page.waitForFunction(() => document.querySelector(".prose")?.textContent === "LIVE-EDIT-9 Deeper text.");
  });

  it("no script from page content runs: <script>, event handlers, javascript: links and expressions", async () => {
    const res = await fetch(`${h.origin}/hostile`, { headers: { accept: "text/html" } });
    const html = await res.text();
    const main = html.slice(html.indexOf('<main class="content"'), html.indexOf("</main>"));
    expect([/<script/i.test(main), /\son[a-z]+=/i.test(main), /javascript:/i.test(main), /<iframe|<style/i.test(main)]).toEqual([false, false, false, false]);
    await open(page, "/hostile");
    await page.click('[data-testid="clicky"]');
    await page.click('[data-testid="js-link"]');
    await page.click("text=md link");
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // Expressions are shown as written, never run; remote media and frames are links, not loaded.
    expect(await texts(page, "code.expression")).toEqual(["{window.__pwned = 5}"]);
    expect(await texts(page, ".prose a.remote-media, .prose .embed a")).toEqual(["https://evil.example/frame", "Image from elsewhere (not loaded in the preview): remote"]);
    expect(await page.innerText(".prose p:last-child")).toBe("Still here.");
    expect(b.refused).toEqual([]);
  });

  it("no request left 127.0.0.1", () => {
    expect(offMachine(b.requests)).toEqual([]);
  });
});

it("page weight: the preview's script and style sheets stay within their budget", async () => {
  const { LIMITS } = await import("../../src/limits.js");
  const size = async (name: string): Promise<number> => (await (await fetch(`${h.origin}/_svc/assets/${name}`)).arrayBuffer()).byteLength;
  const script = await size("preview.js");
  const styles = (await size("pages.css")) + (await size("site.css"));
  expect({ script: script <= LIMITS.preview.maxScriptBytes, styles: styles <= LIMITS.preview.maxStyleBytes }).toEqual({ script: true, styles: true });
});
