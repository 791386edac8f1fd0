import { request } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RenderEvent } from "../../src/engine/render/render-protocol.js";
import { LIMITS } from "../../src/limits.js";
import { RenderRecorder } from "../helpers/render-events.js";
import { type Harness, startBridge } from "./harness.js";

/**
 * Adversary round 51 F3: the page render pool has two workers and keeps one for callers with
 * nothing rendering, but a caller keeping one page in flight has nothing rendering each time its
 * page waits, and the queue forgot it between pages: twenty addresses each keeping one slow
 * first render in flight took both workers, in order of arrival, and another reader's page
 * waited behind all of them (1.8-6.6 s at p50 on a loaded machine). Now a caller who started
 * more than half as many pages lately (counted in the pool's last starts) as one rendering now
 * leaves the reserved worker free, and the caller who started fewest goes first.
 *
 * Real HTTP from many loopback addresses, real pages; every render is held (a gate cell per
 * page) and let go one at a time, so the order in which pages start is the pool's alone.
 */

/** The pages read: twenty readers' three each, a newcomer's one, and a reader's two. */
const FLOOD = Array.from({ length: 20 }, (_, i) => `127.0.0.${101 + i}`);
const NEWCOMER = "127.0.0.60";
const READER = "127.0.0.50";
const PAGES = [...["a", "b", "c"].flatMap((round) => FLOOD.map((_, i) => `${round}${i}`)), "newcomer", "reader-first", "reader-next"];

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** A page as a browser from `from` asks for it (its own connection: any 127/8 address reaches the loopback server). */
function page(port: number, path: string, from: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, localAddress: from, agent: false, headers: { accept: "text/html" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the page render pool under twenty addresses each keeping a page in flight", () => {
  const root = mkdtempSync(join(tmpdir(), "svc-render-share-"));
  // One cell per page render (job id): a render waits until its cell is set.
  const gate = new Int32Array(new SharedArrayBuffer(4 * 256));
  const rec = new RenderRecorder();
  /** Renders let go as soon as they start (the readers' earlier pages). */
  let letGo = true;
  const release = (job: number): void => {
    Atomics.store(gate, job, 1);
    Atomics.notify(gate, job);
  };
  const onEvent = (event: RenderEvent): void => {
    rec.onEvent(event);
    if (letGo && event.t === "start") release(event.job);
  };
  let h: Harness;
  let port: number;
  beforeAll(async () => {
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Render share", navigation: { groups: [{ group: "Pages", pages: PAGES }] } }));
    for (const name of PAGES) writeFileSync(join(root, `${name}.mdx`), `---\ntitle: Page ${name}\n---\n\nThe text of *${name}*.\n`);
    // No render is stopped by the clock: the test holds them as long as it likes.
    h = await startBridge({ root, apps: true, renderWorker: { onEvent, gate, limitTimer: () => ({ cancel: () => {} }) } });
    port = Number(new URL(h.origin).port);
  });
  afterAll(async () => {
    gate.fill(1);
    await h?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Whose each job is, from the pool's `queued` events, by address. */
  const callerOf = (job: number): string => {
    const queued = rec.events.find((e) => e.t === "queued" && e.job === job);
    return queued?.t === "queued" ? queued.caller.replace(/^address:/, "") : "?";
  };
  const label = (address: string): string => (address === NEWCOMER ? "newcomer" : address === READER ? "reader" : FLOOD.includes(address) ? "flood" : address);
  /** Jobs queued so far. */
  const queuedCount = (): number => rec.events.filter((e) => e.t === "queued").length;
  /** Wait until `n` pages in all were queued (the pool starts what it may as it queues each, in the same turn). */
  const queuedUpTo = (n: number): Promise<RenderEvent> => rec.next(() => queuedCount() >= n);

  it("starts a newcomer's page, and the next page of a reader who rendered little lately, at once, not behind the twenty addresses' pages", async () => {
    expect([LIMITS.preview.renderWorkers, LIMITS.preview.renderReserve, LIMITS.preview.renderRecentStarts]).toEqual([2, 1, 256]);
    // What came before: each of the twenty rendered two pages, the reader one (all let go as they start).
    const before = [
      ...FLOOD.map((from, i) => page(port, `/a${i}`, from)),
      page(port, "/reader-first", READER),
      ...FLOOD.map((from, i) => page(port, `/b${i}`, from)),
    ];
    expect((await Promise.all(before)).map((a) => a.status)).toEqual(Array.from({ length: 41 }, () => 200));
    expect(queuedCount()).toBe(41);

    // From here on renders are held. Each of the twenty asks for one more page at once; then a
    // newcomer asks for its first page, then the reader for its next.
    letGo = false;
    const mark = rec.events.length;
    /** Jobs started since and not ended, the one started first first. */
    const running = (): number[] => {
      const started = rec.events.slice(mark).flatMap((e) => (e.t === "start" ? [e.job] : []));
      const ended = new Set(rec.events.slice(mark).flatMap((e) => (e.t === "end" ? [e.job] : [])));
      return started.filter((job) => !ended.has(job));
    };
    const flood = FLOOD.map((from, i) => page(port, `/c${i}`, from));
    await queuedUpTo(61);
    const newcomer = page(port, "/newcomer", NEWCOMER);
    await queuedUpTo(62);
    // The newcomer's page starts with none of the twenty's ended (at once, or once the kept
    // worker has loaded: on a busy machine the second worker may still be loading), then ends (a
    // real page renders in milliseconds). Were it queued behind theirs, it would never start
    // here, as none of theirs is let go before it.
    const newcomerJob = rec.events.findLast((e) => e.t === "queued")?.job as number;
    await rec.next((e) => e.t === "start" && e.job === newcomerJob);
    release(newcomerJob);
    await rec.next((e) => e.t === "end" && e.job === newcomerJob);
    const reader = page(port, "/reader-next", READER);
    await queuedUpTo(63);

    // Let the pages go one at a time, the one started first first, each once the pool has
    // started what it starts when the one before ended (it does so in the same turn as the end).
    for (let job = running()[0]; job !== undefined; job = running()[0]) {
      release(job);
      await rec.next((e) => e.t === "end" && e.job === job);
    }

    const answers = await Promise.all([...flood, newcomer, reader]);
    expect(answers.map((a) => [a.status, a.body.includes("The text of <em>")])).toEqual(answers.map(() => [200, true]));
    // The order pages started and ended in: the twenty's, the newcomer's and the reader's.
    const order = rec.events.slice(mark).flatMap((e) => (e.t === "start" ? [`start ${label(callerOf(e.job))}`] : e.t === "end" ? [`end ${label(callerOf(e.job))}`] : []));
    expect(order).toEqual([
      // One of the twenty's pages takes the one worker they may take; the other is kept.
      "start flood",
      // The newcomer's page takes the kept worker at once, before any of theirs ended.
      "start newcomer",
      "end newcomer",
      // So does the reader's (one page lately, against three of the address rendering).
      "start reader",
      "end flood",
      "end reader",
      // Then the nineteen still waiting, one at a time: none of them may take the kept worker.
      ...FLOOD.slice(1).flatMap(() => ["start flood", "end flood"]),
    ]);
  });
});
