/**
 * Adversary round 63 F3: near-miss spellings of a rule key that row 198's fold (case, white space,
 * format characters) did not catch: the singular `group`, fullwidth `ｇｒｏｕｐｓ`, `grоups` with a
 * Cyrillic о. The page (or operation) was every reader's and `check` said nothing. Keys are now
 * decomposed (NFKD) and look-alike letters of other scripts read as Latin ones before folding, and
 * `group` is a near miss of `groups` (`lookalikeOf`, src/config/rule-key-fold.ts), for page front
 * matter and for an API spec's `x-svc`/`metadata`/`groups` alike. Through the SDK client
 * (anonymous and staff) and `check`'s whole output.
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
import { writeRepo } from "../openapi/helpers.js";

/** Each key, by the page it restricts. */
const KEYS: Record<string, string> = {
  singular: "group",
  fullwidth: "\uFF47\uFF52\uFF4F\uFF55\uFF50\uFF53",
  cyrillic: "gr\u043Eups",
  "greek-upper": "GR\u039FUPS",
  "math-bold": "\u{1D420}\u{1D42B}\u{1D428}\u{1D42E}\u{1D429}\u{1D42C}",
};

describe("a page's groups key written with look-alike letters, or as group", () => {
  let dir = "";
  let runtime: DocsRuntime;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "groups-confusable-"));
    writeFileSync(join(dir, "docs.json"), JSON.stringify({ name: "Keys", navigation: { pages: ["index", ...Object.keys(KEYS)] } }));
    writeFileSync(join(dir, "index.mdx"), "---\ntitle: Home\n---\n\nWelcome.\n");
    for (const [name, key] of Object.entries(KEYS)) writeFileSync(join(dir, `${name}.mdx`), `---\ntitle: Pay ${name}\n${key}: ["staff"]\n---\n\nCONFIDENTIAL ${name}.\n`);
    runtime = await DocsRuntime.load({ root: dir });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("restricts the page: the anonymous reader sees none of it, staff see all", async () => {
    const anon = await connect(runtime);
    expect(anon.text(await anon.call("query_docs_filesystem_keys", { command: "ls /; rg -c CONFIDENTIAL /; cat /singular.mdx" }))).toBe(
      "index.mdx\nskill.md\ncat: /singular.mdx: No such file or directory\n[exit code 1]",
    );
    expect(((await anon.call("search_keys", { query: "CONFIDENTIAL" })).structuredContent as { results: unknown[] }).results).toEqual([]);
    await anon.close();
    const staff = await connect(runtime, readerWithGroups(["staff"]));
    expect(staff.text(await staff.call("query_docs_filesystem_keys", { command: "ls /" }))).toBe("cyrillic.mdx\nfullwidth.mdx\ngreek-upper.mdx\nindex.mdx\nmath-bold.mdx\nsingular.mdx\nskill.md\n");
    await staff.close();
  });

  it("check says each key is read as groups and the platform would not", async () => {
    const r = await runCli(["check", "--dir", dir]);
    const why = "warning: is read as `groups` here, restricting the page to the groups it names; the platform reads only a key written exactly `groups` and would serve the page to everyone: rename the key";
    expect(r.stdout).toBe(
      [
        // Each key past ASCII escaped, so its author sees it is not `groups` as written.
        `cyrillic.mdx:3 gr\\u043Eups: ${why}`,
        `fullwidth.mdx:3 \\uFF47\\uFF52\\uFF4F\\uFF55\\uFF50\\uFF53: ${why}`,
        `greek-upper.mdx:3 GR\\u039FUPS: ${why}`,
        `math-bold.mdx:3 \\u{1D420}\\u{1D42B}\\u{1D428}\\u{1D42E}\\u{1D429}\\u{1D42C}: ${why}`,
        `singular.mdx:3 group: ${why}`,
        "checked docs.json and 6 pages: 0 errors, 5 warnings",
        "",
      ].join("\n"),
    );
  });
});

const op = (summary: string, extension: Record<string, unknown> = {}): Record<string, unknown> => ({ get: { summary, description: `Zebrafinch ${summary}.`, responses: { "200": { description: "Done" } }, ...extension } });
const staff = { groups: ["staff"] };
const SPEC = {
  openapi: "3.1.0",
  info: { title: "Ops", version: "1" },
  paths: {
    "/a": op("Cyrillic A", { "x-\u0455vc": { metadata: staff } }),
    // Not an `x-` key to the OpenAPI schema: the operation is skipped (served to no reader), and its key named too.
    "/b": op("Wide B", { "\uFF58\uFF0D\uFF53\uFF56\uFF43": { metadata: staff } }),
    "/c": op("Meta C", { "x-svc": { "\uFF4D\uFF45\uFF54\uFF41\uFF44\uFF41\uFF54\uFF41": staff } }),
    "/d": op("Group D", { "x-svc": { metadata: { group: ["staff"] } } }),
    "/e": op("Greek E", { "x-mint": { metadata: { "gr\u03BFups": ["staff"] } } }),
    "/f": op("Open F"),
  },
};

describe("an operation's x-svc, metadata or groups key written with look-alike letters, or as group", () => {
  let root: string;
  let runtime: DocsRuntime;
  beforeAll(async () => {
    root = writeRepo({ "docs.json": { name: "Acme", navigation: { groups: [{ group: "API", openapi: "api/openapi.json" }] } }, "api/openapi.json": SPEC });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(async () => {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("restricts the operation: its page, the spec file and search", async () => {
    const anon = await connect(runtime);
    expect(anon.text(await anon.call("query_docs_filesystem_acme", { command: "jq -c '.paths | keys' /api/openapi.json; ls /api-reference" }))).toBe('["/f"]\nopen-f.mdx\n');
    expect((await runtime.search(localContext(readerWithGroups([])), { query: "Zebrafinch" })).map((h) => h.page.path)).toEqual(["/api-reference/open-f"]);
    await anon.close();
    const all = (await runtime.search(localContext(readerWithGroups(["staff"])), { query: "Zebrafinch" })).map((h) => h.page.path).sort();
    expect(all).toEqual(["cyrillic-a", "greek-e", "group-d", "meta-c", "open-f"].map((s) => `/api-reference/${s}`));
  });

  it("check names each key by its JSON pointer and says to rename it", () => {
    const tail = "restricting the part to the groups it names (to no reader if it names none); the hosted platform reads only a key written exactly";
    // The key written with its letters past ASCII escaped (as a page's front matter key is): the
    // look-alike letter shows.
    const near = (key: string, at: string, name: string) => `warning api/openapi.json api-unreadable-rule: the key "${key}" at ${at} is read as ${name}, ${tail} ${name} and would show the part to everyone: rename the key`;
    expect(runtime.site.diagnostics.map((d) => `${d.severity} ${d.file} ${d.code ?? ""}: ${d.message}`)).toEqual([
      near("x-\\u0455vc", "#/paths/~1a/get", "x-svc"),
      near("\\uFF58\\uFF0D\\uFF53\\uFF56\\uFF43", "#/paths/~1b/get", "x-svc"),
      near("\\uFF4D\\uFF45\\uFF54\\uFF41\\uFF44\\uFF41\\uFF54\\uFF41", "#/paths/~1c/get/x-svc", "metadata"),
      near("group", "#/paths/~1d/get/x-svc/metadata", "groups"),
      near("gr\\u03BFups", "#/paths/~1e/get/x-mint/metadata", "groups"),
      'warning api/openapi.json api-operation-skipped: GET /b skipped: invalid operation ((operation): unknown property "\uFF58\uFF0D\uFF53\uFF56\uFF43")',
    ]);
  });

  it("check prints each whole warning line with the key's letters past ASCII escaped", async () => {
    const r = await runCli(["check", "--dir", root]);
    const rest = "restricting the part to the groups it names (to no reader if it names none); the hosted platform reads only a key written exactly";
    expect(r.stdout).toBe(
      [
        `api/openapi.json:17:9 warning: the key "x-\\u0455vc" at #/paths/~1a/get is read as x-svc, ${rest} x-svc and would show the part to everyone: rename the key`,
        // The schema validator's message quotes the key as written (not a rule key's warning).
        'api/openapi.json:27:7 paths./b.get: warning: GET /b skipped: invalid operation ((operation): unknown property "\uFF58\uFF0D\uFF53\uFF56\uFF43")',
        `api/openapi.json:35:9 warning: the key "\\uFF58\\uFF0D\\uFF53\\uFF56\\uFF43" at #/paths/~1b/get is read as x-svc, ${rest} x-svc and would show the part to everyone: rename the key`,
        `api/openapi.json:54:11 warning: the key "\\uFF4D\\uFF45\\uFF54\\uFF41\\uFF44\\uFF41\\uFF54\\uFF41" at #/paths/~1c/get/x-svc is read as metadata, ${rest} metadata and would show the part to everyone: rename the key`,
        `api/openapi.json:73:13 warning: the key "group" at #/paths/~1d/get/x-svc/metadata is read as groups, ${rest} groups and would show the part to everyone: rename the key`,
        `api/openapi.json:91:13 warning: the key "gr\\u03BFups" at #/paths/~1e/get/x-mint/metadata is read as groups, ${rest} groups and would show the part to everyone: rename the key`,
        "checked docs.json and 0 pages (+5 generated from API specs): 0 errors, 6 warnings",
        "",
      ].join("\n"),
    );
  });
});
