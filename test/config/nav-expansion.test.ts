import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ALL_ACCESS } from "../../src/vfs/access.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";
import { REPO } from "../helpers/paths.js";
import { tempRepo } from "./temp-repo.js";

// Adversary round 62 F1: four `$ref`s to the next file over ten small files stand for a million
// groups. The resolver built them all, and the validation, the rules and the warnings after it
// walked them: `check` ran past 4 GB without ending, and the same edit stalled a serving process
// for minutes. Now the entries are counted on the parsed files before anything is resolved, and
// past `LIMITS.config.maxNavigationEntries` docs.json is refused with one error, as one that does
// not parse is. No timing is asserted: before, `check` never ended (the kill below ends it and
// the exit code shows it); the limit only keeps a hang from reaching the suite's own detector.
const HANG = 240_000;
const LEVELS = 10;

/** n/n0.json .. n/n10.json: each level a group of four `$ref`s to the next, the last one page. */
function fanOut(levels: number): Record<string, object> {
  const files: Record<string, object> = {};
  for (let i = 0; i <= levels; i++) {
    const next = { $ref: `n${i + 1}.json` };
    files[`n/n${i}.json`] = i < levels ? { group: `G${i}`, pages: [next, next, next, next] } : { group: "L", pages: ["p"] };
  }
  return files;
}

const GOOD = { name: "X", navigation: { groups: [{ group: "G", pages: ["p"] }] } };
const EXPANDING = { name: "X", navigation: { groups: [{ group: "G", pages: ["p"] }, { $ref: "n/n0.json" }] } };
const ERROR =
  "docs.json:12:17 navigation.groups[1].$ref: navigation expands to more than 100,000 entries (a $ref'd file counts each time it is referenced; a spec's pages count in each group naming it): docs.json is not read";

describe("a docs.json whose $refs expand past the entry limit", () => {
  it(
    "svc-mcp check ends with one error at the $ref that brought it past, and exit 1",
    async () => {
      const root = tempRepo({ "docs.json": EXPANDING, "p.mdx": "---\ntitle: P\n---\nhi\n", ...fanOut(LEVELS) });
      const run = await new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [join(REPO, "bin/svc-mcp.js"), "check"], { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: root }, timeout: HANG - 20_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, signal: error?.signal ?? null, stdout, stderr }),
        );
      });
      expect(run).toEqual({ code: 1, signal: null, stdout: `${ERROR}\nchecked docs.json (+11 $ref files) and 1 page: 1 error, 0 warnings\n`, stderr: "" });
    },
    HANG,
  );

  it(
    "an edit to it while serving keeps the last good configuration: every answer is the one before",
    async () => {
      const root = tempRepo({ "docs.json": GOOD, "p.mdx": "---\ntitle: P\n---\nhi\n" });
      const logs: string[] = [];
      const runtime = await DocsRuntime.load({ root, log: (m) => void logs.push(m) });
      const client = await connect(runtime, ALL_ACCESS);
      try {
        const tool = `query_docs_filesystem_${runtime.names.slug}`;
        const answers = async () => [
          client.text(await client.call(tool, { command: "tree / && cat /p.mdx" })),
          client.text(await client.call(runtime.names.search, { query: "hi" })),
          [...runtime.site.config.navPages.keys()],
        ];
        const before = await answers();
        const files = fanOut(LEVELS);
        for (const [rel, value] of Object.entries(files)) {
          const abs = join(root, rel);
          mkdirSync(join(abs, ".."), { recursive: true });
          writeFileSync(abs, JSON.stringify(value));
        }
        writeFileSync(join(root, "docs.json"), `${JSON.stringify(EXPANDING, null, 2)}\n`);
        await runtime.applyChanges(["docs.json", ...Object.keys(files)]);
        expect(runtime.site.diagnostics.map(formatDiagnostic)).toEqual([ERROR]);
        expect(await answers()).toEqual(before);
      } finally {
        await client.close();
        await runtime.close();
      }
    },
    HANG,
  );
});

// Adversary round 62 F1 also printed 65,544 "listed twice" lines: `check` prints at most 100
// findings of a kind and counts the rest in one line (`--json` keeps every one).
describe("many findings of one kind", () => {
  it("check prints the first 100 and counts the rest; --json lists every one", async () => {
    const root = tempRepo({ "p.mdx": "---\ntitle: P\n---\nhi\n" });
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "X", navigation: { groups: [{ group: "G", pages: Array(103).fill("p") }] } }));
    const lines = Array.from({ length: 100 }, (_, i) => `docs.json:1:${59 + 4 * (i + 1)} navigation.groups[0].pages[${i + 1}]: warning: page "p" is listed twice (first at navigation.groups[0].pages[0])`);
    const more = '... and 2 more "duplicate-page" warnings (`svc-mcp check --json` lists every one)';
    expect(await runCli(["check"], { cwd: root })).toEqual({ code: 0, stdout: [...lines, more, "checked docs.json and 1 page: 0 errors, 102 warnings", ""].join("\n"), stderr: "" });
    const json = await runCli(["check", "--json"], { cwd: root });
    expect((JSON.parse(json.stdout) as { diagnostics: unknown[] }).diagnostics.length).toBe(102);
  });
});

// Adversary round 62 F2: one spec of 300 operations named by 1,000 groups is 300,000 API entries;
// their listing under the sections was quadratic in groups (a reload held every caller ~55 s).
// The listing is linear now (`navItemsBySection`), and the API entries count toward the limit:
// counted per group before its pages are listed, the group that would pass it and those after list none.
describe("one API spec named by many groups", () => {
  it("lists the pages of the groups within the limit, and says once where it stopped", async () => {
    const paths = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`/r${i}`, { get: { summary: `Get r${i}`, responses: { "200": { description: "OK" } } } }]));
    const groups = [{ group: "G", pages: ["p"] }, ...Array.from({ length: 1_000 }, (_, i) => ({ group: `G${i}`, openapi: "spec.json", pages: [] }))];
    const root = tempRepo({ "p.mdx": "---\ntitle: P\n---\nhi\n", "spec.json": { openapi: "3.0.3", info: { title: "S", version: "1" }, paths } });
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "X", navigation: { groups } }));
    const error =
      "docs.json:1:16631 navigation.groups[334].openapi: navigation expands to more than 100,000 entries (a $ref'd file counts each time it is referenced; a spec's pages count in each group naming it): no API pages are listed from here on";
    expect(await runCli(["check"], { cwd: root })).toEqual({ code: 1, stdout: `${error}\nchecked docs.json and 1 page (+300 generated from API specs): 1 error, 0 warnings\n`, stderr: "" });
    const runtime = await DocsRuntime.load({ root, log: () => {} });
    try {
      const sections = runtime.site.config.sections;
      // 333 groups of 300 pages each, then none: the first group's page, and "G".
      expect([sections.length, sections[1]?.pages.length, sections[333]?.pages.length, sections[334]?.pages.length]).toEqual([1_001, 300, 300, 0]);
    } finally {
      await runtime.close();
    }
  }, HANG);
});

// Adversary F2 residue: the same bound passed by an edit while serving (a docs.json naming the
// spec from 1,000 groups) served the new docs.json with the groups past the bound empty, where
// a docs.json whose own `$ref`s pass it keeps the last good configuration. Now both keep it, and
// the log says why; fixing docs.json applies the next edit.
describe("an edit naming one API spec from groups past the bound, while serving", () => {
  it("keeps the last good configuration, answers as before through an MCP client, and logs the error", async () => {
    const paths = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`/r${i}`, { get: { summary: `Get r${i}`, responses: { "200": { description: "OK" } } } }]));
    const docs = (groups: number): object => ({ name: "X", navigation: { groups: [{ group: "G", pages: ["p"] }, ...Array.from({ length: groups }, (_, i) => ({ group: `G${i}`, openapi: "spec.json", pages: [] }))] } });
    const root = tempRepo({ "p.mdx": "---\ntitle: P\n---\nhi\n", "spec.json": { openapi: "3.0.3", info: { title: "S", version: "1" }, paths } });
    writeFileSync(join(root, "docs.json"), JSON.stringify(docs(2)));
    const logs: string[] = [];
    const runtime = await DocsRuntime.load({ root, log: (m) => void logs.push(m) });
    const client = await connect(runtime, ALL_ACCESS);
    try {
      const tool = `query_docs_filesystem_${runtime.names.slug}`;
      const answers = async (): Promise<unknown[]> => [
        client.text(await client.call(tool, { command: "ls /api-reference | wc -l; cat /p.mdx" })),
        client.text(await client.call(runtime.names.search, { query: "Get r7" })).split("\n")[0],
        runtime.site.config.sections.map((s) => [s.title, s.pages.length]),
      ];
      const before = await answers();
      expect(before).toEqual(["300\n---\ntitle: P\n---\nhi\n", before[1], [["G", 1], ["G0", 300], ["G1", 300]]]);
      writeFileSync(join(root, "docs.json"), JSON.stringify(docs(1_000)));
      logs.length = 0;
      await runtime.applyChanges(["docs.json"]);
      const error =
        "docs.json navigation.groups[334].openapi: navigation expands to more than 100,000 entries (a $ref'd file counts each time it is referenced; a spec's pages count in each group naming it): still serving the last good configuration (X) until it is fixed";
      expect(runtime.site.diagnostics.map(formatDiagnostic)).toEqual([error]);
      expect(logs.filter((l) => l.includes("100,000"))).toEqual([error]);
      expect(await answers()).toEqual(before);
      writeFileSync(join(root, "docs.json"), JSON.stringify(docs(3)));
      await runtime.applyChanges(["docs.json"]);
      expect(runtime.site.diagnostics.map(formatDiagnostic)).toEqual([]);
      expect(runtime.site.config.sections.map((s) => [s.title, s.pages.length])).toEqual([["G", 1], ["G0", 300], ["G1", 300], ["G2", 300]]);
    } finally {
      await client.close();
      await runtime.close();
    }
  }, HANG);
});
