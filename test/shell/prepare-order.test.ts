/**
 * What a stdio server makes once its tool list is answered (`serve`'s `afterToolsList`): the
 * reader's search state, then its shell, whose first step encodes the site for the workers
 * (0.3-0.7 s of the thread on a 25,000-page site, issue 22). A search the client sent meanwhile
 * is answered before that encoding, not after it; the shell is still made before its first
 * command needs it. Asserted by the pool's own events, never by time.
 */
import { afterEach, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { searchDocs } from "../../src/engine/use-cases/search-docs.js";
import { localContext } from "../../src/vfs/request-context.js";
import { fixture } from "../helpers/paths.js";
import { PoolRecorder } from "../helpers/pool-events.js";
import { makeRepo } from "../helpers/repo.js";

let runtime: DocsRuntime | undefined;

afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});

it("a search asked as the shell is prepared is answered before the site is encoded for the shell's workers; the command after it finds the shell made", async () => {
  const rec = new PoolRecorder();
  runtime = await DocsRuntime.load({ root: fixture("demo"), indexLater: true, shellLater: true, shellWorker: { workers: 1, onEvent: rec.onEvent } });
  await runtime.whenIndexed();
  const context = localContext();
  runtime.readerState(context);
  // As `afterToolsList` does, and the client's search arriving in the same turn.
  runtime.prepareSearch(context);
  runtime.prepareShell(context);
  const hits = await runtime.search(context, { query: "webhooks" });
  const atSearch = rec.lines(["encoded"]);
  const listing = await runtime.readerState(context).shell.run("ls / | head -1");
  expect({ hits: hits.length > 0, atSearch, after: rec.lines(["encoded"]), listing: listing.exitCode }).toEqual({ hits: true, atSearch: [], after: ["snapshot 1 encoded"], listing: 0 });
});

it("likewise through the search use case, whose search waits a turn of the event loop for the thread (`CallerTurns`)", async () => {
  const rec = new PoolRecorder();
  runtime = await DocsRuntime.load({ root: fixture("demo"), indexLater: true, shellLater: true, shellWorker: { workers: 1, onEvent: rec.onEvent } });
  await runtime.whenIndexed();
  const context = localContext();
  runtime.readerState(context);
  runtime.prepareSearch(context);
  runtime.prepareShell(context);
  const found = await searchDocs({ runtime, request: context }, { query: "webhooks" });
  const atSearch = rec.lines(["encoded"]);
  const listing = await runtime.readerState(context).shell.run("ls / | head -1");
  expect({ found: found.ok, atSearch, after: rec.lines(["encoded"]), listing: listing.exitCode }).toEqual({ found: true, atSearch: [], after: ["snapshot 1 encoded"], listing: 0 });
});

it("a stdio server's pool starts no worker before its tool list is answered (`prepareShell`): the boot's CPU is not taken from a start that uses both cores (issue 22)", async () => {
  const rec = new PoolRecorder();
  runtime = await DocsRuntime.load({ root: fixture("demo"), indexLater: true, shellLater: true, shellWorker: { workers: 1, onEvent: rec.onEvent } });
  await runtime.whenIndexed();
  const context = localContext();
  runtime.readerState(context);
  const beforeList = rec.lines(["spawn", "booted", "loading"]);
  runtime.prepareSearch(context);
  runtime.prepareShell(context);
  const listing = await runtime.readerState(context).shell.run("ls / | head -1");
  // Booted before or after it was given the site: messages wait for a worker still booting.
  expect({ beforeList, after: rec.lines(["spawn", "loading", "loaded"]), booted: rec.lines(["booted"]), listing: listing.exitCode }).toEqual({
    beforeList: [],
    after: ["spawn worker 1", "worker 1 loading snapshot 1", "worker 1 loaded snapshot 1"],
    booted: ["booted worker 1"],
    listing: 0,
  });
});

it("a command sent before the tool list was asked (no `prepareShell`) starts the pool's worker itself and answers as usual", async () => {
  const rec = new PoolRecorder();
  runtime = await DocsRuntime.load({ root: fixture("demo"), indexLater: true, shellLater: true, shellWorker: { workers: 1, onEvent: rec.onEvent } });
  await runtime.whenIndexed();
  const context = localContext();
  const listing = await runtime.readerState(context).shell.run("ls / | head -1");
  const inThread = await DocsRuntime.load({ root: fixture("demo"), shellWorker: false });
  try {
    const expected = await inThread.readerState(localContext()).shell.run("ls / | head -1");
    expect({ spawned: rec.lines(["spawn"]), listing }).toEqual({ spawned: ["spawn worker 1"], listing: expected });
  } finally {
    await inThread.close();
  }
});

it("a search that arrives once the site's encoding has begun is answered between its slices, not after it: 2,500 files are encoded a thousand at a time (issue 22: ~0.5 s of the thread on 50,000 pages); the worker is given the site and builds the reader's view before the texts are encoded, not after", async () => {
  const pages = Array.from({ length: 2500 }, (_, i) => `page-${i}`);
  const repo = makeRepo({
    "docs.json": JSON.stringify({ name: "Owl Handbook", navigation: { groups: [{ group: "All", pages }] } }),
    ...Object.fromEntries(pages.map((p, i) => [`${p}.mdx`, `---\ntitle: Owl page ${i}\n---\n\nHow owl number ${i} hunts ${i % 7 === 0 ? "webhooks" : "mice"} at night.\n`])),
  });
  try {
    const rec = new PoolRecorder();
    runtime = await DocsRuntime.load({ root: repo.dir, indexLater: true, shellLater: true, shellWorker: { workers: 1, onEvent: rec.onEvent } });
    await runtime.whenIndexed();
    const context = localContext();
    runtime.readerState(context);
    runtime.prepareSearch(context);
    runtime.prepareShell(context);
    await rec.next((e) => e.t === "encoding");
    const found = await searchDocs({ runtime, request: context }, { query: "webhooks" });
    const seen = ["encoding", "loading", "encoded"] as const;
    const atSearch = rec.lines(seen);
    const listing = await runtime.readerState(context).shell.run("ls / | wc -l");
    // The worker answers in the order it was told: the site, the view, then (once encoded) the texts.
    expect({ found: found.ok, atSearch, after: rec.lines(seen), worker: rec.lines(["viewed", "loaded"]), listing: listing.stdout }).toEqual({
      found: true,
      atSearch: ["encoding 2500 files", "worker 1 loading snapshot 1"],
      after: ["encoding 2500 files", "worker 1 loading snapshot 1", "snapshot 1 encoded"],
      worker: ["worker 1 built view 1", "worker 1 loaded snapshot 1"],
      listing: "2501\n",
    });
  } finally {
    await runtime?.close();
    runtime = undefined;
    repo.cleanup();
  }
});
