// Every file under the docs root is opened by src/config/inside-root.ts alone (O_NONBLOCK, so a
// pipe or device is never waited on; O_NOFOLLOW and a check after opening, so no link leads out
// of the root). A plain `readFileSync(join(root, rel))` in the site cache's check of docs.json and
// the ignore files hung a start on a pipe and read through a link out of the root (issue 25,
// adversary round 38 F4). So the Node calls that open a file by its path are kept to the files
// listed here, each saying why what it opens is not under the docs root: a new one fails until it
// goes through `readInsideRoot` (or says here why it need not).
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";

const SRC = join(REPO, "src");

/** Node's calls that open a file by its path (reading it, or giving a handle that can). */
const OPENING = new Set(["readFileSync", "readFile", "openSync", "open", "createReadStream", "opendir", "opendirSync", "promises"]);

/** The files that may call them, and why each opens nothing under the docs root. */
const MAY_OPEN: Readonly<Record<string, string>> = {
  "config/inside-root.ts": "the one reader of the docs root",
  "config/openapi/spec-cache.ts": "its own files in the user's cache folder",
  "config/openapi/validators/generate.ts": "a build-time generator of this package's sources",
  "engine/site-cache.ts": "its own cache file in the user's cache folder",
  "engine/site-cache-writer.ts": "its own temp file in the user's cache folder",
  "engine/site-cache-spool.ts": "its own spool file in the user's cache folder",
  "engine/shell/thread-cpu.ts": "/proc, for a thread's CPU time",
  "engine/shell/jq/jq-module.ts": "this package's jq WebAssembly",
  "cli/editor-config-file.ts": "an editor's MCP configuration (opened O_NOFOLLOW | O_NONBLOCK)",
  "package-root.ts": "this package's package.json",
  "store/cache-key.ts": "the cache key in the user's state folder",
  "store/sqlite.ts": "the state database in the user's state folder",
  "store/code-fingerprint.ts": "this package's own sources",
  "store/site-names.ts": "the name each docs folder was last served under, in the user's state folder",
  "store/variant-times-file.ts": "each reader class's time of a docs root's files, in the state folder (never inside the docs folder)",
  "bridge/web/assets.ts": "this package's built browser assets",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|mts|mjs)$/.test(f) && !f.endsWith(".d.mts") && !f.endsWith(".test.ts"))
    .map((f) => join(dir, f));
}

/** The opening calls a file takes from node:fs (named imports, `require` destructuring), or
 *  `*` when it takes the whole module (which can open anything). */
function openingImports(text: string): string[] {
  const found: string[] = [];
  const named = /(?:import\s*\{([^}]*)\}\s*from|const\s*\{([^}]*)\}\s*=\s*require\()\s*["'](?:node:)?fs(?:\/promises)?["']/g;
  for (const m of text.matchAll(named)) {
    for (const part of (m[1] ?? m[2] ?? "").split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+|\s*:\s*/)[0] ?? "";
      if (OPENING.has(name)) found.push(name);
    }
  }
  if (/import\s+(?:\*\s+as\s+)?\w+\s+from\s*["'](?:node:)?fs(?:\/promises)?["']|(?:const|let|var)\s+\w+\s*=\s*require\(\s*["'](?:node:)?fs(?:\/promises)?["']\s*\)/.test(text)) found.push("*");
  return found;
}

describe("files under the docs root are opened by inside-root.ts alone", () => {
  it("only the listed files take Node's opening calls", () => {
    const opening: Record<string, string[]> = {};
    for (const file of sourceFiles(SRC)) {
      const found = openingImports(readFileSync(file, "utf8"));
      if (found.length > 0) opening[relative(SRC, file)] = found;
    }
    expect(Object.keys(opening).sort()).toEqual(Object.keys(MAY_OPEN).sort());
  });

  it("the check sees each way of taking them", () => {
    expect(openingImports(`import { readFileSync, statSync } from "node:fs";`)).toEqual(["readFileSync"]);
    expect(openingImports(`import { mkdir, open as openFile } from "node:fs/promises";`)).toEqual(["open"]);
    expect(openingImports(`const { openSync } = require("node:fs");`)).toEqual(["openSync"]);
    expect(openingImports(`import * as fs from "fs";`)).toEqual(["*"]);
    expect(openingImports(`import fs from "node:fs";`)).toEqual(["*"]);
    expect(openingImports(`const fs = require("fs/promises");`)).toEqual(["*"]);
    expect(openingImports(`import { lstatSync, readlinkSync } from "node:fs";`)).toEqual([]);
  });
});
