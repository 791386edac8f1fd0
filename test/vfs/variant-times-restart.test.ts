import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { VariantMemory } from "../../src/engine/variant-memory.js";
import { variantTimesFile } from "../../src/store/variant-times-file.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { connect } from "../helpers/mcp.js";
import { reloadShowing } from "../helpers/reload-showing.js";
import { writeRepo } from "../openapi/helpers.js";

/**
 * Variant times across a restart (security.md row 160). Each reader class's time of a file with
 * restricted parts is carried from one version of the file to the next in memory; a start knew
 * nothing before it and dated every class by the file's time, so after a restart the anonymous
 * reader's copy of a spec was dated by the last edit of a staff-only operation: it told them when
 * staff content changed. Now the times are kept in the state folder, and a class whose bytes are
 * what it was served before the stop takes the time it had.
 */

const STAFF = readerWithGroups(["staff"]);
const T = ["2026-01-01", "2026-02-01", "2026-03-01"].map((d) => new Date(`${d}T00:00:00.000Z`));

/** The spec: a public operation and a staff one (its summary `vault`). */
function spec(vault: string): string {
  const ok = { "200": { description: "OK" } };
  const paths = {
    "/vault": { get: { summary: vault, "x-svc": { metadata: { groups: ["staff"] } }, responses: ok } },
    "/orders": { get: { summary: "Watch orders", description: "Every order placed, as it is placed.", responses: ok } },
  };
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1.0.0" }, paths }, null, 2);
}

const SITE = { "docs.json": { name: "Shop", navigation: { groups: [{ group: "API", openapi: "api/shop.json" }] } }, "api/shop.json": "{}" };

/** `stat`'s line for a time. */
const stamp = (at: Date): string => at.toISOString().replace("T", " ").replace(/\.(\d{3})Z$/, ".$1000000 +0000");

let root: string | undefined;
let state: string | undefined;
let runtime: DocsRuntime | undefined;
let logs: string[] = [];

afterEach(async () => {
  await runtime?.close();
  for (const dir of [root !== undefined ? dirname(root) : undefined, state]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  runtime = undefined;
  root = undefined;
  state = undefined;
  logs = [];
});

function write(rel: string, text: string, at: Date): void {
  writeFileSync(join(root as string, rel), text);
  utimesSync(join(root as string, rel), at, at);
}

/** The state file of the docs root (in the `--state` folder). */
function timesFile(): string {
  return variantTimesFile(root as string, { state: state as string, cwd: "/", env: {} }) as string;
}

/** Start serving the docs root, with the times kept in the state folder. */
async function serve(watch = false): Promise<DocsRuntime> {
  runtime = await DocsRuntime.load({ root: root as string, watch, log: (m) => logs.push(m), timesMemory: VariantMemory.open(timesFile(), root as string, (m) => logs.push(m)) });
  if (watch) await runtime.watch();
  return runtime;
}

async function stop(): Promise<void> {
  await runtime?.close();
  runtime = undefined;
}

/** What `reader` is shown of the spec's and its public page's times: `stat`, and a search hit's `lastModified`. */
async function shown(reader: Reader): Promise<{ stat: string; hits: string[] }> {
  const docs = runtime as DocsRuntime;
  const stat = (await docs.readerState(localContext(reader)).shell.run("stat -c '%n %y' /api/shop.json /api-reference/watch-orders.mdx")).stdout;
  const client = await connect(docs, reader);
  try {
    const search = (await client.call("search_shop", { query: "watch orders placed" })).structuredContent as { results: { path: string; lastModified?: string }[] };
    return { stat, hits: search.results.map((r) => `${r.path} ${r.lastModified}`) };
  } finally {
    await client.close();
  }
}

/** What `reader` is shown when its spec and page are dated `spec` and `page`. */
function dated(spec: Date, page: Date): { stat: string; hits: string[] } {
  return { stat: `/api/shop.json ${stamp(spec)}\n/api-reference/watch-orders.mdx ${stamp(page)}\n`, hits: [`/api-reference/watch-orders ${page.toISOString()}`] };
}

function begin(): void {
  root = join(writeRepo(SITE), "docs");
  renameSync(dirname(root), `${dirname(root)}.tmp`);
  mkdirSync(dirname(root));
  renameSync(`${dirname(root)}.tmp`, root);
  state = mkdtempSync(join(tmpdir(), "svc-times-state-"));
  write("api/shop.json", spec("Open the vault"), T[0] as Date);
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

describe("variant times across a restart", () => {
  it("a staff edit while serving, a stop, a start on the same state: the anonymous reader keeps the time before the edit, staff the edit's", async () => {
    begin();
    await serve();
    expect(await shown(ANONYMOUS)).toEqual(dated(T[0] as Date, T[0] as Date));
    write("api/shop.json", spec("Open the vault door"), T[1] as Date);
    await (runtime as DocsRuntime).applyChanges(["api/shop.json"]);
    const served = { anonymous: await shown(ANONYMOUS), staff: (await shown(STAFF)).stat };
    expect(served).toEqual({ anonymous: dated(T[0] as Date, T[0] as Date), staff: `/api/shop.json ${stamp(T[1] as Date)}\n/api-reference/watch-orders.mdx ${stamp(T[0] as Date)}\n` });
    await stop();

    await serve();
    expect({ anonymous: await shown(ANONYMOUS), staff: (await shown(STAFF)).stat }).toEqual(served);
    expect(logs).toEqual([]);
  });

  it("a staff edit while stopped: the anonymous reader keeps its time, staff's bytes changed and are dated by the file", async () => {
    begin();
    await serve();
    expect(await shown(ANONYMOUS)).toEqual(dated(T[0] as Date, T[0] as Date));
    await stop();
    write("api/shop.json", spec("Open the vault door"), T[2] as Date);

    await serve();
    expect({ anonymous: await shown(ANONYMOUS), staff: (await shown(STAFF)).stat }).toEqual({
      anonymous: dated(T[0] as Date, T[0] as Date),
      staff: `/api/shop.json ${stamp(T[2] as Date)}\n/api-reference/watch-orders.mdx ${stamp(T[0] as Date)}\n`,
    });
  });

  it("the restricted operations reordered while stopped: each class is remembered by the rules it may read, not their order, and keeps its time", async () => {
    const PARTNERS = readerWithGroups(["partners"]);
    const ok = { "200": { description: "OK" } };
    const vault = { get: { summary: "Open the vault", "x-svc": { metadata: { groups: ["staff"] } }, responses: ok } };
    const deals = { get: { summary: "List deals", "x-svc": { metadata: { groups: ["partners"] } }, responses: ok } };
    const orders = { get: { summary: "Watch orders", description: "Every order placed, as it is placed.", responses: ok } };
    const shop = (paths: Record<string, unknown>): string => JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1.0.0" }, paths }, null, 2);
    begin();
    write("api/shop.json", shop({ "/vault": vault, "/deals": deals, "/orders": orders }), T[0] as Date);
    await serve();
    const before = { anonymous: (await shown(ANONYMOUS)).stat, staff: (await shown(STAFF)).stat, partners: (await shown(PARTNERS)).stat };
    await stop();
    write("api/shop.json", shop({ "/deals": deals, "/vault": vault, "/orders": orders }), T[1] as Date);

    await serve();
    expect({ anonymous: (await shown(ANONYMOUS)).stat, staff: (await shown(STAFF)).stat, partners: (await shown(PARTNERS)).stat }).toEqual(before);
    expect(before.staff).toBe(dated(T[0] as Date, T[0] as Date).stat);
  });

  it("a docs root replaced while serving (a deploy renames a new tree over it): a class whose bytes are the same keeps its time", async () => {
    begin();
    const docs = await serve(true);
    write("api/shop.json", spec("Open the vault door"), T[1] as Date);
    await docs.applyChanges(["api/shop.json"]);
    const served = { anonymous: await shown(ANONYMOUS), staff: (await shown(STAFF)).stat };
    expect(served).toEqual({ anonymous: dated(T[0] as Date, T[0] as Date), staff: `/api/shop.json ${stamp(T[1] as Date)}\n/api-reference/watch-orders.mdx ${stamp(T[0] as Date)}\n` });
    // The next release: the same docs, every file written at the deploy.
    const next = `${root as string}.new`;
    cpSync(root as string, next, { recursive: true });
    utimesSync(join(next, "api/shop.json"), T[2] as Date, T[2] as Date);
    // The reload of the new tree, whose start the log line says: the watcher may still report the
    // edit applied above (its own reload of the same bytes) after this wait begins.
    const replaced = `the docs root ${root as string} was replaced; loading the whole site from it again`;
    const reloaded = reloadShowing(docs, () => logs.includes(replaced));
    renameSync(root as string, `${root as string}.old`);
    renameSync(next, root as string);
    await reloaded;
    expect({ anonymous: await shown(ANONYMOUS), staff: (await shown(STAFF)).stat }).toEqual(served);
    expect(logs).toEqual([replaced]);
  });

  it("a file whose last restricted part went while serving: after a start the anonymous reader keeps its time (staff's goes back to it)", async () => {
    begin();
    await serve();
    await shown(STAFF);
    const { "/vault": _gone, ...open } = (JSON.parse(spec("")) as { paths: Record<string, unknown> }).paths;
    write("api/shop.json", JSON.stringify({ ...(JSON.parse(spec("")) as object), paths: open }, null, 2), T[1] as Date);
    await (runtime as DocsRuntime).applyChanges(["api/shop.json"]);
    const anonymous = (await shown(ANONYMOUS)).stat;
    expect({ anonymous, staff: (await shown(STAFF)).stat }).toEqual({ anonymous: dated(T[0] as Date, T[0] as Date).stat, staff: `/api/shop.json ${stamp(T[1] as Date)}\n/api-reference/watch-orders.mdx ${stamp(T[0] as Date)}\n` });
    await stop();

    await serve();
    expect({ anonymous: (await shown(ANONYMOUS)).stat, staff: (await shown(STAFF)).stat }).toEqual({ anonymous, staff: anonymous });
  });

  it("keeps each class's rules, the SHA-256 of its bytes and its time (never the text), 0600 in a 0700 folder", async () => {
    begin();
    await serve();
    const anonymous = (await (runtime as DocsRuntime).readerState(localContext(ANONYMOUS)).shell.run("cat /api/shop.json")).stdout;
    await shown(STAFF);
    await stop();
    const file = timesFile();
    expect(file).toBe(join(state as string, "variant-times", `${sha256(root as string).slice(0, 32)}.json`));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      format: "svc-mcp variant times",
      version: 1,
      root,
      files: {
        "/api/shop.json": [
          { reads: [], sha256: sha256(anonymous), mtime: (T[0] as Date).getTime() },
          { reads: ['[["staff"],false]'], sha256: sha256(spec("Open the vault")), mtime: (T[0] as Date).getTime() },
        ],
      },
      wholes: {},
    });
    expect(readFileSync(file, "utf8")).not.toContain("vault");
    expect({ file: statSync(file).mode & 0o777, folder: statSync(dirname(file)).mode & 0o777 }).toEqual({ file: 0o600, folder: 0o700 });
  });

  it("a damaged, foreign or unreadable state file: the start goes on, says so on the log, and dates every class as the file", async () => {
    const cases: [string, (file: string) => void, string][] = [
      ["not JSON", (file) => writeFileSync(file, '{"format":'), "not JSON (Unexpected end of JSON input)"],
      ["another version", (file) => writeFileSync(file, JSON.stringify({ format: "svc-mcp variant times", version: 2, root, files: {} })), "version 2, not 1"],
      ["a class without its hash", (file) => writeFileSync(file, JSON.stringify({ format: "svc-mcp variant times", version: 1, root, files: { "/api/shop.json": [{ reads: [], mtime: 0 }] } })), "/api/shop.json: a class that is not { reads, sha256, mtime }"],
      ["a folder", (file) => mkdirSync(file), "not a regular file"],
    ];
    const seen: Record<string, unknown> = {};
    for (const [name, damage] of cases) {
      begin();
      write("api/shop.json", spec("Open the vault door"), T[1] as Date);
      mkdirSync(dirname(timesFile()), { recursive: true });
      damage(timesFile());
      await serve();
      const shownThen = await shown(ANONYMOUS);
      await stop();
      // The file is written anew where it can be (a folder in its place stays, said once).
      const kept = name === "a folder" ? "a folder" : (JSON.parse(readFileSync(timesFile(), "utf8")) as { files: Record<string, unknown[]> }).files["/api/shop.json"]?.length;
      seen[name] = { shown: shownThen, logs: logs.map((l) => l.replaceAll(timesFile(), "<file>")), kept };
      rmSync(dirname(root as string), { recursive: true, force: true });
      rmSync(state as string, { recursive: true, force: true });
      logs = [];
    }
    const told = (why: string): string => `warning: the variant times kept in <file> are not taken (${why}): each reader class of a file with restricted parts is dated by the file's time until its bytes change`;
    const unwritten =
      "warning: the variant times cannot be kept in <file> (EISDIR on rename): " +
      "a restart dates each reader class of a file with restricted parts by what it finds kept, else by the file's time";
    expect(seen).toEqual(
      Object.fromEntries(cases.map(([name, , why]) => [name, { shown: dated(T[1] as Date, T[1] as Date), logs: name === "a folder" ? [told(why), unwritten] : [told(why)], kept: name === "a folder" ? "a folder" : 1 }])),
    );
  });
});
