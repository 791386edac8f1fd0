import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { deserialize, serialize } from "node:v8";
import { LIMITS } from "../../limits.js";
import { packageRoot } from "../../package-root.js";
import type { SpecLoadResult } from "./spec-load-result.js";
import type { ApiOperation } from "./model.js";
import { appendAll } from "../../arrays.js";

/** What a cached result is looked up by: the spec's text and where it came from. */
export interface SpecCacheKey {
  readonly text: string;
  /** As docs.json names it (the result carries it, and messages name it). */
  readonly source: string;
  readonly remote: boolean;
}

/**
 * Parsed, validated and dereferenced specs by content, so an unchanged spec costs a file read
 * instead of YAML parsing, schema validation and dereferencing (spree's four specs: ~35 ms
 * instead of ~500 ms). Only results that depend on the spec text alone are stored (not those of
 * specs whose `$ref`s read other files).
 */
export interface SpecCache {
  get(key: SpecCacheKey): SpecLoadResult | undefined;
  set(key: SpecCacheKey, result: SpecLoadResult): void;
}

export interface SpecCacheOptions {
  /** Told once when the cache cannot be written (the load goes on without it). */
  readonly warn?: (message: string) => void;
  readonly maxBytes?: number;
}

/** What vouches for an entry: the caches' seal (`CacheSeal` in src/store/cache-key.ts, which the
 *  CLI passes in; named here by its shape, the store being a part above the configuration). */
export interface EntrySeal {
  seal(...parts: readonly Uint8Array[]): Buffer;
  verify(mac: Uint8Array, ...parts: readonly Uint8Array[]): boolean;
}

/** Bump when the stored shape changes in a way the code fingerprint would not catch. */
const FORMAT = 2;
/** An entry's first bytes: its seal (`CacheSeal`) over the rest. */
const SEAL_BYTES = 32;

/**
 * A spec cache in a folder (`<cache dir>/specs`, see `resolveCacheDir`): one file per entry,
 * named by the SHA-256 of the spec text, its source, and a fingerprint of the code that builds
 * results (`codeFingerprint`: the bundle, or the sources that build results, and the V8
 * serialization version), so an upgrade never reads an old entry. Entries are written
 * whole (temp file, then rename), mode 0600 in a 0700 folder, sealed (`seal`: a file its key did
 * not seal, copied or planted into the folder, is not ours); a corrupt, foreign, unsealed or
 * unreadable entry is ignored and removed. The least recently used entries go when the folder passes
 * `LIMITS.cache.maxBytes`.
 */
export function openSpecCache(dir: string, seal: EntrySeal, options: SpecCacheOptions = {}): SpecCache {
  const folder = join(dir, "specs");
  const maxBytes = options.maxBytes ?? LIMITS.cache.maxBytes;
  let fingerprint: string | null | undefined;
  let warned = false;
  const warn = (message: string): void => {
    if (warned) return;
    warned = true;
    options.warn?.(message);
  };
  const keyOf = (key: SpecCacheKey): string | undefined => {
    if (fingerprint === undefined) {
      try {
        fingerprint = codeFingerprint();
      } catch (error) {
        // Without knowing which code built an entry, no entry can be trusted: no cache.
        fingerprint = null;
        warn(`spec cache off: cannot fingerprint the code (${(error as Error).message})`);
      }
    }
    if (fingerprint === null) return undefined;
    return createHash("sha256").update(`${fingerprint}\u0000${key.remote ? "remote" : "local"}\u0000${key.source}\u0000`).update(key.text).digest("hex");
  };
  return {
    get(key) {
      const id = keyOf(key);
      if (id === undefined) return undefined;
      const file = join(folder, `${id}.bin`);
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        return undefined; // not cached (or unreadable: treated the same)
      }
      const sealed = bytes.subarray(SEAL_BYTES);
      const entry = bytes.length > SEAL_BYTES && seal.verify(bytes.subarray(0, SEAL_BYTES), sealed) ? decode(sealed, id) : undefined;
      if (entry === undefined) {
        removeQuietly(file);
        return undefined;
      }
      try {
        const now = new Date();
        utimesSync(file, now, now); // recency, for eviction
      } catch {
        // A read-only cache still serves.
      }
      return entry;
    },
    set(key, result) {
      const id = keyOf(key);
      if (id === undefined) return;
      const file = join(folder, `${id}.bin`);
      const tmp = join(folder, `.${id}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        const bytes = encode(id, result);
        writeFileSync(tmp, Buffer.concat([seal.seal(bytes), bytes]), { mode: 0o600 });
        renameSync(tmp, file);
      } catch (error) {
        removeQuietly(tmp);
        warn(`spec cache ${folder} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): specs are parsed on every load`);
        return;
      }
      evict(folder, maxBytes);
    },
  };
}

/** What an operation's page needs beyond what planning, `check` and `nav` need: its schemas. */
const HEAVY = ["parameters", "requestBody", "responses"] as const;
type Heavy = Pick<ApiOperation, (typeof HEAVY)[number]>;

interface Entry {
  readonly format: number;
  readonly id: string;
  /** The result, OpenAPI operations without their `HEAVY` fields. */
  readonly result: SpecLoadResult;
  /** For OpenAPI specs: `serialize(Heavy[])`, one per operation, deserialized when a page is rendered. */
  readonly heavy?: Uint8Array;
}

/**
 * An entry stores an OpenAPI spec's operations in two parts: what planning needs, read at once,
 * and their schemas (most of the bytes), read when a page is first rendered, so `check` and
 * `nav` never build the schema objects. The schemas of all operations are one serialized graph:
 * shared and circular schemas stay shared and circular.
 */
function encode(id: string, result: SpecLoadResult): Buffer {
  if (!result.ok || result.spec.format !== "openapi") return serialize({ format: FORMAT, id, result } satisfies Entry);
  const spec = result.spec;
  const heavy: Heavy[] = spec.operations.map((op) => ({ parameters: op.parameters, requestBody: op.requestBody, responses: op.responses }));
  const light = spec.operations.map((op) => {
    const rest: Record<string, unknown> = { ...op };
    for (const key of HEAVY) delete rest[key];
    return rest;
  });
  const entry: Entry = { format: FORMAT, id, result: { ...result, spec: { ...spec, operations: light as unknown as ApiOperation[] } }, heavy: serialize(heavy) };
  return serialize(entry);
}

function decode(bytes: Buffer, id: string): SpecLoadResult | undefined {
  let entry: Partial<Entry>;
  try {
    entry = deserialize(bytes) as Partial<Entry>;
  } catch {
    return undefined;
  }
  if (entry.format !== FORMAT || entry.id !== id || typeof entry.result?.ok !== "boolean") return undefined;
  const result = entry.result;
  if (!result.ok || result.spec.format !== "openapi" || entry.heavy === undefined) return result;
  const heavyBytes = entry.heavy;
  let parts: Heavy[] | undefined;
  const part = (i: number): Heavy => {
    parts ??= deserialize(heavyBytes) as Heavy[];
    return parts[i] as Heavy;
  };
  const operations = result.spec.operations.map((op, i) => {
    const lazy = { ...op };
    for (const key of HEAVY) Object.defineProperty(lazy, key, { enumerable: true, configurable: true, get: () => part(i)[key] });
    return lazy as ApiOperation;
  });
  return { ...result, spec: { ...result.spec, operations } };
}

/** Remove the least recently used entries until the folder is under 80% of its budget. */
function evict(folder: string, maxBytes: number): void {
  let entries: { file: string; size: number; used: number }[];
  try {
    entries = readdirSync(folder)
      .filter((name) => name.endsWith(".bin"))
      .map((name) => {
        const st = statSync(join(folder, name));
        return { file: join(folder, name), size: st.size, used: st.mtimeMs };
      });
  } catch {
    return;
  }
  let total = entries.reduce((sum, e) => sum + e.size, 0);
  if (total <= maxBytes) return;
  entries.sort((a, b) => a.used - b.used);
  for (const e of entries) {
    if (total <= maxBytes * 0.8) break;
    removeQuietly(e.file);
    total -= e.size;
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or another process removed it.
  }
}

/**
 * The esbuild bundle's fingerprint: the SHA-256 of all its chunks, written into them by
 * scripts/build.mjs. Not defined when the TypeScript sources run (tsx, vitest).
 */
declare const SVC_BUNDLE_FINGERPRINT: string | undefined;

/**
 * A hash of everything that decides what a cached result holds, and V8's serialization format.
 * In the bundle (an installed package, or a checkout's fresh dist/): the fingerprint of the whole
 * bundle, so any change to the code that runs starts a new cache. From the sources: the code that
 * parses, validates and reads specs (every file of `src/config/openapi` and `src/config/asyncapi`)
 * and package.json (the version and the pinned dependency versions); reading these ~30 files
 * costs about a millisecond, once per process that loads a spec.
 */
function codeFingerprint(): string {
  const hash = createHash("sha256").update(`svc-mcp spec cache ${FORMAT}\u0000v8 ${process.versions.v8}\u0000`);
  if (typeof SVC_BUNDLE_FINGERPRINT === "string") return hash.update(`bundle ${SVC_BUNDLE_FINGERPRINT}`).digest("hex");
  const repo = packageRoot(import.meta.url);
  const files = [join(repo, "package.json"), ...listFiles(join(repo, "src/config/openapi")), ...listFiles(join(repo, "src/config/asyncapi"))];
  for (const file of files.sort()) {
    hash.update(`${relative(repo, file)}\u0000`);
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update("(unreadable)");
    }
  }
  return hash.digest("hex");
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) appendAll(out, listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}
