import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { copyToTemp, fixture } from "../helpers/paths.js";

/**
 * Edits that restrict content, made while serving to files the site reads only through another
 * (issue 25, F2 and F3): a spec's `$ref`'d file (any depth, through a link) and the target of an
 * ignore file that is a link. Each edit must reload what read it: an anonymous reader's listing
 * and search, asserted whole after the reload the edit caused (the runtime's change event).
 */

let tmp: { dir: string; cleanup: () => void } | undefined;
let runtime: DocsRuntime | undefined;
afterEach(async () => {
  await runtime?.close();
  tmp?.cleanup();
  runtime = undefined;
  tmp = undefined;
});

const FS = "query_docs_filesystem_nimbus_storage";
const SEARCH = "search_nimbus_storage";

const ROOT_SPEC = 'openapi: 3.0.3\ninfo: {title: Nimbus API, version: "1.0"}\npaths:\n  /buckets:\n    get:\n      summary: List buckets\n      responses: {"200": {description: ok}}\n  /admin/purge:\n    $ref: paths/purge.yaml\n';
const PURGE = 'post:\n  summary: Purge cluster\n  description: OTTERPURGE wipes every node.\n  responses: {"200": {description: ok}}\n';

/** The demo site with an API group whose spec `$ref`s its purge operation's path item from `api/paths/purge.yaml`; `setup` changes it before the load. */
async function serve(setup: (root: string) => void = () => {}): Promise<string> {
  tmp = copyToTemp(fixture("demo"));
  const root = tmp.dir;
  const docsPath = join(root, "docs.json");
  const docs = JSON.parse(readFileSync(docsPath, "utf8")) as { navigation: { tabs: { groups: object[] }[] } };
  docs.navigation.tabs[1]?.groups.push({ group: "Endpoints", openapi: "api/openapi.yaml" });
  writeFileSync(docsPath, JSON.stringify(docs));
  mkdirSync(join(root, "api/paths"));
  writeFileSync(join(root, "api/openapi.yaml"), ROOT_SPEC);
  writeFileSync(join(root, "api/paths/purge.yaml"), PURGE);
  setup(root);
  // As `serve` starts: watching before the load, then from the watch on.
  runtime = await DocsRuntime.load({ root, watch: true });
  await runtime.watch();
  return root;
}

/** Write a file whole in one step (a rename from a folder that is not watched): one change, one reload. */
function replace(root: string, rel: string, text: string): void {
  mkdirSync(join(root, ".tmp"), { recursive: true });
  writeFileSync(join(root, ".tmp/next"), text);
  renameSync(join(root, ".tmp/next"), join(root, rel));
}

/** Resolves at the runtime's next reload. */
function nextReload(): Promise<void> {
  const r = runtime as DocsRuntime;
  return new Promise((resolve) => {
    const stop = r.onChange(() => {
      stop();
      resolve();
    });
  });
}

/** What an anonymous reader sees of the purge operation. */
async function anonymousView(): Promise<unknown> {
  const c = await connect(runtime as DocsRuntime);
  try {
    const hits = (await c.call(SEARCH, { query: "otterpurge" })).structuredContent as { results: { path: string }[] };
    return { ls: c.text(await c.call(FS, { command: "ls /api-reference" })), rg: c.text(await c.call(FS, { command: "rg -il otterpurge /" })), search: hits.results.map((h) => h.path) };
  } finally {
    await c.close();
  }
}

const SEEN = { ls: "list-buckets.mdx\npurge-cluster.mdx\n", rg: "/api-reference/purge-cluster.mdx\n", search: ["/api-reference/purge-cluster"] };
const HIDDEN = { ls: "list-buckets.mdx\n", rg: "[exit code 1]", search: [] };
const RESTRICTED = 'post:\n  summary: Purge cluster\n  x-svc: {metadata: {groups: [staff]}}\n  description: OTTERPURGE wipes every node.\n  responses: {"200": {description: ok}}\n';

describe("a spec's $ref'd files, changed while serving (issue 25, F2)", () => {
  it("restricting the operation in the $ref'd file hides it from an anonymous reader", async () => {
    const root = await serve();
    expect(await anonymousView()).toEqual(SEEN);
    const reloaded = nextReload();
    replace(root, "api/paths/purge.yaml", RESTRICTED);
    await reloaded;
    expect(await anonymousView()).toEqual(HIDDEN);
  });

  it("so does x-mint in the $ref'd file when it is a link into another folder", async () => {
    const root = await serve((r) => {
      mkdirSync(join(r, "shared"));
      renameSync(join(r, "api/paths/purge.yaml"), join(r, "shared/purge.yaml"));
      symlinkSync("../../shared/purge.yaml", join(r, "api/paths/purge.yaml"));
    });
    expect(await anonymousView()).toEqual(SEEN);
    const reloaded = nextReload();
    replace(root, "shared/purge.yaml", RESTRICTED.replace("x-svc", "x-mint"));
    await reloaded;
    expect(await anonymousView()).toEqual(HIDDEN);
  });

  it("restricting the operation in a JSON file the $ref'd file $refs in turn hides it", async () => {
    const root = await serve((r) => {
      mkdirSync(join(r, "ops"));
      writeFileSync(join(r, "ops/purge.json"), JSON.stringify({ summary: "Purge cluster", description: "OTTERPURGE wipes every node.", responses: { "200": { description: "ok" } } }));
      writeFileSync(join(r, "api/paths/purge.yaml"), 'post: {$ref: "../../ops/purge.json"}\n');
    });
    expect(await anonymousView()).toEqual(SEEN);
    const reloaded = nextReload();
    replace(root, "ops/purge.json", JSON.stringify({ summary: "Purge cluster", "x-svc": { metadata: { groups: ["staff"] } }, description: "OTTERPURGE wipes every node.", responses: { "200": { description: "ok" } } }));
    await reloaded;
    expect(await anonymousView()).toEqual(HIDDEN);
  });
});

describe("an ignore file that is a link, its target changed while serving (issue 25, F3)", () => {
  // A target in a dot-folder too, which the watcher watches for that file alone.
  it.each([
    [".svcignore", "rules/main.txt"],
    [".mintignore", "rules/main.txt"],
    [".svcignore", ".rules/main.txt"],
  ])("%s -> %s: a line added to the target excludes the page", async (name, target) => {
    const root = await serve((r) => {
      rmSync(join(r, ".svcignore"));
      mkdirSync(join(r, target.split("/")[0] as string));
      writeFileSync(join(r, target), "drafts/\n");
      symlinkSync(target, join(r, name));
    });
    const c = await connect(runtime as DocsRuntime);
    const before = (await c.call(SEARCH, { query: "exponential backoff deliveries" })).structuredContent as { results: { path: string }[] };
    expect({ ls: c.text(await c.call(FS, { command: "ls /guides" })), search: before.results.map((h) => h.path) }).toEqual({ ls: "access-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n", search: ["/guides/webhooks"] });
    const reloaded = nextReload();
    appendFileSync(join(root, target), "guides/webhooks.mdx\n");
    await reloaded;
    const hits = (await c.call(SEARCH, { query: "exponential backoff deliveries" })).structuredContent as { results: { path: string }[] };
    expect({ ls: c.text(await c.call(FS, { command: "ls /guides" })), search: hits.results.map((h) => h.path) }).toEqual({ ls: "access-control.mdx\nuploading-files.mdx\n", search: [] });
    await c.close();
  });
});

describe("a link met on the way to a configuration file, retargeted while serving (adversary round 11 F1)", () => {
  it.each([
    // A middle link of a chain: .svcignore -> a.txt -> b.txt, a.txt retargeted to c.txt.
    ["a chain's middle link", (r: string) => {
      writeFileSync(join(r, "b.txt"), "nothing-matches-this\n");
      writeFileSync(join(r, "c.txt"), "guides/webhooks.mdx\n");
      symlinkSync("b.txt", join(r, "a.txt"));
      symlinkSync("a.txt", join(r, ".svcignore"));
    }, (r: string) => retarget(r, "a.txt", "c.txt")],
    // A folder link among the parents: .svcignore -> cfg/main.txt, cfg -> cfgA retargeted to cfgB.
    ["a folder link among the parents", (r: string) => {
      for (const [folder, text] of [["cfgA", "nothing-matches-this\n"], ["cfgB", "guides/webhooks.mdx\n"]] as const) {
        mkdirSync(join(r, folder));
        writeFileSync(join(r, folder, "main.txt"), text);
      }
      symlinkSync("cfgA", join(r, "cfg"));
      symlinkSync("cfg/main.txt", join(r, ".svcignore"));
    }, (r: string) => retarget(r, "cfg", "cfgB")],
  ])("the ignore file through %s: the retarget excludes the page", async (_name, setup, change) => {
    const root = await serve((r) => {
      rmSync(join(r, ".svcignore"));
      setup(r);
    });
    const c = await connect(runtime as DocsRuntime);
    expect(c.text(await c.call(FS, { command: "ls /guides" }))).toBe("access-control.mdx\nuploading-files.mdx\nwebhooks.mdx\n");
    const reloaded = nextReload();
    change(root);
    await reloaded;
    const hits = (await c.call(SEARCH, { query: "exponential backoff deliveries" })).structuredContent as { results: { path: string }[] };
    expect({ ls: c.text(await c.call(FS, { command: "ls /guides" })), search: hits.results.map((h) => h.path) }).toEqual({ ls: "access-control.mdx\nuploading-files.mdx\n", search: [] });
    await c.close();
  });

  it("a spec's $ref'd file through a folder link: retargeting the folder link restricts the operation", async () => {
    const root = await serve((r) => {
      for (const [folder, text] of [["partsA", PURGE], ["partsB", RESTRICTED]] as const) {
        mkdirSync(join(r, folder));
        writeFileSync(join(r, folder, "purge.yaml"), text);
      }
      rmSync(join(r, "api/paths"), { recursive: true });
      symlinkSync("../partsA", join(r, "api/paths"));
    });
    expect(await anonymousView()).toEqual(SEEN);
    const reloaded = nextReload();
    retarget(root, "api/paths", "../partsB");
    await reloaded;
    expect(await anonymousView()).toEqual(HIDDEN);
  });

  it("docs.json's spec through a chain: retargeting the middle link restricts the operation", async () => {
    const root = await serve((r) => {
      mkdirSync(join(r, "specB"));
      const inline = RESTRICTED.split("\n").map((line) => (line === "" ? line : `    ${line}`)).join("\n");
      writeFileSync(join(r, "specB/openapi.yaml"), ROOT_SPEC.replace("    $ref: paths/purge.yaml\n", inline));
      renameSync(join(r, "api/openapi.yaml"), join(r, "api/real.yaml"));
      symlinkSync("api/real.yaml", join(r, "mid.yaml"));
      symlinkSync("../mid.yaml", join(r, "api/openapi.yaml"));
    });
    expect(await anonymousView()).toEqual(SEEN);
    const reloaded = nextReload();
    retarget(root, "mid.yaml", "specB/openapi.yaml");
    await reloaded;
    expect(await anonymousView()).toEqual(HIDDEN);
  });
});

/** Point a link elsewhere in one step (a new link renamed over it), as a deploy does. */
function retarget(root: string, rel: string, target: string): void {
  mkdirSync(join(root, ".tmp"), { recursive: true });
  symlinkSync(target, join(root, ".tmp/link"));
  renameSync(join(root, ".tmp/link"), join(root, rel));
}
