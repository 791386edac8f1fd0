import { appendFileSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect, it } from "vitest";
import { DocsRuntime, type RuntimeChange } from "../../src/engine/runtime.js";
import { ALL_ACCESS, ANONYMOUS, type Reader } from "../../src/vfs/access.js";
import { connect } from "../helpers/mcp.js";
import { copyToTemp, fixture } from "../helpers/paths.js";
import { reloadShowing } from "../helpers/reload-showing.js";

/**
 * Reload diagnostics a live (stdio) server sends its reader (adversary round 12 F1-F4): deny by
 * default. The anonymous reader of the leak site (staff, partners and unreadable rules) is sent a
 * finding only when it declares what it names and they read all of it whole, and only once; a
 * reader of the whole site (a client credential) and the log (stderr) still get every finding.
 * The server is the one `serve` runs over stdio, with the SDK's client; a request answered after
 * the reload is the fence: a message the reload sent comes before it.
 */

let tmp: { dir: string; cleanup: () => void } | undefined;
let runtime: DocsRuntime | undefined;
afterEach(async () => {
  await runtime?.close();
  tmp?.cleanup();
  runtime = undefined;
  tmp = undefined;
});

interface Listener {
  readonly heard: string[];
  readonly fence: () => Promise<unknown>;
  readonly close: () => Promise<void>;
}

async function setUp(): Promise<{ root: string; log: string[]; anonymous: Listener; full: Listener }> {
  tmp = copyToTemp(fixture("leak-site"));
  const log: string[] = [];
  runtime = await DocsRuntime.load({ root: tmp.dir, watch: true, log: (line) => void log.push(line) });
  await runtime.watch();
  return { root: tmp.dir, log, anonymous: await listen(ANONYMOUS), full: await listen(ALL_ACCESS) };
}

async function listen(reader: Reader): Promise<Listener> {
  const c = await connect(runtime as DocsRuntime, reader);
  const heard: string[] = [];
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.push(String(n.params.data)));
  return { heard, fence: () => c.client.listTools(), close: () => c.close() };
}

/**
 * Make a change and wait for its reload, then for both readers' fences. An edit of two files
 * names the reload that read both (`until`): they may settle, and be reloaded, apart.
 */
async function change(readers: readonly Listener[], edit: () => void, until: (change: RuntimeChange) => boolean = () => true): Promise<void> {
  const reloaded = reloadShowing(runtime as DocsRuntime, until);
  edit();
  await reloaded;
  for (const reader of readers) await reader.fence();
}

type Group = { pages: unknown[] };
type Nav = { navigation: { versions: { default?: unknown; groups?: Group[]; tabs?: { groups: (Group | Record<string, unknown>)[] }[] }[] } };

/** The pages of the first group of tab `tab` in the first version. */
function tabPages(docs: Nav, tab: number): unknown[] {
  return (docs.navigation.versions[0]?.tabs?.[tab]?.groups[0] as Group).pages;
}

function editDocsJson(root: string, edit: (docs: Nav) => void): void {
  const docs = JSON.parse(readFileSync(join(root, "docs.json"), "utf8")) as Nav;
  edit(docs);
  writeFileSync(join(root, "docs.json"), JSON.stringify(docs, null, 2));
}

it("F1: a staff-only version's page listed again (./preview/feature) and its settings name nothing to the anonymous reader", async () => {
  const { root, log, anonymous, full } = await setUp();
  await change([anonymous, full], () =>
    editDocsJson(root, (docs) => {
      const staff = docs.navigation.versions[1];
      staff?.groups?.[0]?.pages.push("./preview/feature", "/preview/feature.mdx");
      if (staff !== undefined) staff.default = "LEAKMARKER_verdefault_staff";
    }),
  );
  expect(anonymous.heard).toEqual([]);
  for (const told of [full.heard, log]) {
    expect(told.some((line) => line.includes('page "./preview/feature" is listed twice in version "LEAKMARKER_version_staff"'))).toBe(true);
    expect(told.some((line) => line.includes('got "LEAKMARKER_verdefault_staff"'))).toBe(true);
  }
  await anonymous.close();
  await full.close();
});

it("F1b: problems inside a staff-only tab (a missing spec, a missing $ref file) name nothing to the anonymous reader", async () => {
  const { root, log, anonymous, full } = await setUp();
  await change([anonymous, full], () =>
    editDocsJson(root, (docs) => {
      const groups = docs.navigation.versions[0]?.tabs?.[1]?.groups;
      groups?.push({ group: "LEAKMARKER_apigroup_staff", openapi: "api/LEAKMARKER_missingspec_staff.yaml" }, { $ref: "nav/LEAKMARKER_navref_staff.json" });
    }),
  );
  expect(anonymous.heard).toEqual([]);
  for (const told of [full.heard, log]) {
    expect(told.some((line) => line.includes("api/LEAKMARKER_missingspec_staff.yaml"))).toBe(true);
    expect(told.some((line) => line.includes("nav/LEAKMARKER_navref_staff.json"))).toBe(true);
  }
  await anonymous.close();
  await full.close();
});

it("F2: spec warnings about restricted operations, and a deleted staff page listed twice, name nothing to the anonymous reader", async () => {
  const { root, log, anonymous, full } = await setUp();
  const spec = join(root, "api/store.yaml");
  // A staff-only operation edited, and a second public part pointing into it (a new warning).
  const ref = '          $ref: "#/paths/~1leakmarker_path_staff~1%7Bid%7D/get/responses/200"\n';
  await change([anonymous, full], () => writeFileSync(spec, readFileSync(spec, "utf8").replace("      x-svc:\n        metadata:\n          groups: [staff]\n", "$&      deprecated: true\n").replace(`"409":\n${ref}`, `$&        "410":\n${ref}`)));
  await change([anonymous, full], () => {
    writeFileSync(join(root, "internal/new.mdx"), "---\ntitle: New\ngroups: [staff]\n---\n\nx\n");
    editDocsJson(root, (docs) => void tabPages(docs, 1).push("internal/new", "internal/new"));
  }, (c) => c.site.files.has("/internal/new.mdx") && c.site.config.navPages.has("/internal/new"));
  await change([anonymous, full], () => unlinkSync(join(root, "internal/new.mdx")), (c) => !c.site.files.has("/internal/new.mdx"));
  expect(anonymous.heard).toEqual([]);
  for (const told of [full.heard, log]) {
    expect(told.some((line) => line.includes('page "internal/new" is listed twice in version "v2"'))).toBe(true);
  }
  for (const told of [full.heard, log]) expect(told.some((line) => line.includes("$ref at paths./orders.get.responses.410 points into #/paths/~1leakmarker_path_staff~1%7Bid%7D/"))).toBe(true);
  await anonymous.close();
  await full.close();
});

it("F3: a public page's finding is sent once; edits of a staff page, a staff snippet or an ignored draft send nothing", async () => {
  const { root, anonymous, full } = await setUp();
  // A standing docs.json warning (a public page listed twice) and a public page's broken front matter.
  await change([anonymous, full], () => editDocsJson(root, (docs) => void tabPages(docs, 0).push("index")));
  await change([anonymous, full], () => writeFileSync(join(root, "guides/search-tips.mdx"), "---\ntitle: [x\n---\nbody\n"));
  // Without the parser's words, which quote the new text (adversary round 57 F1): those only to a reader of the whole site.
  const frontMatter = "guides/search-tips.mdx:3 warning: skipped: invalid front matter";
  expect(anonymous.heard).toEqual([frontMatter]);
  expect(full.heard).toContain("guides/search-tips.mdx:3 warning: skipped: invalid front matter: unexpected end of the stream within a flow collection");
  const fullHeard = [...full.heard];
  expect(fullHeard.filter((line) => line.includes('page "index" is listed twice')).length).toBe(1);
  await change([anonymous, full], () => appendFileSync(join(root, "internal/runbook.mdx"), "\ny\n"));
  await change([anonymous, full], () => appendFileSync(join(root, "snippets/secret.mdx"), "\ny\n"));
  await change([anonymous, full], () => appendFileSync(join(root, "drafts/notes.mdx"), "\nx\n"));
  expect(anonymous.heard).toEqual([frontMatter]);
  expect(full.heard).toEqual(fullHeard);
  await anonymous.close();
  await full.close();
});

it("F4: links in staff-only folders (to .env, outside the repository) name nothing to the anonymous reader", async () => {
  const { root, log, anonymous, full } = await setUp();
  await change([anonymous, full], () => symlinkSync("../.env", join(root, "leakmarker_folder_staff/LEAKMARKER_linkname_staff.mdx")));
  await change([anonymous, full], () => symlinkSync("/etc/hostname", join(root, "internal/LEAKMARKER_outlink_staff.mdx")));
  expect(anonymous.heard).toEqual([]);
  for (const told of [full.heard, log]) {
    expect(told.some((line) => line.includes("leakmarker_folder_staff/LEAKMARKER_linkname_staff.mdx"))).toBe(true);
    expect(told.some((line) => line.includes("internal/LEAKMARKER_outlink_staff.mdx"))).toBe(true);
  }
  await anonymous.close();
  await full.close();
});

it("round 57 F1: a public page rewritten restricted with a front-matter error tells the anonymous reader it is broken, never the new text", async () => {
  const { root, log, anonymous, full } = await setUp();
  await change([anonymous, full], () => writeFileSync(join(root, "guides/search-tips.mdx"), "---\ntitle: Acquisition: Project LEAKMARKER_f1\ngroups: [staff]\n---\nbody\n"));
  const quoted = 'guides/search-tips.mdx:2 warning: skipped: invalid front matter: a value holding ": " must be quoted: title: "Acquisition: Project LEAKMARKER_f1"';
  // Who reads the file is decided by its last good (public) version; the new text is staff's.
  expect(anonymous.heard).toEqual(["guides/search-tips.mdx:2 warning: skipped: invalid front matter"]);
  expect(full.heard).toEqual([quoted]);
  expect(log).toContain(`${quoted} (keeping the last good version)`);
  await anonymous.close();
  await full.close();
});
