import { isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LIMITS } from "../../limits.js";
import type { IgnoreRules } from "../ignore-rule-set.js";
import { readInsideRoot, refusalCode } from "../inside-root.js";
import { dereferenceLocal, needsFullResolver } from "./dereference-internal.js";

/**
 * Replace every `$ref` with what it points to, in place. External references to other files
 * are followed only inside the repository, links included (a spec must not read `/etc/passwd`
 * into a page: every file is read with `readInsideRoot`);
 * references over HTTP are never followed (nothing fetches from the network unless docs.json
 * names the URL itself). Circular references become circular objects: renderers bound depth.
 * A reference that points nowhere is a warning and stays a `$ref` (the field it stands for is
 * still listed, as `any`). Documents whose references all stay inside them (nearly all) take a
 * fast path that builds the same object graph in a tenth of the time (`dereference-internal.ts`).
 */
export async function dereferenceDocument(
  document: Record<string, unknown>,
  location: SpecLocation,
): Promise<Dereferenced> {
  if (!needsFullResolver(document)) {
    const local = dereferenceLocal(document);
    return { document: local.document, warnings: local.problems.map((p) => unresolved(p.at, p.message)), selfContained: true };
  }
  return { ...(await dereferenceWithRefParser(document, location)), selfContained: false };
}

/** Where a spec is: the repository (its root, and the ignore rules every file read through a
 *  `$ref` must pass) and the spec file, when it is one of the repository's. */
export interface SpecLocation {
  readonly root: string;
  readonly ignore: IgnoreRules;
  readonly file?: string;
}

/** A reference left unresolved, for `check`; `code` when it is not the API reference's own. */
export interface SpecWarning {
  readonly message: string;
  readonly code?: string;
}

export interface Dereferenced {
  readonly document: Record<string, unknown>;
  readonly warnings: SpecWarning[];
  /** True when nothing outside the document was read (the result depends on its text alone). */
  readonly selfContained: boolean;
}

/**
 * The full resolver (json-schema-ref-parser): references to other files of the repository, and
 * `$id`-scoped schemas. A reference that points nowhere becomes `null` here.
 */
export async function dereferenceWithRefParser(
  document: Record<string, unknown>,
  location: SpecLocation,
): Promise<{ document: Record<string, unknown>; warnings: SpecWarning[] }> {
  const root = resolve(location.root);
  // The base for relative `$ref`s: the spec file itself (or the root for a fetched spec, whose
  // relative references then resolve inside the repository, never against the remote host).
  const base = location.file !== undefined ? resolve(root, location.file) : resolve(root, "__remote_spec__.json");
  // Loaded only for the rare spec that needs it: importing the library costs ~60 ms of start-up.
  const { default: $RefParser, ResolverError } = await import("@apidevtools/json-schema-ref-parser");
  const parser = new $RefParser();
  const confinedFile = {
    order: 1,
    canRead: (file: { url: string }) => /^file:/i.test(file.url) || isAbsolute(file.url) || !/^[a-z][a-z0-9+.-]*:/i.test(file.url),
    read: (file: { url: string }) => {
      const path = /^file:/i.test(file.url) ? fileURLToPath(file.url) : resolve(file.url);
      const rel = relative(root, path);
      // Thrown as the library's own error type, so that its message (and code, as `ioErrorCode`)
      // reaches the warning instead of a generic "Error reading file".
      if (rel.startsWith("..") || isAbsolute(rel)) throw new ResolverError(new Error(`$ref to ${file.url} leaves the repository`), file.url);
      const read = readInsideRoot(root, rel, { maxBytes: LIMITS.load.maxSpecBytes, ignore: location.ignore });
      if (read.ok) return read.text;
      throw new ResolverError(Object.assign(new Error(`$ref to ${rel}: ${read.message}`), { code: refusalCode(read, read.errno ?? read.reason) }), file.url);
    },
  };
  const options = {
    // Collect every broken reference instead of stopping at the first: real specs ship with a
    // dangling `$ref` or two (spree's store.yaml does), and the rest of the spec is fine.
    continueOnError: true,
    resolve: { file: confinedFile, http: false },
    dereference: { circular: true, preservedProperties: ["summary", "description"] },
  };
  try {
    const result = await parser.dereference(base, document, options as never);
    return { document: result as Record<string, unknown>, warnings: [] };
  } catch (error) {
    const group = error as { errors?: { message: string; path?: readonly (string | number)[]; ioErrorCode?: string }[] };
    if (!Array.isArray(group.errors) || typeof parser.schema !== "object" || parser.schema === null) throw error;
    const warnings = group.errors.map((e) => unresolved(e.path ?? [], e.message, e.ioErrorCode === "outside-link" ? "outside-link" : undefined));
    return { document: parser.schema as Record<string, unknown>, warnings };
  }
}

function unresolved(at: readonly (string | number)[], message: string, code?: string): SpecWarning {
  return { message: `unresolved $ref${at.length > 0 ? ` (at ${at.join(".")})` : ""}: ${message}; left as is`, ...(code !== undefined ? { code } : {}) };
}
