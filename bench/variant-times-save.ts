/**
 * What a save of a spec with restricted operations over many groups costs the thread answering
 * callers, with readers of several classes (security.md row 159): a spec of N operations (every
 * third restricted to one of 70 groups), the anonymous reader and 8 groups' readers `stat` it,
 * then 5 saves each followed by their `stat`; prints the milliseconds of each save and reads.
 *
 *   npx tsx bench/variant-times-save.ts <checkout> [N]
 *
 * `<checkout>`: the source tree to measure (this one, or another worktree, to compare).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const src = process.argv[2] ?? new URL("..", import.meta.url).pathname;
const { DocsRuntime } = await import(`${src}/src/engine/runtime.js`);
const { ANONYMOUS, readerWithGroups } = await import(`${src}/src/vfs/access.js`);
const { localContext } = await import(`${src}/src/vfs/request-context.js`);
const N = Number(process.argv[3] ?? "1500");
const GROUPS = 70;

/** The spec, its fourth operation's description marked with edit `mark`. */
function spec(mark: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < N; i++) {
    const g = i % 3 === 0 ? { "x-svc": { metadata: { groups: [`team-${i % GROUPS}`] } } } : {};
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

const root = mkdtempSync(join(tmpdir(), "svc-bench-variant-times-"));
mkdirSync(join(root, "api"));
writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Big", navigation: { groups: [{ group: "Home", pages: ["index"] }, { group: "API", openapi: "api/big.json" }] } }));
writeFileSync(join(root, "index.mdx"), "---\ntitle: Home\n---\n\nHi.\n");
let t = Date.UTC(2026, 0, 1);
const put = (text: string): void => {
  writeFileSync(join(root, "api/big.json"), text);
  const d = new Date((t += 86_400_000));
  utimesSync(join(root, "api/big.json"), d, d);
};
put(spec(0));
const runtime = await DocsRuntime.load({ root });
const readers = [ANONYMOUS, ...Array.from({ length: 8 }, (_, i) => readerWithGroups([`team-${i}`]))];
const readAll = async (): Promise<void> => {
  for (const r of readers) await runtime.readerState(localContext(r)).shell.run("stat -c %y /api/big.json");
};
await readAll();
const times: number[] = [];
for (let e = 1; e <= 5; e++) {
  put(spec(e));
  const start = performance.now();
  await runtime.applyChanges(["api/big.json"]);
  await readAll();
  times.push(Math.round(performance.now() - start));
}
console.log(JSON.stringify({ N, GROUPS, msPerSaveAndReads: times }));
await runtime.close();
rmSync(root, { recursive: true, force: true });
