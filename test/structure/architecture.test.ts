// The README's "Architecture" section, kept true: one row per folder of src/, and the flow it
// states (config -> vfs -> engine -> mcp -> bridge, cli on top; store beside, below engine) holds for
// every relative import in src/.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";

const SRC = join(REPO, "src");

/** What each top-level part of src/ may import besides itself (files at the top: limits, version). */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  config: [],
  store: [],
  vfs: ["config"],
  engine: ["config", "vfs", "store"],
  mcp: ["config", "vfs", "store", "engine"],
  bridge: ["config", "vfs", "store", "engine", "mcp"],
  cli: ["config", "vfs", "store", "engine", "mcp", "bridge"],
  // Browser code: bundled alone, it shares nothing with the server but plain files.
  web: [],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|mts)$/.test(f) && !f.endsWith(".d.mts"))
    .map((f) => join(dir, f));
}

/** The top-level part of src/ a path is in (`engine`), or the file's name for top-level files. */
function partOf(path: string): string {
  return relative(SRC, path).split("/")[0]!;
}

describe("architecture", () => {
  it("README's table has one row per folder of src/, and the flow line", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Architecture"), readme.indexOf("## Manual"));
    const rows = [...section.matchAll(/^\| `src\/([a-z-]+)` \|/gm)].map((m) => m[1]);
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(rows.sort()).toEqual(folders.sort());
    expect(section).toContain("`config` → `vfs` → `engine` → `mcp` → `bridge`, with `cli` on top");
    expect(Object.keys(MAY_IMPORT).sort()).toEqual(folders.sort());
  });

  it("no part of src/ imports a part above it", () => {
    const upward: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = partOf(file);
      const allowed = MAY_IMPORT[from];
      if (allowed === undefined) continue;
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
        const target = resolve(dirname(file), m[1]!);
        if (!target.startsWith(`${SRC}/`)) continue;
        const to = partOf(target);
        if (to === from || !MAY_IMPORT[to] || allowed.includes(to)) continue;
        upward.push(`${relative(SRC, file)} imports ${m[1]}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
