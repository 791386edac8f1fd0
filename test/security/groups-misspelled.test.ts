/**
 * Security row 213's residue: common misspellings of `groups` (`grups`, `groupes`, `gruops`,
 * `goups`, `groupss`) and of `metadata` in an operation's `x-svc` were unknown keys, so the page
 * or operation was every reader's and `check` said nothing. A key within two edits of `groups` or
 * `metadata` that is no known front matter key is now a near miss (`lookalikeOf`,
 * src/config/rule-key-fold.ts): read as the key (fail closed) with the near-miss warning. Real
 * keys (`title`, `tag`, `order`, `section`...) are not. Through the SDK client and `check`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";

const KEYS = ["grups", "groupes", "gruops", "goups", "groupss"];

const SPEC = {
  openapi: "3.1.0",
  info: { title: "Ops", version: "1" },
  paths: {
    "/a": { get: { summary: "Meta A", responses: { "200": { description: "Done" } }, "x-svc": { metdata: { groups: ["staff"] } } } },
    "/b": { get: { summary: "Grups B", responses: { "200": { description: "Done" } }, "x-svc": { metadata: { grups: ["staff"] } } } },
    "/c": { get: { summary: "Open C", responses: { "200": { description: "Done" } } } },
  },
};

describe("a page's groups key, or an operation's metadata or groups key, misspelled", () => {
  let dir = "";
  let runtime: DocsRuntime;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "groups-misspelled-"));
    writeFileSync(join(dir, "docs.json"), JSON.stringify({ name: "Keys", navigation: { groups: [{ group: "G", pages: ["index", "real", ...KEYS] }, { group: "API", openapi: "openapi.json" }] } }));
    writeFileSync(join(dir, "index.mdx"), "---\ntitle: Home\n---\n\nWelcome.\n");
    // The keys real sites write, none read as a rule.
    writeFileSync(join(dir, "real.mdx"), "---\ntitle: Real\ndescription: D\nsidebarTitle: R\ntag: NEW\nicon: book\nmode: wide\nkeywords: [a]\nsection: s\norder: 1\n---\n\nOpen.\n");
    for (const key of KEYS) writeFileSync(join(dir, `${key}.mdx`), `---\ntitle: Pay ${key}\n${key}: ["staff"]\n---\n\nCONFIDENTIAL ${key}.\n`);
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(SPEC, null, 2));
    runtime = await DocsRuntime.load({ root: dir });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("restricts each page and operation: the anonymous reader sees none of them, staff see all", async () => {
    const anon = await connect(runtime);
    expect(anon.text(await anon.call("query_docs_filesystem_keys", { command: "ls / /api-reference; rg -c CONFIDENTIAL /" }))).toBe(
      "/:\napi-reference\nindex.mdx\nopenapi.json\nreal.mdx\nskill.md\n\n/api-reference:\nopen-c.mdx\n[exit code 1]",
    );
    await anon.close();
    const staff = await connect(runtime, readerWithGroups(["staff"]));
    expect(staff.text(await staff.call("query_docs_filesystem_keys", { command: "ls / /api-reference" }))).toBe(
      "/:\napi-reference\ngoups.mdx\ngroupes.mdx\ngroupss.mdx\ngruops.mdx\ngrups.mdx\nindex.mdx\nopenapi.json\nreal.mdx\nskill.md\n\n/api-reference:\ngrups-b.mdx\nmeta-a.mdx\nopen-c.mdx\n",
    );
    await staff.close();
    expect((await runtime.readerState(localContext(readerWithGroups([]))).shell.run("ls /")).stdout).toBe("api-reference\nindex.mdx\nopenapi.json\nreal.mdx\nskill.md\n");
  });

  it("check says each key is read as groups (or metadata) and the platform would not", async () => {
    const r = await runCli(["check", "--dir", dir]);
    const why = "warning: is read as `groups` here, restricting the page to the groups it names; the platform reads only a key written exactly `groups` and would serve the page to everyone: rename the key";
    const spec = (line: string, key: string, at: string, name: string): string =>
      `openapi.json:${line} warning: the key "${key}" at ${at} is read as ${name}, restricting the part to the groups it names (to no reader if it names none); the hosted platform reads only a key written exactly ${name} and would show the part to everyone: rename the key`;
    expect(r.stdout).toBe(
      [
        ...[...KEYS].sort().map((key) => `${key}.mdx:3 ${key}: ${why}`),
        spec("17:11", "metdata", "#/paths/~1a/get/x-svc", "metadata"),
        spec("35:13", "grups", "#/paths/~1b/get/x-svc/metadata", "groups"),
        "checked docs.json and 7 pages (+3 generated from API specs): 0 errors, 7 warnings",
        "",
      ].join("\n"),
    );
  });
});
