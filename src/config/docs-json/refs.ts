import { readFile, stat } from "node:fs/promises";
import { isAbsolute, join, posix } from "node:path";
import { LIMITS } from "../../limits.js";
import type { Diagnostic } from "../diagnostic.js";
import { childPath } from "./json-path.js";
import { type JsonSource, type Position, parseJsonSource } from "./json-source.js";

/** Reads a repository-relative file; rejects with a Node error (`code: "ENOENT"`) when absent. */
export type ReadText = (relPath: string) => Promise<string>;

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
  /** Paths whose `$ref` could not be resolved: findings under them would only repeat the problem. */
  readonly brokenPaths: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** True when the root file does not exist (a repository without docs.json). */
  readonly rootMissing: boolean;
}

/** Read a repository file with the size limit applied (a huge file is refused before reading). */
export function fileReader(root: string): ReadText {
  return async (relPath) => {
    const abs = join(root, relPath);
    const st = await stat(abs);
    if (st.size > LIMITS.config.maxJsonBytes) {
      throw Object.assign(new Error(`${st.size} bytes is over the ${LIMITS.config.maxJsonBytes}-byte limit`), { code: "EFBIG" });
    }
    return readFile(abs, "utf8");
  };
}

/**
 * Load a JSON file and resolve its `$ref`s as the docs platform does: `{"$ref": "./fr.json"}` is
 * replaced by that file's contents, resolved relative to the file holding the reference; sibling
 * keys are merged over a referenced object (they win) and ignored for any other value; a path
 * must be relative and stay inside the repository; a reference cycle is an error.
 */
export async function resolveJsonRefs(rootFile: string, read: ReadText): Promise<ResolvedJson> {
  const resolver = new RefResolver(read);
  const value = await resolver.run(rootFile);
  return {
    value,
    positions: resolver.positions,
    keyPositions: resolver.keyPositions,
    files: [...resolver.files],
    brokenPaths: resolver.brokenPaths,
    diagnostics: resolver.diagnostics,
    rootMissing: resolver.rootMissing,
  };
}

class RefResolver {
  readonly positions = new Map<string, Position>();
  readonly keyPositions = new Map<string, Position>();
  readonly files = new Set<string>();
  readonly brokenPaths: string[] = [];
  readonly diagnostics: Diagnostic[] = [];
  private readonly parsed = new Map<string, JsonSource | null>();

  private rootFile = "";
  rootMissing = false;

  constructor(private readonly read: ReadText) {}

  async run(rootFile: string): Promise<unknown> {
    this.rootFile = rootFile;
    const source = await this.load(rootFile, undefined);
    if (source === null) return undefined;
    return this.resolve(source, source.value, "", "", [rootFile]);
  }

  /** Read and parse a file once; null (with a diagnostic) when it cannot be. */
  private async load(file: string, from: { path: string; position: Position | undefined } | undefined): Promise<JsonSource | null> {
    const cached = this.parsed.get(file);
    if (cached !== undefined) return cached;
    this.files.add(file);
    let text: string;
    try {
      text = await this.read(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (from === undefined && code === "ENOENT") this.rootMissing = true;
      const why = code === "ENOENT" || code === "ENOTDIR" ? "file not found" : code === "EISDIR" ? "is a folder, not a file" : (error as Error).message;
      if (from === undefined) this.diagnostics.push({ severity: "error", file, message: `cannot read: ${why}`, code: "read" });
      else this.report(from.path, from.position, `cannot read "${file}": ${why}`, "ref");
      this.parsed.set(file, null);
      return null;
    }
    const result = parseJsonSource(text, file);
    if (!result.ok) {
      const { line, column } = result.position;
      this.diagnostics.push({ severity: "error", file, line, column, message: `invalid JSON: ${result.message}`, code: "json" });
      this.parsed.set(file, null);
      return null;
    }
    for (const dup of result.source.duplicateKeys) {
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
    this.parsed.set(file, result.source);
    return result.source;
  }

  /**
   * Copy `value` (found at `rel` inside `source`) to `path` in the resolved document, recording
   * positions and replacing references. `chain` holds the files being resolved, for cycles.
   */
  private async resolve(source: JsonSource, value: unknown, rel: string, path: string, chain: readonly string[]): Promise<unknown> {
    const pos = source.positions.get(rel);
    if (pos !== undefined) this.positions.set(path, pos);
    const keyPos = source.keyPositions.get(rel);
    if (keyPos !== undefined && path !== "") this.keyPositions.set(path, keyPos);
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        out.push(await this.resolve(source, value[i], childPath(rel, i), childPath(path, i), chain));
      }
      return out;
    }
    if (value === null || typeof value !== "object") return value;
    const obj = value as Record<string, unknown>;
    if (Object.hasOwn(obj, "$ref")) return this.resolveRef(source, obj, rel, path, chain);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(obj)) {
      setOwn(out, key, await this.resolve(source, child, childPath(rel, key), childPath(path, key), chain));
    }
    return out;
  }

  private async resolveRef(source: JsonSource, obj: Record<string, unknown>, rel: string, path: string, chain: readonly string[]): Promise<unknown> {
    const refRel = childPath(rel, "$ref");
    const refPath = childPath(path, "$ref");
    const refPos = source.positions.get(refRel);
    const ref = obj.$ref;
    const broken = (message: string): unknown => {
      this.report(refPath, refPos, message, "ref");
      this.brokenPaths.push(path);
      return obj;
    };
    if (typeof ref !== "string" || ref.trim() === "") return broken(`"$ref" must be a relative path to a JSON file`);
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || isAbsolute(ref) || ref.startsWith("/")) {
      return broken(`"$ref" must be a path relative to ${source.file} ("${ref}" is not; URLs are not fetched)`);
    }
    const target = posix.normalize(posix.join(posix.dirname(source.file), ref.replace(/\\/g, "/")));
    if (target === ".." || target.startsWith("../")) return broken(`"$ref" "${ref}" points outside the repository`);
    const cycleAt = chain.indexOf(target);
    if (cycleAt !== -1) return broken(`"$ref" cycle: ${[...chain.slice(cycleAt), target].join(" -> ")}`);
    if (!this.parsed.has(target) && this.files.size >= LIMITS.config.maxRefFiles) {
      return broken(`more than ${LIMITS.config.maxRefFiles} files reached through "$ref"; "${ref}" is not read`);
    }
    const targetSource = await this.load(target, { path: refPath, position: refPos });
    if (targetSource === null) {
      this.brokenPaths.push(path);
      return obj;
    }
    const resolved = await this.resolve(targetSource, targetSource.value, "", path, [...chain, target]);
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
      setOwn(merged, key, await this.resolve(source, obj[key], childPath(rel, key), childPath(path, key), chain));
    }
    return merged;
  }

  private report(path: string, position: Position | undefined, message: string, code: string, severity: "error" | "warning" = "error"): void {
    this.diagnostics.push({
      severity,
      file: position?.file ?? this.rootFile,
      ...(position !== undefined ? { line: position.line, column: position.column } : {}),
      path,
      message,
      code,
    });
  }
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Paths equal to or below `base`. */
export function isUnder(path: string, base: string): boolean {
  return path === base || (path.startsWith(base) && (path[base.length] === "." || path[base.length] === "[")) || base === "";
}
