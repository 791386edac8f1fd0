import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { openStateStore } from "../../src/store/state/sqlite-state-store.js";
import { splitSections } from "../../src/engine/search/sections.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { CORPORA } from "../helpers/paths.js";
import { describeShared } from "../helpers/shared.js";

/**
 * Every page of the six shared corpora renders in the preview, through the same route as in a
 * browser: `GET <page path>` with `Accept: text/html` answers 200 with the page in its frame.
 * The counts are every page each site has (MDX files and generated API pages); the one page that
 * is not valid MDX renders as Markdown with a notice. Every heading search links to carries that
 * anchor on the page.
 */
const CASES = [
  { corpus: "alltick", pages: 275, generated: 0, notMdx: [] },
  { corpus: "cline", pages: 113, generated: 0, notMdx: [] },
  { corpus: "cowagent", pages: 269, generated: 0, notMdx: [] },
  { corpus: "open-wearables", pages: 66, generated: 0, notMdx: [] },
  { corpus: "spree", pages: 426, generated: 706, notMdx: ["/plans/decisions"] },
  { corpus: "stagehand", pages: 145, generated: 0, notMdx: [] },
] as const;

const stateDir = mkdtempSync(join(tmpdir(), "svc-preview-corpora-"));
const state = openStateStore(stateDir);
afterAll(async () => {
  await state.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describeShared.each(CASES)("preview of corpus $corpus", ({ corpus, pages, generated, notMdx }) => {
  it(`renders every page (${pages} from files, ${generated} generated)`, { timeout: 600_000 }, async () => {
    const runtime = await DocsRuntime.load({ root: join(CORPORA, corpus), indexLater: true, log: () => {} });
    try {
      const app = createWebApp({ runtime, state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined });
      const all = [...runtime.site.pages.values()];
      const failed: string[] = [];
      const problems: string[] = [];
      const missingAnchors: string[] = [];
      let rendered = 0;
      for (const page of all) {
        const res = await app.request(page.path, { headers: { accept: "text/html" } });
        const html = await res.text();
        if (res.status !== 200 || !html.includes('<main class="content"')) {
          failed.push(`${page.path}: ${res.status}`);
          continue;
        }
        rendered++;
        if (html.includes('data-testid="mdx-problem"')) problems.push(page.path);
        if (page.generated || page.authored !== undefined || html.includes('data-testid="mdx-problem"')) continue;
        // Search's links into the page land on its headings, custom `{#id}` ones too.
        for (const s of splitSections(page.body)) {
          if (s.anchor !== "" && !html.includes(` id="${s.anchor}"`)) missingAnchors.push(`${page.path}#${s.anchor}`);
        }
      }
      expect({ failed, problems, missingAnchors: missingAnchors.slice(0, 10) }).toEqual({ failed: [], problems: notMdx, missingAnchors: [] });
      expect({ rendered, files: all.filter((p) => !p.generated).length, generated: all.filter((p) => p.generated).length }).toEqual({ rendered: pages + generated, files: pages, generated });
      // The 404 page's navigation links to pages too: its current tab or version linked to
      // `href="\0"` (adversary round 32).
      const missing = await app.request("/no/such/page", { headers: { accept: "text/html" } });
      const html = await missing.text();
      const odd = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] as string).filter((href) => !/^(\/|#|https?:|mailto:)/.test(href) || /[\u0000-\u001f]/.test(href));
      expect({ status: missing.status, odd, controls: /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(html) }).toEqual({ status: 404, odd: [], controls: false });
    } finally {
      await runtime.close();
    }
  });
});
