import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewFeedback } from "../../src/store/feedback/model.js";
import { openKeyStore } from "../../src/store/keys/key-store.js";
import { type Harness, startBridge } from "../bridge/harness.js";
import { describeBrowser, launchBrowser, offMachine, type Page, type TestBrowser } from "../helpers/browser.js";

/**
 * The feedback dashboard in headless Chromium over the real bridge and a real SQLite feedback
 * database: admin key sign-in (Enter submits), the chart, the negative pages, filters, cursor
 * paging and status changes, and that nothing leaves 127.0.0.1.
 */

let h: Harness;
let b: TestBrowser;
let key = "";
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 4, 1, 9, 0, 0);

/** 45 entries over three days (20, 15, 10): every source, two pages with negative votes. */
function seed(): NewFeedback[] {
  const out: NewFeedback[] = [];
  const perDay = [20, 15, 10];
  perDay.forEach((n, day) => {
    for (let i = 0; i < n; i++) {
      const createdAt = T0 + day * DAY + i * 60_000;
      const base = { projectId: "docs", createdAt };
      const k = (day * 100 + i) % 5;
      if (k === 0) out.push({ ...base, source: "thumbs_only", helpful: false, path: "/guides/a", comment: "not helpful" });
      else if (k === 1) out.push({ ...base, source: "contextual", helpful: i % 2 === 0 ? false : true, path: "/guides/b", comment: `unclear ${day}-${i}` });
      else if (k === 2) out.push({ ...base, source: "agent", path: "/guides/c", comment: `agent note ${day}-${i}` });
      else if (k === 3) out.push({ ...base, source: "code_snippet", code: "npm i", filename: null, lang: "sh", path: "/guides/d", comment: `snippet ${day}-${i}` });
      else out.push({ ...base, source: "thumbs_only", helpful: true, path: "/guides/e", comment: "helpful" });
    }
  });
  return out;
}

beforeAll(async () => {
  h = await startBridge({ apps: true });
  await h.feedback!.insertMany(seed());
  const keys = openKeyStore(h.stateDir);
  key = (await keys.create("dashboard test", Date.now())).key;
  await keys.close();
});
afterAll(async () => {
  await b?.close();
  await h?.close();
});

async function signIn(page: Page, value: string): Promise<void> {
  await page.goto(`${h.origin}/_svc/dashboard`);
  await page.waitForSelector('form[data-ready="true"]');
  await page.fill('[data-testid="dashboard-key"]', value);
  await page.press('[data-testid="dashboard-key"]', "Enter");
}

const rowIds = (page: Page) => page.$$eval('[data-testid="feedback-row"]', (rows) => rows.map((r) => (r as HTMLElement).dataset.id ?? ""));
const rowCells = (page: Page, column: number) => page.$$eval('[data-testid="feedback-row"]', (rows, c) => rows.map((r) => r.children[c]?.textContent ?? ""), column);

describeBrowser("the feedback dashboard in a real browser", () => {
  let page: Page;
  beforeAll(async () => {
    b = await launchBrowser();
    page = await b.newPage();
  });

  it.each([
    // The real key with its secret changed: well-formed, but not one of this server's.
    ["a key of the right form", () => `${key.slice(0, -4)}${key.endsWith("AAAA") ? "BBBB" : "AAAA"}`, "this API key is not valid for this server"],
    ["something that is no key", () => "not-a-key", "not an admin API key: keys start with svc_ and come from `svc-mcp keys create`"],
  ])("a wrong key (%s) shows the error and no data", async (_what, value, message) => {
    await signIn(page, value());
    const error = await page.waitForSelector('[data-testid="dashboard-error"]:not([hidden])');
    expect(await error.innerText()).toBe(message);
    expect(await page.isHidden("#dashboard-data")).toBe(true);
    expect(await page.$$('[data-testid="feedback-row"]')).toEqual([]);
    expect(await page.$$('[data-testid="feedback-chart"] canvas')).toEqual([]);
  });

  it("the right key (Enter) shows the chart by source and status, the pages with most negative feedback, and the newest entries; the key is kept nowhere but in memory", async () => {
    await signIn(page, key);
    await page.waitForSelector('[data-testid="feedback-row"]');
    expect(await page.isHidden('[data-testid="dashboard-error"]')).toBe(true);
    const chart = page.locator('[data-testid="feedback-chart"]');
    expect(await chart.locator("canvas").count()).toBe(1);
    expect([await chart.getAttribute("data-series"), await chart.getAttribute("data-points")]).toEqual(["code_snippet,contextual,agent,thumbs_only", "3"]);
    // The time axis spans the entries' days (May 1 to 3, 2024), half a day either side.
    expect(await chart.getAttribute("data-x-range")).toBe("2024-04-30T12:00:00.000Z/2024-05-03T12:00:00.000Z");
    // Signed in: the key form gives way to the signed-in state and its sign-out.
    expect([await page.isHidden("#key-form"), await page.textContent('[data-testid="dashboard-signed-in"]')]).toEqual([true, "Signed in with an admin API key (kept in this tab only). Sign out"]);
    await page.check('input[name="by"][value="status"]');
    expect(await chart.getAttribute("data-series")).toBe("pending,in_progress,resolved,dismissed");
    expect(await page.$$eval('[data-testid="negative-pages"] li', (els) => els.map((e) => e.textContent))).toEqual(["/guides/a (9)", "/guides/b (4)"]);
    expect((await rowIds(page)).length).toBe(20);
    expect((await rowCells(page, 0))[0]).toBe("2024-05-03 09:09");
    expect(await page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).toEqual(["", 0, 0]);
    expect(await page.inputValue('[data-testid="dashboard-key"]')).toBe("");
  });

  it("pages by cursor: each next page continues where the last ended, newest first, without repeats", async () => {
    const all = (await h.feedback!.list({ projectId: "docs", limit: 100 })).feedback.map((e) => e.id);
    expect(await rowIds(page)).toEqual(all.slice(0, 20));
    await page.click('[data-testid="feedback-more"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feedback-row"]').length === 40);
    await page.click('[data-testid="feedback-more"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feedback-row"]').length === 45);
    expect(await rowIds(page)).toEqual(all);
    expect(await page.isHidden('[data-testid="feedback-more"]')).toBe(true);
  });

  it("filters by source and by dates (the To date included)", async () => {
    await page.selectOption('[data-testid="filter-source"]', "contextual");
    await page.click('#filters button[type="submit"]');
    // The rows are swapped in at once, so nine rows all "contextual" is the filtered answer, not a table half loaded.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid="feedback-row"]')];
      return rows.length === 9 && rows.every((r) => r.children[1]?.textContent === "contextual");
    });
    expect(new Set(await rowCells(page, 1))).toEqual(new Set(["contextual"]));
    expect((await rowIds(page)).length).toBe(9);
    await page.selectOption('[data-testid="filter-source"]', "");
    await page.fill('[data-testid="filter-from"]', "2024-05-02");
    await page.fill('[data-testid="filter-to"]', "2024-05-02");
    await page.click('#filters button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feedback-row"]').length === 15);
    expect(new Set((await rowCells(page, 0)).map((d) => d.slice(0, 10)))).toEqual(new Set(["2024-05-02"]));
    expect(await page.getAttribute('[data-testid="feedback-chart"]', "data-points")).toBe("1");
    // One day: the axis is that day, not years around it.
    expect(await page.getAttribute('[data-testid="feedback-chart"]', "data-x-range")).toBe("2024-05-01T12:00:00.000Z/2024-05-02T12:00:00.000Z");
  });

  it("changes an entry's status, and shows a refused change as an error, keeping the saved status", async () => {
    const id = (await rowIds(page))[0] as string;
    const select = page.locator(`[data-testid="feedback-row"][data-id="${id}"] [data-testid="feedback-status"]`);
    await select.selectOption("resolved");
    await page.waitForSelector(`[data-testid="feedback-row"][data-id="${id}"] [data-saved="resolved"]`);
    expect((await h.feedback!.get("docs", id))?.status).toBe("resolved");
    await select.selectOption("dismissed");
    const error = await page.waitForSelector('[data-testid="dashboard-error"]:not([hidden])');
    expect(await error.innerText()).toBe("cannot change status from resolved to dismissed; from resolved it can change to pending or in_progress");
    expect(await select.inputValue()).toBe("resolved");
    expect((await h.feedback!.get("docs", id))?.status).toBe("resolved");
  });

  it("signs out: the key is forgotten, the data gone, the key form back", async () => {
    await page.click('[data-testid="dashboard-sign-out"]');
    expect([await page.isVisible("#key-form"), await page.isHidden('[data-testid="dashboard-signed-in"]'), await page.isHidden("#dashboard-data")]).toEqual([true, true, true]);
    expect([await page.$$('[data-testid="feedback-row"]'), await page.$$('[data-testid="feedback-chart"] canvas')]).toEqual([[], []]);
    // Signed out means the next request carries no key: the dashboard asks for one again.
    await page.fill('[data-testid="dashboard-key"]', key);
    await page.press('[data-testid="dashboard-key"]', "Enter");
    await page.waitForSelector('[data-testid="feedback-row"]');
    expect(await page.isHidden("#key-form")).toBe(true);
  });

  it("no request left 127.0.0.1", () => {
    expect(b.requests.length).toBeGreaterThan(10);
    expect(offMachine(b.requests)).toEqual([]);
    // And the pages did nothing their Content-Security-Policy had to refuse.
    expect(b.refused).toEqual([]);
  });
});

describe("the feedback summary endpoint", () => {
  it("counts per day by source and status, and the most negative pages, for the list's filters", async () => {
    const res = await fetch(`${h.origin}/v1/analytics/docs/feedback-summary?dateFrom=2024-05-03&source=thumbs_only`, { headers: { authorization: `Bearer ${key}` } });
    expect(await res.json()).toEqual({
      total: 4,
      days: [
        {
          date: "2024-05-03",
          total: 4,
          bySource: { code_snippet: 0, contextual: 0, agent: 0, thumbs_only: 4 },
          byStatus: { pending: 4, in_progress: 0, resolved: 0, dismissed: 0 },
        },
      ],
      negativePages: [{ path: "/guides/a", count: 2 }],
    });
  });

  it("needs an admin key like the list", async () => {
    const res = await fetch(`${h.origin}/v1/analytics/docs/feedback-summary`);
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([401, "missing_api_key"]);
  });
});
