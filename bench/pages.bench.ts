import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBridge } from "../test/bridge/harness.js";
import { CHROMIUM, launchBrowser } from "../test/helpers/browser.js";
import { petsRepo, startTestApi } from "../test/web/site.js";
import { type BenchRow, type BenchSuite, percentile } from "./bench.js";

const SHARED = process.env.SVC_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));
const SPREE = join(SHARED, "corpora/spree");
const LOADS = 20;

/**
 * The pages for people in headless Chromium: time from navigation to the playground being usable
 * (its script has wired the form: `data-ready-at`, ms since navigation start), on an API page of
 * spree (a real corpus) and of the pets test site; a send through the relay until the image answer
 * is shown; and the dashboard's time to its sign-in form. Everything on 127.0.0.1.
 */
export const pagesSuite: BenchSuite = {
  name: "pages",
  run: async (log) => {
    if (!existsSync(CHROMIUM)) {
      log(`skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
      return [];
    }
    const rows: BenchRow[] = [];
    const api = await startTestApi();
    const pets = await startBridge({ root: petsRepo(api.origin), apps: true });
    const spree = existsSync(SPREE) ? await startBridge({ root: SPREE, apps: true }) : undefined;
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const readyTimes = async (url: string, selector: string): Promise<number[]> => {
        const out: number[] = [];
        // One warm-up load: the server bundles the scripts on first use when run from sources.
        for (let i = 0; i <= LOADS; i++) {
          await page.goto(url);
          const at = await (await page.waitForSelector(selector)).getAttribute("data-ready-at");
          if (i > 0) out.push(Number(at));
        }
        return out;
      };
      if (spree !== undefined) {
        const api = spree.runtime.site.api;
        const first = [...(api?.pages.values() ?? [])].find((p) => p.generated && p.kind === "operation" && p.playground.display !== "none");
        if (first === undefined) throw new Error("spree has no API page with a playground");
        const times = await readyTimes(`${spree.origin}${first.pagePath}`, 'form[data-ready="true"]');
        log(`spree ${first.pagePath}: ${times.join(" ")} ms`);
        rows.push({ area: "pages", metric: `API page to playground usable p50 (spree ${first.method} ${first.path})`, value: percentile(times, 50), unit: "ms", target: "<= 1000 ms", ok: percentile(times, 50) <= 1000 });
      } else {
        log(`spree row skipped: ${SPREE} not found`);
      }
      const petsTimes = await readyTimes(`${pets.origin}/api-reference/pets/get-a-pet`, 'form[data-ready="true"]');
      rows.push({ area: "pages", metric: "API page to playground usable p50 (pets test site)", value: percentile(petsTimes, 50), unit: "ms", target: "<= 1000 ms", ok: percentile(petsTimes, 50) <= 1000 });

      // A send: click to the image answer on the page (relay -> local API -> relay -> <img>).
      await page.goto(`${pets.origin}/api-reference/pets/pet-photo`);
      await page.waitForSelector('form[data-ready="true"]');
      const sends: number[] = [];
      for (let i = 0; i <= LOADS; i++) {
        await page.evaluate(() => document.querySelector('[data-testid="playground-response"]')?.replaceChildren());
        const t = performance.now();
        await page.click('[data-testid="playground-send"]');
        await page.waitForSelector('[data-testid="playground-response"] img');
        if (i > 0) sends.push(performance.now() - t);
      }
      rows.push({ area: "pages", metric: "playground send to image shown p50 (relay, local API)", value: percentile(sends, 50), unit: "ms" });

      const dash = await readyTimes(`${pets.origin}/_svc/dashboard`, 'form#key-form[data-ready="true"]');
      rows.push({ area: "pages", metric: "dashboard to sign-in form usable p50 (uPlot bundled)", value: percentile(dash, 50), unit: "ms", target: "<= 1000 ms", ok: percentile(dash, 50) <= 1000 });
      const outside = browser.requests.filter((u) => u.startsWith("http") && !new URL(u).hostname.startsWith("127.0.0.1"));
      if (outside.length > 0) throw new Error(`requests left 127.0.0.1: ${outside.join(", ")}`);
    } finally {
      await browser.close();
      await pets.close();
      await spree?.close();
      await api.close();
    }
    return rows;
  },
};
