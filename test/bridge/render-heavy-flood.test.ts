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
 * Adversary round 65 F3: four addresses flooding the page render pool with pages of large
 * tables (each render seconds of CPU on two cores) held another reader's small page 2-8 s
 * (10-50 ms idle). The pool keeps one of its two workers for callers who rendered little
 * lately, but it counted pages: the reader, who had opened more (small) pages than each flooder
 * had got through (two or three heavy ones each), counted as having taken more, left the kept
 * worker idle and waited for the flooders' renders; when one ended, a flooder who had started
 * fewer pages went first. Now what a caller rendered lately is weighed by the text it sent.
 *
 * Real HTTP from five loopback addresses, real pages; every render is held (a gate cell per
 * page) and let go one at a time, so the order in which pages start is the pool's alone.
 */

const FLOOD = ["127.0.0.71", "127.0.0.72", "127.0.0.73", "127.0.0.74"];
const READER = "127.0.0.79";
/** Pages of a 24x24 table (~9,000 characters): what the flood asks for. */
const HEAVY = Array.from({ length: 24 }, (_, i) => `heavy${i}`);
/** The reader's small pages (~50 characters). */
const SMALL = Array.from({ length: 6 }, (_, i) => `small${i}`);

function table(name: string): string {
  const row = (r: number): string => `| ${Array.from({ length: 24 }, (_, c) => `${name} r${r}c${c}`).join(" | ")} |`;
  return [`| ${Array.from({ length: 24 }, (_, c) => `h${c}`).join(" | ")} |`, `|${"---|".repeat(24)}`, ...Array.from({ length: 24 }, (_, r) => row(r))].join("\n");
}

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

describe("the page render pool under four addresses flooding it with heavy pages", () => {
  const root = mkdtempSync(join(tmpdir(), "svc-render-heavy-"));
  // One cell per page render (job id): a render waits until its cell is set.
  const gate = new Int32Array(new SharedArrayBuffer(4 * 256));
  const rec = new RenderRecorder();
  /** Renders let go as soon as they start (what came before the flood). */
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
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Heavy flood", navigation: { groups: [{ group: "Pages", pages: [...HEAVY, ...SMALL] }] } }));
    for (const name of HEAVY) writeFileSync(join(root, `${name}.mdx`), `---\ntitle: Page ${name}\n---\n\n${table(name)}\n`);
    for (const name of SMALL) writeFileSync(join(root, `${name}.mdx`), `---\ntitle: Page ${name}\n---\n\nThe text of *${name}*.\n`);
    // No render is stopped by the clock: the test holds them as long as it likes.
    h = await startBridge({ root, apps: true, renderWorker: { onEvent, gate, limitTimer: () => ({ cancel: () => {} }) } });
    port = Number(new URL(h.origin).port);
  });
  afterAll(async () => {
    gate.fill(1);
    await h?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const callerOf = (job: number): string => {
    const queued = rec.events.find((e) => e.t === "queued" && e.job === job);
    return queued?.t === "queued" ? queued.caller.replace(/^address:/, "") : "?";
  };
  const label = (address: string): string => (address === READER ? "reader" : FLOOD.includes(address) ? "flood" : address);
  const queuedCount = (): number => rec.events.filter((e) => e.t === "queued").length;
  const queuedUpTo = (n: number): Promise<RenderEvent> => rec.next(() => queuedCount() >= n);

  it("starts the page of a reader who opened more, but smaller, pages than each flooder at once, not behind theirs", async () => {
    expect([LIMITS.preview.renderWorkers, LIMITS.preview.renderReserve, LIMITS.preview.renderRecentStarts]).toEqual([2, 1, 256]);
    // What came before: each flooder rendered two heavy pages, the reader five small ones (more pages than any flooder).
    const before = [
      ...FLOOD.map((from, i) => page(port, `/heavy${i}`, from)),
      ...SMALL.slice(0, 5).map((name) => page(port, `/${name}`, READER)),
      ...FLOOD.map((from, i) => page(port, `/heavy${4 + i}`, from)),
    ];
    expect((await Promise.all(before)).map((a) => a.status)).toEqual(Array.from({ length: 13 }, () => 200));
    expect(queuedCount()).toBe(13);

    // From here on renders are held. Each flooder asks for four more heavy pages at once, then
    // the reader opens its sixth page.
    letGo = false;
    const mark = rec.events.length;
    const running = (): number[] => {
      const started = rec.events.slice(mark).flatMap((e) => (e.t === "start" ? [e.job] : []));
      const ended = new Set(rec.events.slice(mark).flatMap((e) => (e.t === "end" ? [e.job] : [])));
      return started.filter((job) => !ended.has(job));
    };
    const flood = FLOOD.flatMap((from, i) => [0, 1, 2, 3].map((k) => page(port, `/heavy${8 + 4 * k + i}`, from)));
    await queuedUpTo(13 + 16);
    const reader = page(port, "/small5", READER);
    await queuedUpTo(13 + 17);
    // The reader's page starts with none of the flood's ended (at once, or once the kept worker
    // has loaded), then ends. Were it queued behind theirs, it would never start here.
    const readerJob = rec.events.findLast((e) => e.t === "queued")?.job as number;
    await rec.next((e) => e.t === "start" && e.job === readerJob);
    release(readerJob);
    await rec.next((e) => e.t === "end" && e.job === readerJob);

    // Let the flood's pages go one at a time, the one started first first.
    for (let job = running()[0]; job !== undefined; job = running()[0]) {
      release(job);
      await rec.next((e) => e.t === "end" && e.job === job);
    }

    const answers = await Promise.all([...flood, reader]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect((answers.at(-1) as Answer).body).toContain("The text of <em>small5</em>.");
    const order = rec.events.slice(mark).flatMap((e) => (e.t === "start" ? [`start ${label(callerOf(e.job))}`] : e.t === "end" ? [`end ${label(callerOf(e.job))}`] : []));
    expect(order).toEqual([
      // One flooder's page takes the one worker they may take; the other is kept.
      "start flood",
      // The reader's page takes the kept worker before any of theirs ended.
      "start reader",
      "end reader",
      "end flood",
      // Then the fifteen still waiting, one at a time: none of them may take the kept worker.
      ...Array.from({ length: 15 }, () => ["start flood", "end flood"]).flat(),
    ]);
  });
});
