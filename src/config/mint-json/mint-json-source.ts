import type { Diagnostic } from "../diagnostic.js";
import type { Position } from "../docs-json/json-source.js";
import type { ResolvedJson, SOURCE_CODES } from "../docs-json/refs.js";
import { parentPath } from "../docs-json/json-path.js";
import { MINT_JSON, upgradeMintJson, type UpgradedMintJson } from "./upgrade-mint-json.js";

/** docs.json's name, written out: this layer is imported by the docs.json loader. */
const DOCS_JSON = "docs.json";

/**
 * A mint.json as read (`resolveJsonRefs`) made into the docs.json it stands for, each value at the
 * position in mint.json of what it was made from: docs.json's checks then run on it unchanged, and
 * each finding points at the line its author wrote. docs.json is among the files read (a docs.json
 * created later is read instead).
 */
export function asDocsJson(mint: ResolvedJson): { source: ResolvedJson; mint: UpgradedMintJson } {
  const files = [...mint.files, DOCS_JSON];
  // Unread (invalid JSON), or not an object (a top-level array): docs.json's checks say so of the
  // file as written (`the top level must be an object; got an array`), and no configuration is
  // read from it, as from such a docs.json.
  if (mint.value === null || typeof mint.value !== "object" || Array.isArray(mint.value)) {
    return { source: { ...mint, files }, mint: { value: {}, origins: new Map(), problems: [] } };
  }
  const upgraded = upgradeMintJson(mint.value);
  const made = madeFrom(upgraded.origins);
  return {
    source: { ...mint, value: upgraded.value, files, positions: moved(mint.positions, made), keyPositions: moved(mint.keyPositions, made) },
    mint: upgraded,
  };
}

/**
 * docs.json's findings on a mint.json, with the path written in mint.json where one is known, after a
 * warning that says the file is read in the older format.
 */
export function mintDiagnostics(diagnostics: readonly Diagnostic[], mint: UpgradedMintJson, written: ResolvedJson): Diagnostic[] {
  const first: Diagnostic = {
    severity: "warning",
    file: MINT_JSON,
    code: "mint-json" satisfies (typeof SOURCE_CODES)[number],
    message: "docs.json not found: mint.json, the format before docs.json, is read as the docs.json it stands for (`npx mint upgrade` writes that docs.json)",
    subjects: [],
  };
  const own = mint.problems.map((p): Diagnostic => {
    const at = locate(written, p.path);
    return { severity: "error", file: MINT_JSON, ...(at !== undefined ? { line: at.line, column: at.column } : {}), path: p.path, message: p.message, code: p.code, subjects: [] };
  });
  // A navigation mint.json writes in another shape is said once, in mint.json's words, not again
  // as the docs.json that has none.
  const noNavigation = mint.problems.some((p) => p.path === "navigation");
  const out: Diagnostic[] = [first, ...own];
  // One part of mint.json is made into several of docs.json (a group into each version), and a
  // finding on each would repeat: each is said once.
  const seen = new Set<string>();
  for (const d of diagnostics) {
    const shown = d.file === MINT_JSON && d.path !== undefined ? { ...d, path: writtenAt(d.path, mint.origins) } : d;
    if (noNavigation && shown.file === MINT_JSON && shown.code === "required" && shown.message === '"navigation" is required') continue;
    const key = JSON.stringify([shown.severity, shown.file, shown.line, shown.column, shown.path, shown.message]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(shown);
  }
  return out;
}

/** The position in mint.json of a path, or of its nearest ancestor that has one. */
function locate(written: ResolvedJson, path: string): Position | undefined {
  for (let p = path; ; p = parentPath(p)) {
    const pos = written.positions.get(p);
    if (pos !== undefined) return pos;
    if (p === "") return undefined;
  }
}

/** By path in mint.json: the paths in docs.json made from it (a group split between divisions is made twice). */
function madeFrom(origins: ReadonlyMap<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [path, at] of origins) out.set(at, [...(out.get(at) ?? []), path]);
  return out;
}

/** Each position of mint.json at the paths made from what holds it. */
function moved(positions: ReadonlyMap<string, Position>, made: ReadonlyMap<string, readonly string[]>): Map<string, Position> {
  const out = new Map<string, Position>();
  for (const [path, pos] of positions) {
    for (let at = path; ; at = parentPath(at)) {
      const paths = made.get(at);
      if (paths !== undefined) {
        for (const p of paths) out.set(p + path.slice(at.length), pos);
        break;
      }
      if (at === "") break;
    }
  }
  return out;
}

/** The path in mint.json of what the docs.json path was made from, else the path as it is. */
export function writtenAt(path: string, origins: ReadonlyMap<string, string>): string {
  for (let at = path; ; at = parentPath(at)) {
    const from = origins.get(at);
    if (from !== undefined) return from + path.slice(at.length);
    if (at === "") return path;
  }
}
