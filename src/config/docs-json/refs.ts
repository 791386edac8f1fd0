import { isAbsolute, posix } from "node:path";
import { LIMITS } from "../../limits.js";
import type { Diagnostic } from "../diagnostic.js";
import type { IgnoreRules } from "../ignore-rule-set.js";
import { type InsideFile, NO_IGNORE_RULES, readInsideRoot, type Refusal, refusalCode } from "../inside-root.js";
import { brokenNotWithdrawn } from "../broken-input.js";
import { expandedEntries, tooManyEntriesMessage } from "./expanded-entries.js";
import { childPath } from "./json-path.js";
import { type JsonSource, type Position, parseJsonSource } from "./json-source.js";
import { type Between, type Stages, stagesBetween } from "../stages.js";

/** Codes of the findings made while reading docs.json and its `$ref`s (listed in docs/docs-json.md);
 *  `mint-json`: the file read is a mint.json (`asDocsJson`). */
export const SOURCE_CODES = ["read", "json", "json-too-deep", "duplicate-key", "ref", "ref-siblings", "too-many-entries", "mint-json"] as const;

/** Reads a repository-relative file, or says why not (see `readInsideRoot`). */
export type ReadText = (relPath: string) => InsideFile | Refusal;

/** docs.json with every `$ref` replaced by the JSON it points to, and where each value came from. */
export interface ResolvedJson {
  /** Undefined when the root file itself cannot be read or parsed. */
  readonly value: unknown;
  /** Position of every value by its path in the resolved document, in the file it was written in. */
  readonly positions: ReadonlyMap<string, Position>;
  /** Positions of object keys by path (see `JsonSource.keyPositions`). */
  readonly keyPositions: ReadonlyMap<string, Position>;
  /** The root file and every file reached through `$ref` (also those that failed to load, so a
   *  watcher reloads when one appears), repository-relative, in the order they were met. */
  readonly files: readonly string[];
  /** The real files of those read through a link inside the root (their edits are edits too). */
  readonly linkTargets: readonly string[];
  /** Paths whose `$ref` could not be resolved: findings under them would only repeat the problem. */
  readonly brokenPaths: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** True when the root file does not exist (a repository without docs.json). */
  readonly rootMissing: boolean;
  /** `$ref`'d files (not the root) that are broken rather than withdrawn (`brokenNotWithdrawn`):
   *  unreadable, not parsing, or gone while still named. A reload keeps the last good
   *  configuration for them as for a docs.json that does not parse (`load-site.ts`). */
  readonly brokenFiles: readonly { readonly file: string; readonly message: string }[];
  /** `$ref`'d files (not the root) read and parsed: only one of these that breaks later keeps
   *  the last good configuration (a `$ref` to a file that never read well is the edit's mistake). */
  readonly readFiles: readonly string[];
}

/** Read a repository file with the size limit applied (a huge file is refused before reading),
 *  never outside the root, and a file the ignore rules exclude is refused like a missing one
 *  (docs.json itself excepted: it is the configuration, never served as a page). */
export function fileReader(root: string, ignore: IgnoreRules): ReadText {
  return (relPath) => readInsideRoot(root, relPath, { maxBytes: LIMITS.config.maxJsonBytes, ignore: relPath === "docs.json" || relPath === "mint.json" ? NO_IGNORE_RULES : ignore });
}

/**
 * Load a JSON file and resolve its `$ref`s as the docs platform does: `{"$ref": "./fr.json"}` is
 * replaced by that file's contents, resolved relative to the file holding the reference; sibling
 * keys are merged over a referenced object (they win) and ignored for any other value; a path
 * must be relative and stay inside the repository; a reference cycle is an error. `between` is
 * awaited every `VALUES_PER_STAGE` values copied (a reload while serving gives the thread back).
 */
export async function resolveJsonRefs(rootFile: string, read: ReadText, between?: Between): Promise<ResolvedJson> {
  const resolver = new RefResolver(read);
  const value = await stagesBetween(resolver.run(rootFile), between);
  return {
    value,
    positions: resolver.positions,
    keyPositions: resolver.keyPositions,
    files: [...resolver.files],
    linkTargets: [...resolver.linkTargets],
    brokenPaths: resolver.brokenPaths,
    diagnostics: resolver.diagnostics,
    rootMissing: resolver.rootMissing,
    brokenFiles: resolver.brokenFiles,
    readFiles: resolver.readFiles,
  };
}

/** A file as loaded: parsed, or why not (a parse error is reported once, where it is), with the
 *  code of the finding at a reference to it. */
type Loaded = { readonly source: JsonSource } | { readonly error: string; readonly code?: string };

/** Values copied into the resolved document between two stages (~10-30 ms; a fan-out of
 *  `$ref`s expanding to 90,000 entries copies ~400,000 values, ~0.5-1 s in all). */
const VALUES_PER_STAGE = 5_000;

class RefResolver {
  readonly positions = new Map<string, Position>();
  readonly keyPositions = new Map<string, Position>();
  readonly files = new Set<string>();
  readonly linkTargets = new Set<string>();
  readonly brokenPaths: string[] = [];
  readonly diagnostics: Diagnostic[] = [];
  rootMissing = false;
  readonly brokenFiles: { file: string; message: string }[] = [];
  readonly readFiles: string[] = [];
  private readonly loaded = new Map<string, Loaded>();
  /** Values copied so far (`VALUES_PER_STAGE`). */
  private copied = 0;

  constructor(private readonly read: ReadText) {}

  /** Load every file reachable through `$ref` first, then resolve: a 100 KB docs.json has
   *  thousands of values. */
  *run(rootFile: string): Stages<unknown> {
    const root = this.load(rootFile, true);
    if (!("source" in root)) return undefined;
    this.preload(root.source);
    if (this.tooManyEntries(root.source)) return undefined;
    // No reference anywhere (the usual docs.json): the parsed file is the document, and its
    // positions are the document's. Copying it value by value took a third of a second of a
    // start for a 25,000-page site's 1.7 MB docs.json.
    if (this.files.size === 1 && !hasRef(root.source.value)) {
      for (const [path, pos] of root.source.positions) this.positions.set(path, pos);
      for (const [path, pos] of root.source.keyPositions) if (path !== "") this.keyPositions.set(path, pos);
      return root.source.value;
    }
    return yield* this.resolve(root.source, root.source.value, "", "", [rootFile], 0);
  }

  /** Whether the document would expand past `maxNavigationEntries`: counted before resolving,
   *  and reported once where the count went over; nothing is resolved then (as for a docs.json
   *  that does not parse: a serving process keeps its last good configuration). */
  private tooManyEntries(root: JsonSource): boolean {
    const max = LIMITS.config.maxNavigationEntries;
    const sourceOf = (holder: string, ref: string): JsonSource | undefined => {
      const target = refTarget(holder, ref);
      const loaded = target !== undefined ? this.loaded.get(target) : undefined;
      return loaded !== undefined && "source" in loaded ? loaded.source : undefined;
    };
    const { at } = expandedEntries(root, sourceOf, max);
    if (at === undefined) return false;
    this.report(at, root.positions.get(at), tooManyEntriesMessage(max), "too-many-entries");
    return true;
  }

  private load(file: string, isRoot = false): Loaded {
    const cached = this.loaded.get(file);
    if (cached !== undefined) return cached;
    this.files.add(file);
    let result: Loaded;
    const read = this.read(file);
    if (read.ok) {
      if (read.real !== file) this.linkTargets.add(read.real);
      const parsed = parseJsonSource(read.text, file);
      if (parsed.ok) {
        result = { source: parsed.source };
        if (!isRoot) this.readFiles.push(file);
        for (const deep of parsed.source.tooDeep) {
          this.diagnostics.push({
            severity: "warning",
            file,
            line: deep.position.line,
            column: deep.position.column,
            path: deep.path,
            message: `nested deeper than ${LIMITS.config.maxJsonDepth} levels: not read (null in its place; the rest of the file is read)`,
            code: "json-too-deep",
          });
        }
        for (const dup of parsed.source.duplicateKeys) {
          this.diagnostics.push({
            severity: "warning",
            file,
            line: dup.position.line,
            column: dup.position.column,
            path: dup.path,
            message: "key written twice in one object; the last one wins",
            code: "duplicate-key",
          });
        }
      } else {
        const { line, column } = parsed.position;
        this.diagnostics.push({ severity: "error", file, line, column, message: `invalid JSON: ${parsed.message}`, code: "json" });
        if (!isRoot) this.brokenFiles.push({ file, message: `invalid JSON: ${parsed.message}` });
        result = { error: "" };
      }
    } else {
      if (isRoot && read.reason === "missing") this.rootMissing = true;
      const code = refusalCode(read);
      if (isRoot) this.diagnostics.push({ severity: "error", file, message: `cannot read: ${read.message}`, code: code ?? "read" });
      else if (brokenNotWithdrawn(read)) this.brokenFiles.push({ file, message: read.message });
      result = { error: read.message, ...(code !== undefined ? { code } : {}) };
    }
    this.loaded.set(file, result);
    return result;
  }

  /** Load the files a source refers to, and theirs, each once. */
  private preload(source: JsonSource): void {
    const targets: string[] = [];
    collectRefs(source.value, (ref) => {
      const target = refTarget(source.file, ref);
      // Never read outside the repository (the reference is refused when resolved).
      if (target !== undefined && target !== ".." && !target.startsWith("../")) targets.push(target);
    });
    for (const target of targets) {
      if (this.loaded.has(target)) continue;
      if (this.files.size >= LIMITS.config.maxRefFiles) return;
      const loaded = this.load(target);
      if ("source" in loaded) this.preload(loaded.source);
    }
  }

  /**
   * Copy `value` (found at `rel` inside `source`) to `path` in the resolved document, recording
   * positions and replacing references. `chain` holds the files being resolved, for cycles;
   * `depth` counts the arrays and objects around `path` in the resolved document.
   */
  private *resolve(source: JsonSource, value: unknown, rel: string, path: string, chain: readonly string[], depth: number): Stages<unknown> {
    if (++this.copied % VALUES_PER_STAGE === 0) yield "$refs (part)";
    const pos = source.positions.get(rel);
    if (pos !== undefined) this.positions.set(path, pos);
    const keyPos = source.keyPositions.get(rel);
    if (keyPos !== undefined && path !== "") this.keyPositions.set(path, keyPos);
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = yield* this.resolve(source, value[i], childPath(rel, i), childPath(path, i), chain, depth + 1);
      return out;
    }
    if (value === null || typeof value !== "object") return value;
    const obj = value as Record<string, unknown>;
    if (Object.hasOwn(obj, "$ref")) return yield* this.resolveRef(source, obj, rel, path, chain, depth);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj)) {
      setOwn(out, key, yield* this.resolve(source, obj[key], childPath(rel, key), childPath(path, key), chain, depth + 1));
    }
    return out;
  }

  private *resolveRef(source: JsonSource, obj: Record<string, unknown>, rel: string, path: string, chain: readonly string[], depth: number): Stages<unknown> {
    const refPath = childPath(path, "$ref");
    const refPos = source.positions.get(childPath(rel, "$ref"));
    const ref = obj.$ref;
    const broken = (message?: string, code = "ref"): unknown => {
      if (message !== undefined) this.report(refPath, refPos, message, code);
      this.brokenPaths.push(path);
      return obj;
    };
    if (typeof ref !== "string" || ref.trim() === "") return broken(`"$ref" must be a relative path to a JSON file`);
    if (ref.includes("\u0000")) return broken(`"$ref" ${JSON.stringify(ref)} is not a file name: it holds a NUL character`);
    const target = refTarget(source.file, ref);
    if (target === undefined) return broken(`"$ref" must be a path relative to ${source.file} ("${ref}" is not; URLs are not fetched)`);
    if (target === ".." || target.startsWith("../")) return broken(`"$ref" "${ref}" points outside the repository`);
    const cycleAt = chain.indexOf(target);
    if (cycleAt !== -1) return broken(`"$ref" cycle: ${[...chain.slice(cycleAt), target].join(" -> ")}`);
    const loaded = this.loaded.get(target);
    if (loaded === undefined) return broken(`more than ${LIMITS.config.maxRefFiles} files reached through "$ref"; "${ref}" is not read`);
    // A parse error was reported in the file itself; a read error is reported here.
    if (!("source" in loaded)) return broken(loaded.error === "" ? undefined : `cannot read "${target}": ${loaded.error}`, loaded.code);
    // Each file is within the limit on its own; a chain of them must be too (the walkers after
    // this one recurse through the resolved document).
    const max = LIMITS.config.maxJsonDepth;
    if (depth + loaded.source.depth > max) {
      return broken(`"$ref" "${ref}" would nest arrays and objects deeper than ${max} levels (${depth} around it here, ${loaded.source.depth} in ${target}); it is not read`);
    }
    const resolved = yield* this.resolve(loaded.source, loaded.source.value, "", path, [...chain, target], depth);
    const siblings = Object.keys(obj).filter((k) => k !== "$ref");
    if (siblings.length === 0) return resolved;
    if (resolved === null || typeof resolved !== "object" || Array.isArray(resolved)) {
      const what = Array.isArray(resolved) ? "an array" : resolved === null ? "null" : `a ${typeof resolved}`;
      this.report(refPath, refPos, `keys beside "$ref" are ignored: "${ref}" holds ${what}, not an object`, "ref-siblings", "warning");
      return resolved;
    }
    // Sibling keys are merged over the referenced object and win; their positions are where they
    // are written (in the holding file).
    const merged: Record<string, unknown> = { ...(resolved as Record<string, unknown>) };
    for (const key of siblings) {
      setOwn(merged, key, yield* this.resolve(source, obj[key], childPath(rel, key), childPath(path, key), chain, depth + 1));
    }
    return merged;
  }

  private report(path: string, position: Position | undefined, message: string, code: string, severity: "error" | "warning" = "error"): void {
    this.diagnostics.push({
      severity,
      file: position?.file ?? "docs.json",
      ...(position !== undefined ? { line: position.line, column: position.column } : {}),
      path,
      message,
      code,
    });
  }
}

/** The repository-relative file a `$ref` names, or undefined when it is not a relative path. */
function refTarget(holder: string, ref: string): string | undefined {
  // A name with a NUL names no file: never read, nor listed among the files read (`resolveRef` says why).
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || isAbsolute(ref) || ref.startsWith("/") || ref.includes("\u0000")) return undefined;
  return posix.normalize(posix.join(posix.dirname(holder), ref.replace(/\\/g, "/")));
}

/** Every string `$ref` in a value (not resolved). */
function collectRefs(value: unknown, found: (ref: string) => void): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, found);
  } else if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    if (typeof obj.$ref === "string" && obj.$ref.trim() !== "") found(obj.$ref);
    for (const key of Object.keys(obj)) collectRefs(obj[key], found);
  }
}

/** Whether any object in `value` has a `$ref` key (of any value: a bad one is reported when resolved). */
function hasRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasRef);
  if (value === null || typeof value !== "object") return false;
  const obj = value as Record<string, unknown>;
  return Object.hasOwn(obj, "$ref") || Object.keys(obj).some((key) => hasRef(obj[key]));
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Paths equal to or below `base`. */
export function isUnder(path: string, base: string): boolean {
  return path === base || (path.startsWith(base) && (path[base.length] === "." || path[base.length] === "[")) || base === "";
}
