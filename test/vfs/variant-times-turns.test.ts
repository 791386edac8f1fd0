import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "../openapi/helpers.js";

/**
 * A save of a spec restricted to many groups gives the thread back while each class of readers'
 * spec is rendered and compared (`VariantTimes.of`): before, a 600-operation spec over 70 groups
 * held every caller 3-6 s in one stretch. A caller asking meanwhile is answered from the snapshot
 * being replaced, before the save is applied.
 */

const TEAMS = Array.from({ length: 8 }, (_, i) => readerWithGroups([`team-${i}`]));
const T = ["2026-01-01", "2026-02-01", "2026-03-01"].map((d) => new Date(`${d}T00:00:00.000Z`));

/** The spec: a public operation summarised `open`, and one for each of 8 teams. */
function spec(open: string): string {
  const ok = { "200": { description: "OK" } };
  const paths: Record<string, unknown> = { "/orders": { get: { summary: open, responses: ok } } };
  for (let i = 0; i < 8; i++) paths[`/team-${i}`] = { get: { summary: `Team ${i} rota`, "x-svc": { metadata: { groups: [`team-${i}`] } }, responses: ok } };
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1.0.0" }, paths });
}

let root: string | undefined;
let runtime: DocsRuntime | undefined;

afterEach(async () => {
  await runtime?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  runtime = undefined;
  root = undefined;
});

function write(rel: string, text: string, at: Date): void {
  writeFileSync(join(root as string, rel), text);
  utimesSync(join(root as string, rel), at, at);
}

/** What the anonymous reader is answered: a search's hits, and the spec's summaries and time as their view reads it. */
async function answer(docs: DocsRuntime): Promise<unknown> {
  const context = localContext(ANONYMOUS);
  const hits = await docs.search(context, { query: "orders" });
  const { view } = docs.readerState(context);
  const spec = JSON.parse(await view.readFile("/api/shop.json")) as { paths: Record<string, { get: { summary: string } }> };
  return {
    hits: hits.map((h) => [h.page.path, h.page.title]),
    summaries: Object.values(spec.paths).map((p) => p.get.summary),
    mtime: (await view.stat("/api/shop.json")).mtime.toISOString(),
  };
}

describe("a save of a spec restricted to many groups", () => {
  it("lets a caller asking while it is applied be answered first, from the snapshot before", async () => {
    root = writeRepo({ "docs.json": { name: "Shop", navigation: { groups: [{ group: "API", openapi: "api/shop.json" }] } }, "api/shop.json": "{}" });
    write("api/shop.json", spec("Watch orders"), T[0] as Date);
    const docs = (runtime = await DocsRuntime.load({ root }));
    await docs.whenIndexed();
    // Each team's class is remembered: the save compares each one's spec before and after.
    for (const team of TEAMS) await docs.readerState(localContext(team)).shell.run("stat /api/shop.json");
    const before = { hits: [["/api-reference/watch-orders", "Watch orders"]], summaries: ["Watch orders"], mtime: "2026-01-01T00:00:00.000Z" };
    expect(await answer(docs)).toEqual(before);

    write("api/shop.json", spec("Track orders"), T[1] as Date);
    const events: unknown[] = [];
    const saved = docs.applyChanges(["api/shop.json"]).then(() => events.push("saved"));
    // Asked once the save gives the thread back (the spec's read, parse and pages are one
    // stretch before the classes' specs, for a spec this small), answered without I/O.
    const asked = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => events.push(await answer(docs)));
    await Promise.all([saved, asked]);
    expect(events).toEqual([before, "saved"]);
    expect(await answer(docs)).toEqual({ hits: [["/api-reference/track-orders", "Track orders"]], summaries: ["Track orders"], mtime: "2026-02-01T00:00:00.000Z" });
  });

  it("a second save made while the first is applied is applied after it, the caller in between answered from the first snapshot", async () => {
    root = writeRepo({ "docs.json": { name: "Shop", navigation: { groups: [{ group: "API", openapi: "api/shop.json" }] } }, "api/shop.json": "{}" });
    write("api/shop.json", spec("Watch orders"), T[0] as Date);
    const docs = (runtime = await DocsRuntime.load({ root }));
    await docs.whenIndexed();
    for (const team of TEAMS) await docs.readerState(localContext(team)).shell.run("stat /api/shop.json");

    write("api/shop.json", spec("Track orders"), T[1] as Date);
    const events: unknown[] = [];
    const first = docs.applyChanges(["api/shop.json"]).then(() => events.push("first saved"));
    const second = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      events.push(await answer(docs));
      write("api/shop.json", spec("Ship orders"), T[2] as Date);
      await docs.applyChanges(["api/shop.json"]);
      events.push("second saved");
    });
    await Promise.all([first, second]);
    expect(events).toEqual([{ hits: [["/api-reference/watch-orders", "Watch orders"]], summaries: ["Watch orders"], mtime: "2026-01-01T00:00:00.000Z" }, "first saved", "second saved"]);
    expect(await answer(docs)).toEqual({ hits: [["/api-reference/ship-orders", "Ship orders"]], summaries: ["Ship orders"], mtime: "2026-03-01T00:00:00.000Z" });
  });
});
