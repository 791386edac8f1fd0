/**
 * The longest stretch a save of a spec restricted to many groups holds the thread answering
 * callers: a spec of N operations, every third restricted (`x-svc` metadata groups) to one of G
 * groups, served in process (`DocsRuntime`, its index built); the anonymous reader and one reader
 * of each group `stat` it, so each has a class whose time the save carries (`VariantTimes`); then
 * S saves of one description, each applied as the watcher applies it (`applyChanges`) with the
 * event loop's delay recorded (`monitorEventLoopDelay`, 1 ms resolution) from the save until it
 * is applied, the readers reading again after each. Prints, per G, the longest hold of each save
 * and how long each took to apply, in milliseconds.
 *
 *   npx tsx bench/spec-save-hold.ts <checkout> [N] [--groups 1,8,70] [--saves 3]
 *
 * `<checkout>`: the source tree to measure (this one, or another worktree, to compare).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const [checkout, size] = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
const src = checkout ?? new URL("..", import.meta.url).pathname;
const N = Number(size ?? "600");
const GROUPS = (option("--groups") ?? "1,8,70").split(",").map(Number);
const SAVES = Number(option("--saves") ?? "3");
const { DocsRuntime } = await import(`${src}/src/engine/runtime.js`);
const { ANONYMOUS, readerWithGroups } = await import(`${src}/src/vfs/access.js`);
const { localContext } = await import(`${src}/src/vfs/request-context.js`);

/** The spec over `groups` groups, its fourth operation's description marked with edit `mark`. */
function spec(groups: number, mark: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < N; i++) {
    const g = i % 3 === 0 ? { "x-svc": { metadata: { groups: [`team-${(i / 3) % groups}`] } } } : {};
    paths[`/v1/things/${i}/{id}`] = {
      get: {
        operationId: `get${i}`,
        summary: `Get thing ${i}`,
        description: `Thing ${i} v${i === 3 ? mark : 0}.`,
        ...g,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "OK", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } },
      },
    };
  }
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Big", version: "1" }, paths, components: { schemas: { Thing: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } } } } }, null, 2);
}

const delay = monitorEventLoopDelay({ resolution: 1 });
for (const groups of GROUPS) {
  const root = mkdtempSync(join(tmpdir(), "svc-bench-spec-save-hold-"));
  mkdirSync(join(root, "api"));
  writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Big", navigation: { groups: [{ group: "Home", pages: ["index"] }, { group: "API", openapi: "api/big.json" }] } }));
  writeFileSync(join(root, "index.mdx"), "---\ntitle: Home\n---\n\nHi.\n");
  let t = Date.UTC(2026, 0, 1);
  const put = (text: string): void => {
    writeFileSync(join(root, "api/big.json"), text);
    const d = new Date((t += 86_400_000));
    utimesSync(join(root, "api/big.json"), d, d);
  };
  put(spec(groups, 0));
  const runtime = await DocsRuntime.load({ root });
  await runtime.whenIndexed();
  const readers = [ANONYMOUS, ...Array.from({ length: groups }, (_, i) => readerWithGroups([`team-${i}`]))];
  const readAll = async (): Promise<void> => {
    for (const r of readers) await runtime.readerState(localContext(r)).shell.run("stat -c %y /api/big.json");
  };
  await readAll();
  const holdMs: number[] = [];
  const applyMs: number[] = [];
  for (let e = 1; e <= SAVES; e++) {
    put(spec(groups, e));
    delay.reset();
    delay.enable();
    const start = performance.now();
    await runtime.applyChanges(["api/big.json"]);
    applyMs.push(Math.round(performance.now() - start));
    // The hold that ends the save is recorded at the next timers phase: the monitor's timer comes
    // due in it before this one.
    await new Promise((resolve) => setTimeout(resolve, 10));
    delay.disable();
    holdMs.push(Math.round(delay.max / 1e6));
    await readAll();
  }
  console.log(JSON.stringify({ N, groups, readers: readers.length, holdMs, applyMs }));
  await runtime.close();
  rmSync(root, { recursive: true, force: true });
}
