import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ALL_ACCESS } from "../../src/vfs/access.js";
import { connect } from "../helpers/mcp.js";
import { copyToTemp, fixture } from "../helpers/paths.js";

let tmp: { dir: string; cleanup: () => void };
let runtime: DocsRuntime;
let logs: string[];
/** Called after each log line. */
let logged: Set<() => void>;

beforeEach(async () => {
  tmp = copyToTemp(fixture("demo"));
  logs = [];
  logged = new Set();
  runtime = await DocsRuntime.load({
    root: tmp.dir,
    log: (m) => {
      logs.push(m);
      for (const l of logged) l();
    },
  });
  await runtime.watch();
});

/**
 * Resolves once `check` holds, checked now and after each reload the file watcher causes (its
 * events are asynchronous, and one write may take more than one reload). A change that never
 * comes fails the test at its timeout.
 */
function afterReloads(check: () => Promise<boolean> | boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let chain = Promise.resolve();
    let done = false;
    const attempt = (): void => {
      chain = chain
        .then(async () => {
          if (done || !(await check())) return;
          done = true;
          stop();
          resolve();
        })
        .catch((error: unknown) => {
          stop();
          reject(error as Error);
        });
    };
    const stop = runtime.onChange(attempt);
    attempt();
  });
}

/** Resolves once a log line matches (a kept last-good version is logged, not reloaded). */
function untilLogged(match: (line: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!logs.some(match)) return;
      logged.delete(check);
      resolve();
    };
    logged.add(check);
    check();
  });
}

/** Resolves at the first notification of `schema` the client receives; counts them all. */
function notifications<T extends Parameters<Client["setNotificationHandler"]>[0]>(client: Client, schema: T, seen: (n: unknown) => void = () => {}): Promise<void> {
  return new Promise((resolve) =>
    client.setNotificationHandler(schema, (n) => {
      seen(n);
      resolve();
    }),
  );
}
afterEach(async () => {
  await runtime.close();
  tmp.cleanup();
});

const FS = "query_docs_filesystem_nimbus_storage";
const SEARCH = "search_nimbus_storage";

describe("live reload", () => {
  it("makes a new page readable and searchable, and notifies clients", async () => {
    const c = await connect(runtime);
    const resourcesChanged = notifications(c.client, ResourceListChangedNotificationSchema);
    writeFileSync(join(tmp.dir, "guides", "lifecycle.mdx"), "---\ntitle: Lifecycle rules\n---\n\n## Expiry\n\nObjects older than 30 days move to cold storage (zorblax).\n");
    await afterReloads(async () => c.text(await c.call(FS, { command: "ls /guides" })).includes("lifecycle.mdx"));
    expect(c.text(await c.call(FS, { command: "cat /guides/lifecycle.mdx" }))).toBe(
      "---\ntitle: Lifecycle rules\n---\n\n## Expiry\n\nObjects older than 30 days move to cold storage (zorblax).\n",
    );
    // Not in navigation: readable, but not indexed (seo.indexing is not "all").
    expect((await c.call(SEARCH, { query: "zorblax" })).structuredContent).toEqual({ results: [], provenance: { ttlMs: 60_000 } });
    await resourcesChanged;
    await c.close();
  });

  it("reflects an edit to a page in search within the same reload", async () => {
    const c = await connect(runtime);
    writeFileSync(join(tmp.dir, "quickstart.mdx"), "---\ntitle: Quickstart\n---\n\n## Install\n\nRun the frobnicator installer.\n");
    await afterReloads(async () => {
      const r = (await c.call(SEARCH, { query: "frobnicator" })).structuredContent as { results: { path: string }[] };
      return r.results[0]?.path === "/quickstart";
    });
    await c.close();
  });

  it("searches a snippet's text on the pages that import it, and follows edits of the snippet alone", async () => {
    const c = await connect(runtime);
    mkdirSync(join(tmp.dir, "snippets"));
    writeFileSync(join(tmp.dir, "snippets", "limits.mdx"), "Buckets hold at most 5 TB per object (glorp).\n");
    writeFileSync(join(tmp.dir, "quickstart.mdx"), "---\ntitle: Quickstart\n---\nimport Limits from '/snippets/limits.mdx';\n\n## Limits\n\n<Limits />\n");
    const paths = async (query: string): Promise<string[]> =>
      ((await c.call(SEARCH, { query })).structuredContent as { results: { path: string }[] }).results.map((r) => r.path);
    await afterReloads(async () => (await paths("glorp")).length > 0);
    expect(await paths("glorp")).toEqual(["/quickstart"]);
    writeFileSync(join(tmp.dir, "snippets", "limits.mdx"), "Buckets hold at most 50 TB per object (snarf).\n");
    await afterReloads(async () => (await paths("snarf")).length > 0);
    expect({ snarf: await paths("snarf"), glorp: await paths("glorp") }).toEqual({ snarf: ["/quickstart"], glorp: [] });
    // The filesystem shows files as written.
    expect(c.text(await c.call(FS, { command: "grep -rl snarf /" }))).toBe("/snippets/limits.mdx\n");
    await c.close();
  });

  it("removes a deleted page from the filesystem and search", async () => {
    const c = await connect(runtime);
    rmSync(join(tmp.dir, "guides", "webhooks.mdx"));
    await afterReloads(async () => !c.text(await c.call(FS, { command: "ls /guides" })).includes("webhooks.mdx"));
    const r = (await c.call(SEARCH, { query: "webhook signature retries" })).structuredContent as { results: { path: string }[] };
    expect(r.results.map((x) => x.path)).not.toContain("/guides/webhooks");
    await c.close();
  });

  it("keeps the last good version of a page whose front matter breaks", async () => {
    const c = await connect(runtime);
    const before = c.text(await c.call(FS, { command: "cat /quickstart.mdx" }));
    writeFileSync(join(tmp.dir, "quickstart.mdx"), "---\ntitle: [unclosed\n---\n\nbroken\n");
    await untilLogged((l) => l.includes("quickstart.mdx"));
    expect(logs.at(-1)).toBe("quickstart.mdx:3 warning: skipped: invalid front matter: unexpected end of the stream within a flow collection (keeping the last good version)");
    expect(c.text(await c.call(FS, { command: "cat /quickstart.mdx" }))).toBe(before);
    await c.close();
  });

  it("applies a .svcignore change", async () => {
    const c = await connect(runtime);
    writeFileSync(join(tmp.dir, ".svcignore"), "drafts/\nguides/webhooks.mdx\n");
    await afterReloads(async () => !c.text(await c.call(FS, { command: "ls /guides" })).includes("webhooks.mdx"));
    // Content with no rules (an emptied one keeps its last good rules: test/vfs/ignore-emptied.test.ts).
    writeFileSync(join(tmp.dir, ".svcignore"), "# nothing ignored now\n");
    await afterReloads(async () => c.text(await c.call(FS, { command: "ls /" })).includes("drafts"));
    await c.close();
  });

  it("renames tools when docs.json renames the site, and keeps serving through an invalid docs.json", async () => {
    // A reader of the whole site: where JSON breaks tells where restricted navigation is, so a
    // reader of part of the site is not told (adversary round 12 F1; the log keeps it).
    const c = await connect(runtime, ALL_ACCESS);
    const messages: string[] = [];
    const toolsChanged = notifications(c.client, ToolListChangedNotificationSchema);
    const logMessage = notifications(c.client, LoggingMessageNotificationSchema, (n) => {
      const { params } = n as { params: { level: string; data: unknown } };
      messages.push(`${params.level}: ${String(params.data)}`);
    });
    const path = join(tmp.dir, "docs.json");
    writeFileSync(path, '{ "name": "Nimbus", "navigation": ');
    await logMessage;
    expect(messages[0]).toMatch(/^error: docs\.json/);
    expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual([SEARCH, FS]);
    writeFileSync(path, JSON.stringify({ name: "Cirrus", navigation: { pages: ["index"] } }));
    await toolsChanged;
    expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(["search_cirrus", "query_docs_filesystem_cirrus"]);
    await c.close();
  });
});
