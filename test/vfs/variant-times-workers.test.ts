import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { VariantMemory } from "../../src/engine/variant-memory.js";
import { variantTimesFile } from "../../src/store/variant-times-file.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "../openapi/helpers.js";

/**
 * Variant times kept by the processes of `serve --workers N` (adversary round 53 F3): each
 * process dates the classes its own readers are served, and each wrote the whole state file at
 * its stop, the last rename winning. A process that never served the team's class wrote none (a
 * start after it dated the team reader by the file's time, a staff edit's), and one that loaded
 * after the staff edit dated the team class by that edit's time. Here three runtimes share one
 * state file, as the workers do, and stop in the order that lost.
 */

const TEAM = readerWithGroups(["team"]);
const STAFF = readerWithGroups(["staff"]);
const T = ["2026-01-01", "2026-06-15"].map((d) => new Date(`${d}T00:00:00.000Z`));

/** A public operation, a staff one (summary `audit`) and a team one. */
function spec(audit: string): string {
  const ok = { "200": { description: "OK" } };
  const paths = {
    "/orders": { get: { summary: "Watch orders", responses: ok } },
    "/internal/audit": { get: { summary: audit, "x-svc": { metadata: { groups: ["staff"] } }, responses: ok } },
    "/team/board": { get: { summary: "Team board", "x-svc": { metadata: { groups: ["team"] } }, responses: ok } },
  };
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1.0.0" }, paths }, null, 2);
}

// Only the public operation has a page: no page dates the team class (`FileVariants.timeFor`), so a
// process knows it only once a team reader reads the spec.
const SITE = { "docs.json": { name: "Shop", navigation: { groups: [{ group: "API", openapi: "api/shop.json", pages: ["GET /orders"] }] } }, "api/shop.json": "{}" };

const stamp = (at: Date): string => at.toISOString().replace("T", " ").replace(/\.(\d{3})Z$/, ".$1000000 +0000");

let root: string | undefined;
let state: string | undefined;
const running: DocsRuntime[] = [];
let logs: string[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
  for (const dir of [root, state]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  root = state = undefined;
  logs = [];
});

function write(text: string, at: Date): void {
  writeFileSync(join(root as string, "api/shop.json"), text);
  utimesSync(join(root as string, "api/shop.json"), at, at);
}

/** A process's memory of the shared state file, read now (as a process starting). */
function memory(): VariantMemory {
  const file = variantTimesFile(root as string, { state: state as string, cwd: "/", env: {} }) as string;
  return VariantMemory.open(file, root as string, (m) => logs.push(m));
}

/** One process of the server, with the memory it read at its start. */
async function worker(timesMemory = memory()): Promise<DocsRuntime> {
  const runtime = await DocsRuntime.load({ root: root as string, watch: false, log: (m) => logs.push(m), timesMemory });
  running.push(runtime);
  return runtime;
}

async function stop(runtime: DocsRuntime): Promise<void> {
  running.splice(running.indexOf(runtime), 1);
  await runtime.close();
}

async function stat(runtime: DocsRuntime, reader: Reader): Promise<string> {
  return (await runtime.readerState(localContext(reader)).shell.run("stat -c '%y' /api/shop.json")).stdout.trim();
}

describe("variant times kept by several processes of one server", () => {
  // The last to write: the process loaded after the edit (it dated the team by the edit), or the
  // one that never served the team (it wrote no team class).
  it.each([["late", ["first", "idle", "late"]], ["idle", ["first", "late", "idle"]]] as const)("a team reader served by one process, a staff edit, a process loaded after it and one that never served the team, %s stopping last: after a restart the team reader keeps its time", async (_last, order) => {
    root = writeRepo(SITE);
    state = mkdtempSync(join(tmpdir(), "svc-times-state-"));
    write(spec("Internal audit trail"), T[0] as Date);
    // Every process reads the state file as it starts: none is there yet (each writes a moment
    // after a snapshot, so one loading slowly would otherwise read what another wrote meanwhile).
    const lateMemory = memory();
    const first = await worker();
    const idle = await worker();
    const seen: Record<string, string> = { "team, first": await stat(first, TEAM) };
    // The staff-only edit while serving: both processes apply it; a third loads after it.
    write(spec("Internal audit trail v2"), T[1] as Date);
    await first.applyChanges(["api/shop.json"]);
    await idle.applyChanges(["api/shop.json"]);
    const late = await worker(lateMemory);
    seen["team, after the edit"] = await stat(first, TEAM);
    seen["team, in the process loaded after the edit"] = await stat(late, TEAM);
    // The stop: each writes, in this order.
    const processes = { first, idle, late };
    for (const name of order) await stop(processes[name]);

    const again = await worker();
    seen["team, after a restart"] = await stat(again, TEAM);
    seen["anonymous, after a restart"] = await stat(again, ANONYMOUS);
    seen["staff, after a restart"] = await stat(again, STAFF);
    expect(seen).toEqual({
      "team, first": stamp(T[0] as Date),
      "team, after the edit": stamp(T[0] as Date),
      // A start with no memory of the edit: the file's time, as before (row 160's first start).
      "team, in the process loaded after the edit": stamp(T[1] as Date),
      "team, after a restart": stamp(T[0] as Date),
      "anonymous, after a restart": stamp(T[0] as Date),
      "staff, after a restart": stamp(T[1] as Date),
    });
    expect(logs).toEqual([]);
  });
});
