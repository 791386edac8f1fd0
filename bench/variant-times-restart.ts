/**
 * What keeping variant times across restarts costs (security.md row 160): a spec of N operations
 * (every third restricted to one of 70 groups), served with its times kept in a state folder, read
 * by the anonymous reader and 8 groups' readers, stopped, then a team-3 operation edited while
 * stopped, three times; prints each start's load, the readers' `stat`s, the hashing of every class
 * dated (what a write costs the serving thread, cold), and the file's size. The anonymous and
 * team-0 times stay the first start's.
 *
 *   npx tsx bench/variant-times-restart.ts <checkout> [N]
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const src = process.argv[2] ?? new URL("..", import.meta.url).pathname;
const { DocsRuntime } = await import(`${src}/src/engine/runtime.js`);
const { VariantMemory } = await import(`${src}/src/engine/variant-memory.js`);
const { RememberedTimes } = await import(`${src}/src/vfs/remembered-times.js`);
const { variantTimesFile } = await import(`${src}/src/store/variant-times-file.js`);
const { ANONYMOUS, readerWithGroups } = await import(`${src}/src/vfs/access.js`);
const { localContext } = await import(`${src}/src/vfs/request-context.js`);
const N = Number(process.argv[3] ?? "1500");
const GROUPS = 70;
function spec(mark: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < N; i++) {
    const g = i % 3 === 0 ? { "x-svc": { metadata: { groups: [`team-${i % GROUPS}`] } } } : {};
    paths[`/v1/things/${i}/{id}`] = { get: { operationId: `get${i}`, summary: `Get thing ${i}`, description: `Thing ${i} v${i === 3 ? mark : 0}.`, ...g,
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": { description: "OK", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } } } };
  }
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Big", version: "1" }, paths, components: { schemas: { Thing: { type: "object", properties: { id: { type: "string" } } } } } }, null, 2);
}
const root = mkdtempSync(join(tmpdir(), "svc-bench-memory-"));
const state = mkdtempSync(join(tmpdir(), "svc-bench-memory-state-"));
mkdirSync(join(root, "api"));
writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Big", navigation: { groups: [{ group: "Home", pages: ["index"] }, { group: "API", openapi: "api/big.json" }] } }));
writeFileSync(join(root, "index.mdx"), "---\ntitle: Home\n---\n\nHi.\n");
let t = Date.UTC(2026, 0, 1);
const put = (text: string): void => { writeFileSync(join(root, "api/big.json"), text); const d = new Date((t += 86_400_000)); utimesSync(join(root, "api/big.json"), d, d); };
put(spec(0));
const file = variantTimesFile(root, { state, cwd: "/", env: {} });
const readers = [ANONYMOUS, ...Array.from({ length: 8 }, (_, i) => readerWithGroups([`team-${i}`]))];
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
for (let round = 0; round < 3; round++) {
  const memory = VariantMemory.open(file, root, (m: string) => console.error(m));
  let t0 = process.hrtime.bigint();
  const runtime = await DocsRuntime.load({ root, timesMemory: memory });
  const load = ms(t0);
  t0 = process.hrtime.bigint();
  const times: string[] = [];
  for (const r of readers) times.push((await runtime.readerState(localContext(r)).shell.run("stat -c %y /api/big.json")).stdout.trim());
  const reads = ms(t0);
  t0 = process.hrtime.bigint();
  const of = RememberedTimes.of(runtime.site.variants);
  const hash = ms(t0);
  const classes = [...runtime.site.variants.values()].reduce((n: number, v: { times: { classes(): Iterable<unknown> } }) => n + [...v.times.classes()].length, 0);
  t0 = process.hrtime.bigint();
  const text = of.serialize(root);
  const ser = ms(t0);
  await runtime.close();
  console.log(JSON.stringify({ round, loadMs: Math.round(load), readsMs: Math.round(reads), hashAllClassesColdMs: Math.round(hash), classes, serializeMs: ser.toFixed(1), fileBytes: text.length, written: statSync(file).size, anon: times[0], team0: times[1] }));
  put(spec(round + 1));
}
rmSync(root, { recursive: true, force: true });
rmSync(state, { recursive: true, force: true });
