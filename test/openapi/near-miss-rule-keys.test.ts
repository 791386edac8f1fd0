/**
 * Near-miss spellings of an operation's rule (`x-SVC`, `"x-svc "`, `Metadata`, `"metadata "`,
 * `"groups "`, `x-mint: {METADATA}`, a zero-width character inside) were read as no rule, so
 * the operation was every reader's with no warning. Each is now read as the rule (fail closed,
 * as a page's near-miss `groups` is, security row 198) and `check` says to rename it. A
 * `public: "true"` string is read as a page's is (true), and `check` now says so.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const ZW = "\u200B";
const op = (summary: string, extension?: Record<string, unknown>): Record<string, unknown> => ({ get: { summary, description: `Zebrafinch ${summary}.`, responses: { "200": { description: "Done" } }, ...extension } });
const staff = { groups: ["staff"] };
const SPEC = {
  openapi: "3.1.0",
  info: { title: "Ops", version: "1" },
  paths: {
    "/a": op("Upper A", { "x-SVC": { metadata: staff } }),
    "/b": op("Spaced B", { "x-svc ": { metadata: staff } }),
    "/c": op("Meta C", { "x-svc": { Metadata: staff } }),
    "/d": op("Meta D", { "x-svc": { "metadata ": staff } }),
    "/e": op("Groups E", { "x-svc": { metadata: { "groups ": ["staff"] } } }),
    "/f": op("Mint F", { "x-mint": { METADATA: staff } }),
    "/g": op("Hidden G", { [`x-${ZW}svc`]: { [`meta${ZW}data`]: { [`gr${ZW}oups`]: ["staff"] } } }),
    // Not a list of groups: no reader, as a page's unreadable `groups` is.
    "/h": op("Nobody H", { "x-svc": { metadata: { Groups: 7 } } }),
    "/i": op("Open I", { "x-svc": { metadata: { groups: ["staff"], public: "true" } } }),
    "/j": op("Open J"),
  },
};

describe("near-miss spellings of an operation's x-svc rule", () => {
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
  const run = async (reader: Reader): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run("jq -c '.paths | keys' /api/openapi.json; ls /api-reference")).stdout;
  const search = async (reader: Reader): Promise<string[]> => (await runtime.search(localContext(reader), { query: "Zebrafinch" })).map((h) => h.page.path).sort();

  it("restrict the operation, for the page, the spec file and search", async () => {
    expect(await run(ANONYMOUS)).toBe('["/i","/j"]\nopen-i.mdx\nopen-j.mdx\n');
    expect(await search(ANONYMOUS)).toEqual(["/api-reference/open-i", "/api-reference/open-j"]);
    expect(await run(readerWithGroups(["staff"]))).toBe(
      '["/a","/b","/c","/d","/e","/f","/g","/i","/j"]\ngroups-e.mdx\nhidden-g.mdx\nmeta-c.mdx\nmeta-d.mdx\nmint-f.mdx\nopen-i.mdx\nopen-j.mdx\nspaced-b.mdx\nupper-a.mdx\n',
    );
    expect(await search(readerWithGroups(["staff"]))).toEqual(
      ["groups-e", "hidden-g", "meta-c", "meta-d", "mint-f", "open-i", "open-j", "spaced-b", "upper-a"].map((s) => `/api-reference/${s}`),
    );
  });

  it("check names each key by its JSON pointer and says to rename it", () => {
    const tail = "restricting the part to the groups it names (to no reader if it names none); the hosted platform reads only a key written exactly";
    expect(runtime.site.diagnostics.map((d) => `${d.severity} ${d.file} ${d.code ?? ""}: ${d.message}`)).toEqual([
    `warning api/openapi.json api-unreadable-rule: the key "x-SVC" at #/paths/~1a/get is read as x-svc, ${tail} x-svc and would show the part to everyone: rename the key`,
    `warning api/openapi.json api-unreadable-rule: the key "x-svc " at #/paths/~1b/get is read as x-svc, ${tail} x-svc and would show the part to everyone: rename the key`,
    `warning api/openapi.json api-unreadable-rule: the key "Metadata" at #/paths/~1c/get/x-svc is read as metadata, ${tail} metadata and would show the part to everyone: rename the key`,
    `warning api/openapi.json api-unreadable-rule: the key "metadata " at #/paths/~1d/get/x-svc is read as metadata, ${tail} metadata and would show the part to everyone: rename the key`,
    `warning api/openapi.json api-unreadable-rule: the key "groups " at #/paths/~1e/get/x-svc/metadata is read as groups, ${tail} groups and would show the part to everyone: rename the key`,
    `warning api/openapi.json api-unreadable-rule: the key "METADATA" at #/paths/~1f/get/x-mint is read as metadata, ${tail} metadata and would show the part to everyone: rename the key`,
    `warning api/openapi.json api-unreadable-rule: the key "x-\\u200Bsvc" at #/paths/~1g/get is read as x-svc, ${tail} x-svc and would show the part to everyone: rename the key`,
    `warning api/openapi.json api-unreadable-rule: the key "meta\\u200Bdata" at #/paths/~1g/get/x-\\u200Bsvc is read as metadata, ${tail} metadata and would show the part to everyone: rename the key`,
    `warning api/openapi.json api-unreadable-rule: the key "gr\\u200Boups" at #/paths/~1g/get/x-\\u200Bsvc/meta\\u200Bdata is read as groups, ${tail} groups and would show the part to everyone: rename the key`,
    `warning api/openapi.json api-unreadable-rule: the key "Groups" at #/paths/~1h/get/x-svc/metadata is read as groups, ${tail} groups and would show the part to everyone: rename the key`,
      'warning api/openapi.json api-unreadable-rule: #/paths/~1i/get/x-svc/metadata/public: public must be true or false; got "true"; read as true: the part is readable by anyone, whatever its groups',
      "warning api/openapi.json api-unreadable-rule: x-svc metadata.groups of paths./h.get cannot be read or names no group (an x-svc/x-mint object whose metadata.groups is a list of group names or a comma-separated string): the part is restricted to no reader until it is fixed",
    ]);
  });
});
