import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBridge } from "../test/bridge/harness.js";
import { CHROMIUM, launchBrowser } from "../test/helpers/browser.js";
import { previewRepo } from "../test/web/preview-site.js";
import { type BenchRow, type BenchSuite, percentile } from "./bench.js";

const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));
const LOADS = 10;

/** Pages measured: the test site's page of every component, and real pages of the shared corpora. */
const PAGES: readonly { readonly site: string; readonly path: string }[] = [
  { site: "preview test site", path: "/components" },
  { site: "spree", path: "/developer/admin/extending-ui" },
  // The first API page generated from spree's specs (see below).
  { site: "spree", path: "api" },
  { site: "stagehand", path: "/v3/references/page" },
  { site: "cowagent", path: "/zh/intro/architecture" },
];

/**
 * The preview in headless Chromium: for each page, time from navigation to first paint (the
 * browser's `first-contentful-paint`, p50 of 10 loads after a warm-up that renders and caches the
 * page), and what it weighs: the HTML, and the JavaScript it loads (the same `preview.js` on every
 * page, plus `playground.js` on API pages). Wall-clock, on whatever else the machine is doing.
 */
export const previewSuite: BenchSuite = {
  name: "preview",
  run: async (log) => {
    if (!existsSync(CHROMIUM)) {
      log(`skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
      return [];
    }
    const rows: BenchRow[] = [];
    const servers = new Map<string, Awaited<ReturnType<typeof startBridge>>>();
    servers.set("preview test site", await startBridge({ root: previewRepo(), apps: true }));
    for (const corpus of ["spree", "stagehand", "cowagent"]) {
      const root = join(SHARED, "corpora", corpus);
      if (existsSync(root)) servers.set(corpus, await startBridge({ root, apps: true }));
      else log(`${corpus} skipped: ${root} not found`);
    }
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      for (const entry of PAGES) {
        const { site } = entry;
        const server = servers.get(site);
        if (server === undefined) continue;
        const path = entry.path !== "api" ? entry.path : [...(server.runtime.site.api?.pages.values() ?? [])].find((p) => p.generated && p.kind === "operation")?.pagePath;
        if (path === undefined) continue;
        const paints: number[] = [];
        let weight = { html: 0, js: 0 };
        for (let i = 0; i <= LOADS; i++) {
          await page.goto(`${server.origin}${path}`);
          await page.waitForSelector('body[data-ready="true"]');
          const m = await page.evaluate(() => {
            const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
            const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
            const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.initiatorType === "script");
            return { paint, html: nav?.decodedBodySize ?? 0, js: scripts.reduce((n, r) => n + r.decodedBodySize, 0) };
          });
          // A load whose paint the browser did not report (rare) is left out.
          if (i > 0 && Number.isFinite(m.paint)) paints.push(m.paint);
          weight = { html: m.html, js: m.js };
        }
        log(`${site} ${path}: first paint ${paints.map((p) => p.toFixed(0)).join(" ")} ms; HTML ${weight.html} B, JS ${weight.js} B`);
        rows.push({ area: "preview", metric: `first paint p50 (${site} ${path})`, value: percentile(paints, 50), unit: "ms", target: "<= 1000 ms", ok: percentile(paints, 50) <= 1000 });
        rows.push({ area: "preview", metric: `JavaScript loaded (${site} ${path})`, value: weight.js, unit: "bytes" });
        rows.push({ area: "preview", metric: `HTML (${site} ${path})`, value: weight.html, unit: "bytes" });
      }
      const outside = browser.requests.filter((u) => u.startsWith("http") && !new URL(u).hostname.startsWith("127.0.0.1"));
      if (outside.length > 0) throw new Error(`requests left 127.0.0.1: ${outside.join(", ")}`);
    } finally {
      await browser.close();
      for (const s of servers.values()) await s.close();
    }
    return rows;
  },
};
