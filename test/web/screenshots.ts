import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import type { NewFeedback } from "../../src/store/feedback/model.js";
import { openKeyStore } from "../../src/store/keys/key-store.js";
import { startBridge } from "../bridge/harness.js";
import { launchBrowser } from "../helpers/browser.js";
import { REPO } from "../helpers/paths.js";
import { previewRepo } from "./preview-site.js";
import { petsRepo, startTestApi } from "./site.js";

/**
 * `npm run screenshots`: the README's pictures (docs/images/), taken in headless Chromium: a guide
 * page of the preview's test site with its navigation, the same page with the agent panel open,
 * an API page of the pets test site with an image answer, and the dashboard over a month of
 * feedback.
 */

/** A width x height RGB PNG: a soft diagonal gradient with a circle, so the answer is visibly an image. */
function picture(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width; x++) {
      const o = y * (width * 3 + 1) + 1 + x * 3;
      const inCircle = (x - width / 2) ** 2 + (y - height / 2) ** 2 < (height / 3) ** 2;
      raw[o] = inCircle ? 250 : 40 + Math.round((160 * x) / width);
      raw[o + 1] = inCircle ? 190 : 90 + Math.round((100 * y) / height);
      raw[o + 2] = inCircle ? 60 : 200;
    }
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

const out = join(REPO, "docs", "images");
mkdirSync(out, { recursive: true });
const site = await startBridge({ root: previewRepo(), authMode: "partial", mcp: "enabled", apps: true });
const shots = await launchBrowser();
try {
  const page = await shots.newPage();
  await page.setViewportSize({ width: 1280, height: 820 });
  await page.goto(`${site.origin}/components`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.screenshot({ path: join(out, "preview-page.png"), fullPage: false });
  await page.goto(`${site.origin}/components?agent`);
  await page.waitForSelector('[data-testid="agent-sections"]');
  await page.screenshot({ path: join(out, "preview-agent.png"), fullPage: false });
  process.stdout.write(`wrote ${join(out, "preview-page.png")} and ${join(out, "preview-agent.png")}\n`);
} finally {
  await shots.close();
  await site.close();
}

const api = await startTestApi(picture(320, 200));
const h = await startBridge({ root: petsRepo(api.origin), apps: true });
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto(`${h.origin}/api-reference/pets/pet-photo`);
  await page.waitForSelector('form[data-ready="true"]');
  await page.click('[data-testid="playground-send"]');
  await page.waitForFunction(() => (document.querySelector('[data-testid="playground-response"] img') as HTMLImageElement | null)?.complete === true);
  await page.screenshot({ path: join(out, "api-page.png"), fullPage: false });

  const T0 = Date.UTC(2024, 4, 1, 9);
  const entries: NewFeedback[] = [];
  for (let day = 0; day < 30; day++) {
    const n = 6 + ((day * 7) % 11);
    for (let i = 0; i < n; i++) {
      const base = { projectId: "docs", createdAt: T0 + day * 86_400_000 + i * 600_000 };
      const k = (day + i) % 6;
      if (k < 2) entries.push({ ...base, source: "thumbs_only", helpful: k === 0, path: `/guides/${["setup", "webhooks", "limits"][i % 3]}`, comment: k === 0 ? "helpful" : "not helpful" });
      else if (k < 4) entries.push({ ...base, source: "contextual", helpful: k === 2, path: "/guides/webhooks", comment: "The retry schedule is not described." });
      else if (k === 4) entries.push({ ...base, source: "code_snippet", code: "curl -X POST ...", filename: null, lang: "bash", path: "/api-reference/pets/create-a-pet", comment: "This example misses the API key header." });
      else entries.push({ ...base, source: "agent", path: "/guides/limits", comment: "The page does not say what happens after the hourly limit." });
    }
  }
  await h.feedback!.insertMany(entries);
  const keys = openKeyStore(h.stateDir);
  const { key } = await keys.create("screenshots", Date.now());
  await keys.close();
  await page.setViewportSize({ width: 1100, height: 1000 });
  await page.goto(`${h.origin}/_svc/dashboard`);
  await page.waitForSelector('form[data-ready="true"]');
  await page.fill('[data-testid="dashboard-key"]', key);
  await page.press('[data-testid="dashboard-key"]', "Enter");
  await page.waitForSelector('[data-testid="feedback-row"]');
  await page.screenshot({ path: join(out, "dashboard.png"), fullPage: false });
  process.stdout.write(`wrote ${join(out, "api-page.png")} and ${join(out, "dashboard.png")}\n`);
} finally {
  await browser.close();
  await h.close();
  await api.close();
}
