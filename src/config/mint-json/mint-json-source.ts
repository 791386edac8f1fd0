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
  if (mint.value === undefined) return { source: { ...mint, files }, mint: { value: {}, origins: new Map() } };
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
export function mintDiagnostics(diagnostics: readonly Diagnostic[], mint: UpgradedMintJson): Diagnostic[] {
  const first: Diagnostic = {
    severity: "warning",
    file: MINT_JSON,
    code: "mint-json" satisfies (typeof SOURCE_CODES)[number],
    message: "docs.json not found: mint.json, the format before docs.json, is read as the docs.json it stands for (`npx mint upgrade` writes that docs.json)",
    subjects: [],
  };
  return [first, ...diagnostics.map((d) => (d.file === MINT_JSON && d.path !== undefined ? { ...d, path: writtenAt(d.path, mint.origins) } : d))];
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
