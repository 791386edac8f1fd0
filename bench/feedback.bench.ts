import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import Database from "better-sqlite3";
import { createFeedbackApp } from "../src/bridge/feedback/app.js";
import type { FeedbackSource, NewFeedback } from "../src/store/feedback/model.js";
import { FEEDBACK_DB_FILE, openFeedbackStore } from "../src/store/feedback/sqlite-store.js";
import { openKeyStore } from "../src/store/keys/key-store.js";
import { type BenchRow, type BenchSuite, percentile, timeMany } from "./bench.js";
import { jsonPost, loadTest } from "./http-load.js";
import { startServe } from "../test/helpers/serve-http.js";

const ENTRIES = 1_000_000;
const PROJECT = "bench";
const T0 = Date.parse("2024-01-01T00:00:00Z");
/** One year of feedback, ~31 s apart on average. */
const SPAN_MS = 365 * 24 * 3600 * 1000;
const DEMO = fileURLToPath(new URL("../fixtures/demo", import.meta.url));

/** Deterministic pseudo-random numbers (mulberry32). */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A realistic mix: mostly ratings, some comments and snippets, a few agent reports. */
function* seedEntries(n: number): Generator<NewFeedback> {
  const random = prng(7);
  for (let i = 0; i < n; i++) {
    const r = random();
    const source: FeedbackSource = r < 0.4 ? "thumbs_only" : r < 0.7 ? "contextual" : r < 0.9 ? "code_snippet" : "agent";
    const base = { projectId: PROJECT, path: `/guides/page-${i % 500}`, createdAt: T0 + Math.floor((i / n) * SPAN_MS) };
    if (source === "thumbs_only") yield { ...base, source, helpful: random() < 0.7, comment: "helpful" };
    else if (source === "contextual") yield { ...base, source, helpful: random() < 0.5, comment: "The second example does not match the API response." };
    else if (source === "code_snippet") yield { ...base, source, comment: "This fails on Node 18", code: "npm install svc-mcp\nnpx svc-mcp serve", filename: null, lang: "bash" };
    else yield { ...base, source, comment: "The page omits the rate limits." };
  }
}

export const feedbackSuite: BenchSuite = {
  name: "feedback",
  run: async (log) => {
    const rows: BenchRow[] = [];
    const dir = mkdtempSync(join(tmpdir(), "svc-mcp-bench-feedback-"));
    try {
      const store = openFeedbackStore(dir);
      let t = performance.now();
      await store.insertMany(seedEntries(ENTRIES));
      const seedSeconds = (performance.now() - t) / 1000;
      // Triage state: 60% pending, 10% in progress, 20% resolved, 10% dismissed.
      const raw = new Database(join(dir, FEEDBACK_DB_FILE));
      raw.exec(
        "UPDATE feedback SET status = CASE seq % 10 WHEN 6 THEN 'in_progress' WHEN 7 THEN 'resolved' WHEN 8 THEN 'resolved' ELSE 'dismissed' END WHERE seq % 10 >= 6",
      );
      // A running server checkpoints as it goes; start the reads from that steady state, not
      // from a WAL holding the whole bulk load.
      raw.pragma("wal_checkpoint(TRUNCATE)");
      log(`seeded ${ENTRIES} entries in ${seedSeconds.toFixed(1)} s`);
      rows.push({ area: "feedback", metric: "seed 1M entries (insertMany, one transaction)", value: Math.round(ENTRIES / seedSeconds), unit: "entries/s" });

      const keys = openKeyStore(dir);
      const { key } = await keys.create("bench", Date.now());
      const app = createFeedbackApp({ store, keys, projects: new Set([PROJECT]) });
      const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
      await once(server, "listening");
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/analytics/${PROJECT}/feedback`;
      const headers = { authorization: `Bearer ${key}` };
      const get = async (query: string) => {
        const res = await fetch(`${base}?${query}`, { headers });
        if (res.status !== 200) throw new Error(`GET ${query}: ${res.status} ${await res.text()}`);
        return (await res.json()) as { feedback: unknown[]; nextCursor: string | null };
      };

      // First pages.
      await timeMany(50, () => get("")); // warm-up
      const first = await timeMany(300, () => get(""));
      const filters = "source=contextual&status=pending,in_progress&dateFrom=2024-03-01&dateTo=2024-11-01T00:00:00%2B02:00";
      const firstFiltered = await timeMany(300, () => get(filters));

      // Deep page: walk 100,000 entries into the filtered ones (about 40% of the 240,000 that
      // match) with limit=100, then re-read the page there.
      const deepFilter = "source=contextual&status=pending,resolved";
      let cursor: string | null = null;
      let walked = 0;
      t = performance.now();
      let pages = 0;
      while (walked < 100_000) {
        const page: { feedback: unknown[]; nextCursor: string | null } = await get(`${deepFilter}&limit=100${cursor === null ? "" : `&cursor=${cursor}`}`);
        walked += page.feedback.length;
        pages++;
        cursor = page.nextCursor;
        if (cursor === null) break;
      }
      const walkMs = (performance.now() - t) / pages;
      log(`walked ${walked} filtered entries in ${pages} pages (${walkMs.toFixed(2)} ms/page over HTTP)`);
      if (cursor === null) throw new Error("the walk reached the last page; the deep page must be inside the data");
      const deepCursor = cursor;
      const deep = await timeMany(300, () => get(`${deepFilter}&limit=50&cursor=${deepCursor}`));
      // The same deep page at the store (no HTTP), against the baseline of reading it by OFFSET
      // in plain SQL on the same database.
      const deepStore = await timeMany(300, () =>
        store.list({ projectId: PROJECT, source: "contextual", statuses: ["pending", "resolved"], limit: 50, cursor: deepCursor }),
      );
      const offsetStmt = raw.prepare(
        "SELECT * FROM feedback WHERE project_id = ? AND source = 'contextual' AND status IN ('pending', 'resolved') ORDER BY created_at DESC, seq DESC LIMIT 51 OFFSET ?",
      );
      const offsetDeep = await timeMany(30, () => offsetStmt.all(PROJECT, walked));

      const p50 = (v: number[]) => percentile(v, 50);
      // The dashboard's chart figures: every entry of the year, and one month of them.
      const summary = async (query: string) => {
        // Once more on a reset: the store timings above block the server's event loop, and its
        // keep-alive timer may close the pooled socket just as the client reuses it.
        const url = `${base}-summary?${query}`;
        const res = await fetch(url, { headers }).catch(() => fetch(url, { headers }));
        if (res.status !== 200) throw new Error(`GET summary ${query}: ${res.status} ${await res.text()}`);
        return res.json();
      };
      const summaryYear = await timeMany(5, () => summary(""));
      const summaryMonth = await timeMany(20, () => summary("dateFrom=2024-03-01&dateTo=2024-04-01"));
      rows.push({ area: "feedback", metric: "GET summary p50 (dashboard chart, all 1M entries)", value: p50(summaryYear), unit: "ms" });
      rows.push({ area: "feedback", metric: "GET summary p50 (dashboard chart, one month)", value: p50(summaryMonth), unit: "ms" });
      rows.push({ area: "feedback", metric: "GET first page p50 (1M entries, HTTP)", value: p50(first), unit: "ms", target: "<= 5 ms", ok: p50(first) <= 5 });
      rows.push({ area: "feedback", metric: "GET first page p95 (1M entries, HTTP)", value: percentile(first, 95), unit: "ms" });
      rows.push({ area: "feedback", metric: "GET first page, source+status+dates p50", value: p50(firstFiltered), unit: "ms", target: "<= 5 ms", ok: p50(firstFiltered) <= 5 });
      rows.push({ area: "feedback", metric: `GET deep page (${walked} in), source+status p50`, value: p50(deep), unit: "ms", target: "<= 5 ms", ok: p50(deep) <= 5 });
      rows.push({
        area: "feedback",
        metric: `list deep page at the store (${walked} in) p50`,
        value: p50(deepStore),
        unit: "ms",
        baseline: { name: "OFFSET, plain SQL", value: p50(offsetDeep) },
      });

      // Ingestion at the store: concurrent inserts share commits (group commit).
      const N = 20_000;
      t = performance.now();
      await Promise.all(Array.from({ length: N }, (_, i) => store.insert({ projectId: PROJECT, source: "agent", path: "/a", comment: `load ${i}`, createdAt: Date.now() })));
      const grouped = N / ((performance.now() - t) / 1000);
      // Baseline: one transaction (one fsync) per entry.
      const M = 2_000;
      t = performance.now();
      for (let i = 0; i < M; i++) await store.insertMany([{ projectId: PROJECT, source: "agent", path: "/a", comment: `one ${i}`, createdAt: Date.now() }]);
      const single = M / ((performance.now() - t) / 1000);
      rows.push({
        area: "feedback",
        metric: "ingestion at the store (1M-row db, durable)",
        value: Math.round(grouped),
        unit: "entries/s",
        baseline: { name: "commit per entry", value: Math.round(single) },
        target: ">= 5,000/s",
        ok: grouped >= 5000,
      });

      await new Promise<void>((resolve) => server.close(() => resolve()));
      raw.close();
      await store.close();
      await keys.close();

      // Ingestion over HTTP: the server in its own process (as deployed); 8 connections with 16
      // pipelined requests each (128 in flight, like a burst of widgets).
      const { child, origin } = await startServe(["--dir", DEMO, "--state", dir, "--project-id", PROJECT]);
      try {
        const port = new URL(origin).port;
        const load = (total: number) =>
          loadTest({ port: Number(port), request: jsonPost(`/v1/feedback/${PROJECT}/rating`, { path: "/guides/setup", helpful: false }), total, connections: 8, depth: 16, expectStatus: 201 });
        await load(2_000); // warm-up
        const http = await load(30_000);
        // Baseline: the same server and load on a path that fails before the body is read (404):
        // the HTTP stack alone, what ingestion could at most reach here.
        const bare = await loadTest({
          port: Number(port),
          request: jsonPost("/v1/feedback/unknown-project/rating", { path: "/guides/setup", helpful: false }),
          total: 30_000,
          connections: 8,
          depth: 16,
          expectStatus: 404,
        });
        rows.push({
          area: "feedback",
          metric: "ingestion over HTTP (128 in flight, durable)",
          value: Math.round(http),
          unit: "entries/s",
          baseline: { name: "HTTP only, 404 before the body", value: Math.round(bare) },
          target: ">= 5,000/s",
          ok: http >= 5000,
        });
      } finally {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
