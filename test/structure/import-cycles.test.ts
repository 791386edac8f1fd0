// No runtime import cycle in src/, so every file can be imported first: in a cycle, whichever
// file Node reaches first sees the others' bindings before they are initialised (a top-level
// `[...REGISTRABLE_GRANT_TYPES]` threw "Cannot access … before initialization" when a grant's
// file was imported first, and worked only because bridge.ts happened to import in another order).
// Found statically: one process per file is far too slow for ~400 files, and a file no cycle
// passes through has all its imports evaluated before its own body runs.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCycles, importGraph, shortestCycle, sourceModules } from "../helpers/import-graph.js";
import { REPO } from "../helpers/paths.js";

const SRC = join(REPO, "src");

describe("import cycles", () => {
  it("src/ has no runtime import cycle (type-only imports aside)", () => {
    const graph = importGraph(sourceModules(SRC));
    const cycles = importCycles(graph).map((component) => shortestCycle(graph, component[0]!, SRC).join(" -> "));
    expect(cycles).toEqual([]);
  });

  it("src/ has no import cycle at all, type-only imports included (issue 28)", () => {
    // A type shared by two files that import each other lives in its own file instead.
    const graph = importGraph(sourceModules(SRC), true);
    const cycles = importCycles(graph).map((component) => shortestCycle(graph, component[0]!, SRC).join(" -> "));
    expect(cycles).toEqual([]);
  });

  describe("the detector", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-import-cycles-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (files: Record<string, string>): string => {
      const root = mkdtempSync(join(dir, "case-"));
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(join(root, name, ".."), { recursive: true });
        writeFileSync(join(root, name), text);
      }
      return root;
    };
    const cyclesIn = (root: string, types = false): string[][] => importCycles(importGraph(sourceModules(root), types)).map((c) => c.map((f) => relative(root, f)));

    it("finds a cycle through re-exports, side-effect imports, .mjs and folders", () => {
      const root = write({
        "a.ts": 'export { b } from "./sub/b.js";\n',
        "sub/b.ts": 'import "../c.mjs";\nexport const b = 1;\n',
        "c.mts": 'import { a } from "./a.js";\n// import "./d.js" in a comment is no import\nexport const c = a;\n',
        "d.ts": 'import "./d.js";\n',
      });
      expect(cyclesIn(root)).toEqual([["a.ts", "c.mts", "sub/b.ts"], ["d.ts"]]);
    });

    it("leaves out erased imports and dynamic import(), keeps an import whose names are all types", () => {
      const erased = write({
        "a.ts": 'import type { B } from "./b.js";\nexport type { C } from "./c.js";\nexport const a = async () => (await import("./c.js")).c;\nexport type A = B;\n',
        "b.ts": 'import { a } from "./a.js";\nexport type B = typeof a;\n',
        "c.ts": 'import { a } from "./a.js";\nexport const c = a;\n',
      });
      expect(cyclesIn(erased)).toEqual([]);
      // Counting type-only imports, the same files import each other (dynamic import() still aside).
      expect(cyclesIn(erased, true)).toEqual([["a.ts", "b.ts", "c.ts"]]);
      // verbatimModuleSyntax keeps `import {} from "./b.js"`: b.ts is still evaluated first.
      const kept = write({ "a.ts": 'import { type B } from "./b.js";\nexport const a = 1 as unknown as B;\n', "b.ts": 'import { a } from "./a.js";\nexport type B = typeof a;\n' });
      expect(cyclesIn(kept)).toEqual([["a.ts", "b.ts"]]);
    });
  });

  it("a grant's file imports first (it used to throw before initialization)", () => {
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", 'const m = await import("./src/bridge/auth/grant-refresh-token.ts"); const g = await import("./src/bridge/auth/grants.ts"); console.log(m.REFRESH_TOKEN.name, g.REGISTRABLE_GRANT_TYPES.join(","));'],
      { cwd: REPO, encoding: "utf8" },
    );
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: "refresh_token authorization_code,refresh_token\n", stderr: "" });
  });
});
