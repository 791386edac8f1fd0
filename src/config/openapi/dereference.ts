import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { LIMITS } from "../../limits.js";
import type { IgnoreRules } from "../ignore-rule-set.js";
import { refusalCode } from "../inside-root.js";
import { dereferenceLocal, needsFullResolver, safeDecode } from "./dereference-internal.js";
import { readPageMeta } from "../page-meta.js";
import { parseDocument } from "./parse-document.js";
import { pruneSpec } from "./prune-spec.js";
import { type RefDecision, type RefFile, type RefReaders, readRefFile, refusedByPath } from "./ref-target.js";
import { mayHaveMetadata, metadataPartsOfDocument } from "./restricted-parts.js";
import { type FetchLike, fetchRemoteText } from "./remote-text.js";
import type { SpecWarning } from "./spec-warning.js";

/**
 * Replace every `$ref` with what it points to, in place. A local spec's references to other
 * files are followed only to a file the site would serve that every reader of the spec may read
 * (`ref-target.ts`): inside the repository, links included (a spec must not read `/etc/passwd`
 * into a page: every file is read with `readInsideRoot`), not ignored, no dot-file, not docs.json.
 * A remote spec's references resolve against its URL, never against the repository: to its own
 * host only (fetched as the spec was), never to a file of this machine. A local spec's references
 * over HTTP are never followed (nothing fetches from the network unless docs.json names the URL
 * itself). Circular references become circular objects: renderers bound depth.
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
    return { document: local.document, warnings: local.problems.map((p) => unresolved(p.at, p.message)), selfContained: true, decisions: [] };
  }
  return { ...(await dereferenceWithRefParser(document, location)), selfContained: false };
}

/** Where a spec is: the repository (its root, and the ignore rules every file read through a
 *  `$ref` must pass) and the spec file, when it is one of the repository's; or its URL, for a
 *  remote one. */
export interface SpecLocation {
  readonly root: string;
  readonly ignore: IgnoreRules;
  readonly file?: string;
  /** A remote spec's URL: its relative `$ref`s resolve against it (never against `root`). */
  readonly url?: string;
  /** How a remote spec's `$ref`s to its own host are fetched; unset: they are not. */
  readonly fetch?: FetchLike;
  /** Whether every reader of the spec may read a repository file (`RefReaders`). */
  readonly readers?: RefReaders;
  /** Told every repository file a `$ref` read or tried to (`RefFile`), whatever came of it: even a
   *  resolve that fails depends on them. */
  readonly reads?: RefFile[];
}

/** A reference left unresolved, for `check` (`spec-warning.ts`, apart so that the load's result type need not import this file). */
export type { SpecWarning };

export interface Dereferenced {
  readonly document: Record<string, unknown>;
  readonly warnings: SpecWarning[];
  /** True when nothing outside the document was read (the result depends on its text alone). */
  readonly selfContained: boolean;
  /** What `SpecLocation.readers` decided (the result depends on it). */
  readonly decisions: readonly RefDecision[];
}

/**
 * The full resolver (json-schema-ref-parser): references to other files of the repository (or of
 * a remote spec's host), and `$id`-scoped schemas. A reference that points nowhere, or to a file
 * it may not read, becomes `null` here, the same way whatever the reason (a reader's page shows
 * no difference between a file that is missing and one they may not read).
 */
export async function dereferenceWithRefParser(
  document: Record<string, unknown>,
  location: SpecLocation,
): Promise<{ document: Record<string, unknown>; warnings: SpecWarning[]; decisions: RefDecision[] }> {
  const root = resolve(location.root);
  // The base for relative `$ref`s: the spec file itself, or a remote spec's URL (never the root:
  // a remote host must not name the files of this machine, finding 43).
  const base = location.url ?? (location.file !== undefined ? resolve(root, location.file) : resolve(root, "__unnamed_spec__.json"));
  // Loaded only for the rare spec that needs it: importing the library costs ~60 ms of start-up.
  const { default: $RefParser, ResolverError } = await import("@apidevtools/json-schema-ref-parser");
  const parser = new $RefParser();
  const decisions: RefDecision[] = [];
  const refuse = (url: string, message: string, code?: string): never => {
    // Thrown as the library's own error type, so that its message (and code, as `ioErrorCode`)
    // reaches the warning instead of a generic "Error reading file".
    throw new ResolverError(Object.assign(new Error(message), code !== undefined ? { code } : {}), url);
  };
  const confinedFile = {
    order: 1,
    canRead: (file: { url: string }) => /^file:/i.test(file.url) || isAbsolute(file.url) || !/^[a-z][a-z0-9+.-]*:/i.test(file.url),
    read: (file: { url: string }) => {
      if (location.url !== undefined) return refuse(file.url, `$ref to ${file.url}: a remote spec's $ref is never read from this machine`);
      const path = /^file:/i.test(file.url) ? fileURLToPath(file.url) : resolve(file.url);
      const rel = relative(root, path).split(sep).join("/");
      if (rel.startsWith("..") || isAbsolute(rel)) return refuse(file.url, `$ref to ${file.url} leaves the repository`);
      const read = readRefFile(root, rel, location.ignore);
      location.reads?.push(read.ok ? { rel, real: read.real, text: read.text } : { rel });
      if (!read.ok) return refuse(file.url, `$ref to ${rel}: ${read.message}`, refusalCode(read, read.errno ?? read.reason));
      // A link inside the root is judged by where it leads too: `a.json -> .env` serves `.env`.
      const byPath = refusedByPath(rel) ?? (read.real !== rel ? refusedByPath(read.real) : undefined);
      if (byPath !== undefined) return refuse(file.url, `$ref to ${rel}: ${read.real !== rel ? `a link to ${read.real}, ` : ""}${byPath}`);
      const readers = location.readers;
      if (readers === undefined) return read.text;
      for (const target of read.real !== rel ? [rel, read.real] : [rel]) {
        const allowed = readers.file(target);
        decisions.push({ rel: target, allowed });
        // Worded for the author (`check` and reload diagnostics reach no reader over HTTP); the
        // pages are those of a missing file.
        if (!allowed) return refuse(file.url, `$ref to ${rel}: not every reader of this spec may read ${target}`);
      }
      return withoutPartsOthersRead(read.text, readers, decisions);
    },
  };
  const remoteFiles = new Set<string>();
  const sameHost = {
    order: 2,
    canRead: (file: { url: string }) => /^https?:/i.test(file.url),
    read: async (file: { url: string }) => {
      // A local spec's references over HTTP are never followed; a remote spec's only to its own
      // origin, with the limits of the spec's own download.
      if (location.url === undefined) return refuse(file.url, `$ref to ${file.url}: a repository spec's $ref is never fetched`);
      if (new URL(file.url).origin !== new URL(location.url).origin) return refuse(file.url, `$ref to ${file.url}: a remote spec's $ref is fetched only from the spec's own host (${new URL(location.url).origin})`);
      if (location.fetch === undefined) return refuse(file.url, `$ref to ${file.url}: not fetched`);
      remoteFiles.add(file.url);
      if (remoteFiles.size > LIMITS.api.maxRemoteRefFiles) return refuse(file.url, `$ref to ${file.url}: over the ${LIMITS.api.maxRemoteRefFiles} files a remote spec's $refs may fetch`);
      const got = await fetchRemoteText(file.url, location.fetch);
      return got.ok ? got.text : refuse(file.url, `$ref to ${file.url}: ${got.message}`);
    },
  };
  const options = {
    // Collect every broken reference instead of stopping at the first: real specs ship with a
    // dangling `$ref` or two (spree's store.yaml does), and the rest of the spec is fine.
    continueOnError: true,
    resolve: { file: confinedFile, http: sameHost },
    dereference: { circular: true, preservedProperties: ["summary", "description"] },
  };
  // Every external `$ref` of the document as written, before it is replaced: the library reports
  // one error per file, so a second `$ref` into a refused file would otherwise go unreported.
  const written = externalRefs(document);
  const warnings: SpecWarning[] = [];
  let result: Record<string, unknown>;
  try {
    result = (await parser.dereference(base, document, options as never)) as Record<string, unknown>;
  } catch (error) {
    const group = error as { errors?: { message: string; path?: readonly (string | number)[]; ioErrorCode?: string; code?: string }[] };
    if (!Array.isArray(group.errors) || typeof parser.schema !== "object" || parser.schema === null) throw error;
    result = parser.schema as Record<string, unknown>;
    const { resolve: resolveUrl, stripHash } = await import("@apidevtools/json-schema-ref-parser/dist/lib/util/url.js");
    const target = (ref: string): string => stripHash(resolveUrl(base, ref));
    const byPlace = new Map(written.map((w) => [w.at.join("."), w.ref] as const));
    const byTarget = new Map<string, { message: string; code?: string }>();
    for (const e of group.errors) {
      const at = e.path ?? [];
      const ref = byPlace.get(at.join("."));
      const code = e.ioErrorCode === "outside-link" ? "outside-link" : undefined;
      // A file that could not be read (not a pointer missing in a file that was: that one is
      // about its own `$ref` only).
      if (ref !== undefined && e.code === "ERESOLVER" && !byTarget.has(target(ref))) byTarget.set(target(ref), { message: e.message, ...(code !== undefined ? { code } : {}) });
      warnings.push(unresolved(at, e.message, code, ref));
    }
    // The library reports one error per file: every other `$ref` into a file it could not read
    // is reported at its own place too.
    const reported = new Set(group.errors.map((e) => (e.path ?? []).join(".")));
    for (const w of written) {
      const e = byTarget.get(target(w.ref));
      if (e === undefined || reported.has(w.at.join("."))) continue;
      warnings.push(unresolved(w.at, e.message, e.code, w.ref));
    }
  }
  // A chain of `#...` references that comes back to itself is left by the library as a `$ref`,
  // without an error; the fast path (`dereferenceLocal`) reports it, and so does this one.
  const reported = new Set(warnings.map((w) => w.message));
  for (const r of leftLocalRefs(result)) {
    // One that points nowhere was reported by the library already, in its words.
    if (!pointsAtRef(result, r.ref)) continue;
    const warning = unresolved(r.at, `$ref pointer "${r.ref}" comes back to itself through $refs alone: nothing to point at.`);
    if (!reported.has(warning.message)) warnings.push(warning);
  }
  return { document: result, warnings, decisions };
}

/** Whether `ref` (`#/a/b`) leads, in `document`, to an object that is a `$ref` itself: a loop. */
function pointsAtRef(document: Record<string, unknown>, ref: string): boolean {
  let node: unknown = document;
  const pointer = ref.slice(1);
  const tokens = pointer === "" ? [] : pointer.split("/").slice(1).map((t) => safeDecode(t).replace(/~1/g, "/").replace(/~0/g, "~"));
  for (const token of tokens) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, token)) return false;
    node = (node as Record<string, unknown>)[token];
  }
  return typeof node === "object" && node !== null && typeof (node as Record<string, unknown>).$ref === "string";
}

/** The `#...` references still in a dereferenced document (chains that loop), with where each is. */
function leftLocalRefs(document: Record<string, unknown>): { at: (string | number)[]; ref: string }[] {
  const out: { at: (string | number)[]; ref: string }[] = [];
  const seen = new Set<object>();
  const walk = (node: unknown, at: (string | number)[]): void => {
    if (typeof node !== "object" || node === null || seen.has(node) || at.length > LIMITS.api.maxResolvedDepth) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((v, i) => walk(v, [...at, i]));
      return;
    }
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === "string" && ref.startsWith("#")) out.push({ at, ref });
    for (const [k, v] of Object.entries(node)) if (k !== "$ref") walk(v, [...at, k]);
  };
  walk(document, []);
  return out;
}

/**
 * Another spec's text without its parts (`x-svc` `metadata.groups`) that not every reader of the
 * referring spec may read, and what only they used (`pruneSpec`, as each reader's copy of that
 * file is cut): a `$ref` into such a part is then left unresolved like one into a missing part.
 */
function withoutPartsOthersRead(text: string, readers: RefReaders, decisions: RefDecision[]): string {
  if (!mayHaveMetadata(text)) return text;
  const parsed = parseDocument(text);
  if (!parsed.ok || (parsed.type.kind !== "openapi" && parsed.type.kind !== "asyncapi")) return text;
  const cut = metadataPartsOfDocument(parsed.document, parsed.type.kind).flatMap(({ part, metadata }) => {
    const meta = readPageMeta(metadata);
    const rule = { ...(meta.groups !== undefined ? { groups: meta.groups } : {}), ...(meta.public === true ? { public: true } : {}) };
    const allowed = readers.part(rule);
    decisions.push({ rule, allowed });
    return allowed ? [] : [part];
  });
  return cut.length === 0 ? text : JSON.stringify(pruneSpec(parsed.document, cut).value);
}

/** The `$ref`s of a document that name another file or a URL, with where each is. */
function externalRefs(document: Record<string, unknown>): { at: (string | number)[]; ref: string }[] {
  const out: { at: (string | number)[]; ref: string }[] = [];
  const seen = new Set<object>();
  const walk = (node: unknown, at: (string | number)[]): void => {
    if (typeof node !== "object" || node === null || seen.has(node) || at.length > LIMITS.api.maxResolvedDepth) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((v, i) => walk(v, [...at, i]));
      return;
    }
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === "string" && ref !== "" && !ref.startsWith("#")) out.push({ at, ref });
    for (const [k, v] of Object.entries(node)) if (k !== "$ref") walk(v, [...at, k]);
  };
  walk(document, []);
  return out;
}

function unresolved(at: readonly (string | number)[], message: string, code?: string, ref?: string): SpecWarning {
  return { message: `unresolved $ref${ref !== undefined ? ` ${JSON.stringify(ref)}` : ""}${at.length > 0 ? ` (at ${at.join(".")})` : ""}: ${message}; left as is`, at: [...at, "$ref"], ...(code !== undefined ? { code } : {}) };
}
