import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page, type Request } from "playwright-core";
import { describe } from "vitest";
import { CHROMIUM } from "./browser-path.js";

export { CHROMIUM };

/**
 * `describe` for tests in a real browser. Outside CI they are skipped when chromium is absent
 * (global-setup says so once); under CI=true they always run, and fail without it.
 */
export const describeBrowser = describe.skipIf(!existsSync(CHROMIUM) && process.env.CI !== "true");

/** Flags for a quiet, local-only headless Chromium: no GPU, no QUIC, no background calls home. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface TestBrowser {
  readonly browser: BrowserContext;
  /** Every URL any page of this browser requested, in order. */
  readonly requests: string[];
  /** Console messages about something the Content-Security-Policy refused. */
  readonly refused: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Headless Chromium through playwright-core, with a fresh profile in a temp dir; every request
 * its pages make is recorded (tests check that none left 127.0.0.1).
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "svc-chromium-"));
  // No Playwright time limit (30 s by default, for the launch, each navigation and each action):
  // on a busy machine a first render took longer and a test failed for the machine's speed alone.
  // vitest's own timeout (vitest.config.ts) is the hang detector.
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 0 });
  context.setDefaultTimeout(0);
  context.setDefaultNavigationTimeout(0);
  const requests: string[] = [];
  context.on("request", (r: Request) => void requests.push(r.url()));
  const refused: string[] = [];
  context.on("console", (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) refused.push(m.text());
  });
  return {
    browser: context,
    requests,
    refused,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Requests that went anywhere but loopback (`data:` and `blob:` URLs never leave the page). */
export function offMachine(requests: readonly string[]): string[] {
  return requests.filter((u) => {
    if (u.startsWith("data:") || u.startsWith("blob:") || u === "about:blank") return false;
    const host = new URL(u).hostname;
    return host !== "127.0.0.1" && host !== "localhost" && host !== "[::1]";
  });
}

export type { Browser, Page };
