import { LIMITS } from "../../limits.js";
import { asyncapi3ShapeWarnings } from "../asyncapi/async-shapes.js";
import { asyncapi2ShapeWarnings } from "../asyncapi/async-v2-shapes.js";
import { readAsyncapi } from "../asyncapi/read-asyncapi.js";
import type { IgnoreRules } from "../ignore-rule-set.js";
import { refusalCode } from "../inside-root.js";
import { type ConfigFiles, NO_CONFIG_FILES, readSpecFile, SPEC_FILE_MISSING } from "./spec-file.js";
import { findDataCycles, CIRCULAR } from "../data-cycles.js";
import { type Dereferenced, dereferenceDocument } from "./dereference.js";
import { cutRefsIntoRestricted } from "./restricted-refs.js";
import type { ApiSpec } from "./model.js";
import { readOperations, readServers } from "./operations.js";
import { parseDocument, tooLargeMessage } from "./parse-document.js";
import { expandedSize } from "../expanded-size.js";
import { readSchemaComponents } from "./schema-components.js";
import { pointerSegments, specLocator, type TextPosition } from "./spec-positions.js";
import type { SpecCache } from "./spec-cache.js";
import type { SpecLoadResult } from "./spec-load-result.js";
import type { SpecWarning } from "./spec-warning.js";
import { operationExtensionWarnings } from "./operation-extensions.js";
import { isStackOverflow } from "../stack-overflow.js";
import { type OpenapiValidator, pointerToPath } from "./validate-openapi.js";
import type { RefFile, RefReaders } from "./ref-target.js";
import { type FetchLike, fetchRemoteText } from "./remote-text.js";

export type { FetchLike } from "./remote-text.js";

export interface SpecLoaderDeps {
  /** Repository root: local sources resolve against it and may not leave it. */
  readonly root: string;
  /** The repository's ignore rules: a spec or a `$ref` into a file they exclude is refused as missing. */
  readonly ignore: IgnoreRules;
  readonly validator: OpenapiValidator;
  /** How remote specs are fetched; undefined means they are not fetched (reported as such). */
  readonly fetch?: FetchLike;
  readonly fetchTimeoutMs?: number;
  /** Results by spec text, kept across processes (see `openSpecCache`); unset: none. */
  readonly cache?: SpecCache;
  /** Whether every reader of this spec may read a repository file its `$ref`s name (`ref-target.ts`). */
  readonly readers?: RefReaders;
  /** The files the site reads as its configuration, never read as a spec (`refusedAsSpec`);
   *  unset: none but docs.json (tests, benchmarks). */
  readonly configFiles?: ConfigFiles;
}

/**
 * Load, validate and dereference one spec. Every failure is a result with a message. `localText`
 * is the local file's text when the caller has read it already, inside the root (the site mounts
 * spec files).
 */
export async function loadApiSpec(source: string, remote: boolean, deps: SpecLoaderDeps, localText?: string): Promise<SpecLoadResult> {
  const text = remote ? await fetchText(source, deps) : localText !== undefined ? ({ ok: true, text: localText } as const) : readLocal(source, deps.root, deps.ignore, deps.configFiles ?? NO_CONFIG_FILES);
  if (!text.ok) return text;
  return buildSpec(text.text, source, remote, deps);
}

/**
 * Parse, validate and dereference spec text (exported for benchmarks and tests), or take the
 * result from the cache when this text was built before.
 */
export async function buildSpec(text: string, source: string, remote: boolean, deps: Pick<SpecLoaderDeps, "root" | "ignore" | "validator" | "cache" | "fetch" | "readers">): Promise<SpecLoadResult> {
  const key = { text, source, remote };
  const hit = deps.cache?.get(key);
  if (hit !== undefined) return hit;
  let built: { result: SpecLoadResult; selfContained: boolean };
  try {
    built = await buildUncached(text, source, remote, deps);
  } catch (error) {
    // The nesting limits keep our own walkers and the generated validators within the stack;
    // this is the net under what they cannot see (a library's recursion over a shape they let
    // through): a spec the reader cannot follow costs its pages, never the server.
    if (!isStackOverflow(error)) throw error;
    // Past the parse (whose own overflow is its result): the text is an API description.
    built = { result: { ok: false, message: STACK_OVERFLOW }, selfContained: false };
  }
  const { result, selfContained } = built;
  // A spec whose `$ref`s read other files may change while its text does not: not cached.
  if (selfContained) deps.cache?.set(key, result);
  return result;
}

async function buildUncached(text: string, source: string, remote: boolean, deps: Pick<SpecLoaderDeps, "root" | "ignore" | "validator" | "fetch" | "readers">): Promise<{ result: SpecLoadResult; selfContained: boolean }> {
  // The files its `$ref`s read, whatever the result: it depends on them as on its text.
  const reads: RefFile[] = [];
  const done = (result: SpecLoadResult, selfContained = true) => ({ result: reads.length > 0 ? { ...result, refFiles: reads } : result, selfContained });
  const parsed = parseDocument(text);
  // Text that is no API description is never mounted as one (`notSpec`): a page, a snippet or a
  // secret named as a spec would be served as written to every reader (adversary round 59 F1).
  if (!parsed.ok) {
    const notSpec = parsed.versioned === true ? {} : ({ notSpec: true } as const);
    return done(parsed.line === undefined ? { ok: false, message: parsed.message, ...notSpec, ...(parsed.overLimit === true ? { overLimit: true } : {}) } : { ok: false, message: parsed.message, line: parsed.line, ...notSpec });
  }
  const { document, type } = parsed;
  const parseWarnings: SpecWarning[] = parsed.warning !== undefined ? [{ message: parsed.warning }] : [];
  const locate = specLocator(text);
  const placed = (warnings: readonly SpecWarning[]): SpecWarning[] => warnings.map((w) => placeWarning(w, locate));
  if (type.kind === "unsupported") return done({ ok: false, message: type.message, ...(type.versioned === true ? {} : { notSpec: true }) });
  if (type.kind === "swagger") {
    return done({
      ok: false,
      message: `Swagger ${type.raw} is not supported: convert it to OpenAPI 3 (for example with swagger2openapi, or "Convert to OpenAPI 3" in editor.swagger.io)`,
    });
  }
  // A remote spec's relative `$ref`s resolve against its URL, never the repository (finding 43).
  const location = remote
    ? { root: deps.root, ignore: deps.ignore, url: source, ...(deps.fetch !== undefined ? { fetch: deps.fetch } : {}) }
    : { root: deps.root, ignore: deps.ignore, file: source, reads, ...(deps.readers !== undefined ? { readers: deps.readers } : {}) };
  // Pages are built from the document without `$ref`s that cross into restricted parts.
  const cut = cutRefsIntoRestricted(document, type.kind);
  if (type.kind === "asyncapi") {
    let deref: Dereferenced;
    // Dereferencing replaces `$ref`s in place; message names are read from the references each
    // operation writes (`readAsyncapi`), so a copy as written is kept (aliases stay shared).
    const written = structuredClone(cut.document);
    try {
      deref = await dereferenceDocument(cut.document, location);
    } catch (error) {
      return done({ ok: false, message: `cannot resolve $ref: ${refError(error)}` }, false);
    }
    const expanded = expandedSize(deref.document, LIMITS.api.maxExpandedValues);
    if (expanded.over) return done({ ok: false, message: tooLargeMessage(expanded.at), overLimit: true }, deref.selfContained);
    const circles = circleWarnings(findDataCycles(deref.document));
    const read = readAsyncapi(deref.document, source, type.version, written);
    const shapes = !read.ok ? [] : type.version === "3" ? asyncapi3ShapeWarnings(deref.document, written) : asyncapi2ShapeWarnings(deref.document, written);
    if (read.ok && cut.stray.length > 0) read.spec = { ...read.spec, strayParts: cut.stray };
    const decided = deref.decisions.length > 0 ? { refDecisions: deref.decisions } : {};
    return done(read.ok ? { ok: true, spec: read.spec, warnings: placed([...parseWarnings, ...cut.warnings, ...deref.warnings, ...circles, ...shapes]), ...decided } : { ok: false, message: read.message, ...decided }, deref.selfContained);
  }
  const problems = await deps.validator.validate(document, type.version);
  // A problem inside an operation costs that operation (`readOperations`); one inside a named
  // component or in the document's descriptive parts is read as written, as the hosted platform
  // does, with a warning (a 3.0 spec's `type: "null"`, which 3.1 allows, is common in generated
  // specs; sequence's deployed Japanese spec has a security scheme of `type: "APIキー"`, whose
  // operations the platform shows; every reader of such a part is tolerant of odd values). Any
  // other (no `paths`, no `info`, a path item that is not an object) costs the spec.
  const inSchemas = problems.filter((p) => READ_AS_WRITTEN.test(p.pointer));
  // A path parameter written `required: false` (fishaudio's generated `{user_id}` with a default)
  // is in the path all the same: the platform renders the operation, so it is read as required
  // with a warning, not skipped (the page showed only its front matter).
  const loose = optionalPathParameters(document, problems);
  const optionalInPath = [...new Set(problems.filter((p) => loose.has(parameterOf(p.pointer) ?? "")).map((p) => parameterOf(p.pointer) as string))];
  const kept = problems.filter((p) => !loose.has(parameterOf(p.pointer) ?? ""));
  const outside = problems.filter((p) => !/^\/(paths|webhooks)\/[^/]+/.test(p.pointer) && !READ_AS_WRITTEN.test(p.pointer));
  if (outside.length > 0) {
    // Each problem is its own finding, at its place in the spec: one never hides another.
    // What is read as written elsewhere is said too, as the warning it is when the spec loads.
    const findings = [...outside.map((p) => ({ p, warning: false })), ...inSchemas.map((p) => ({ p, warning: true }))].map(({ p, warning }) => {
      const pos = locate(pointerSegments(p.pointer));
      const message = warning ? `${p.message} (not valid OpenAPI ${type.raw})` : p.message;
      return { path: pointerToPath(p.pointer), message, ...(pos !== undefined ? { line: pos.line, column: pos.column } : {}), ...(warning ? { warning: true as const } : {}) };
    });
    return done({ ok: false, message: `invalid OpenAPI ${type.raw} document (${outside.length === 1 ? "1 problem" : `${outside.length} problems`}, each said at the spec): no pages are generated from it`, problems: findings });
  }
  let resolved: Dereferenced;
  try {
    resolved = await dereferenceDocument(cut.document, location);
  } catch (error) {
    return done({ ok: false, message: `cannot resolve $ref: ${refError(error)}` }, false);
  }
  const deref = resolved.document;
  // Schemas each referencing the one below nine times, ten deep: a few hundred bytes that every
  // page, example and search body would read as billions of values (`expanded-size.ts`).
  const expanded = expandedSize(deref, LIMITS.api.maxExpandedValues);
  if (expanded.over) return done({ ok: false, message: tooLargeMessage(expanded.at), overLimit: true }, resolved.selfContained);
  const circles = circleWarnings(findDataCycles(deref));
  const info = (deref.info ?? {}) as Record<string, unknown>;
  const description = typeof info.description === "string" && info.description.trim() !== "" ? info.description : undefined;
  const spec: ApiSpec = {
    format: "openapi",
    source,
    version: type.version,
    title: typeof info.title === "string" ? info.title : source,
    ...(description !== undefined ? { description } : {}),
    servers: readServers(deref.servers),
    operations: readOperations(deref, kept, (pointer) => locate(pointerSegments(pointer))),
    schemas: readSchemaComponents(deref),
    ...(cut.stray.length > 0 ? { strayParts: cut.stray } : {}),
  };
  const schemaWarnings = inSchemas.map((p): SpecWarning => ({ message: `${pointerToPath(p.pointer)}: ${p.message} (not valid OpenAPI ${type.raw}); read as written`, at: pointerSegments(p.pointer) }));
  const pathWarnings = optionalInPath.map((at): SpecWarning => ({ message: `${pointerToPath(`${at}/required`)}: a path parameter must be required (not valid OpenAPI ${type.raw}); read as required`, at: pointerSegments(`${at}/required`) }));
  const decided = resolved.decisions.length > 0 ? { refDecisions: resolved.decisions } : {};
  const extensionWarnings = operationExtensionWarnings(deref);
  return done({ ok: true, spec, warnings: placed([...parseWarnings, ...cut.warnings, ...resolved.warnings, ...circles, ...schemaWarnings, ...pathWarnings, ...extensionWarnings]), ...decided }, resolved.selfContained);
}

/** A warning about one place of the spec, with that place's line and column (`at` dropped: it
 *  is the loader's, and results are cached as they are). */
function placeWarning(w: SpecWarning, locate: (at: readonly (string | number)[]) => TextPosition | undefined): SpecWarning {
  if (w.at === undefined) return w;
  const { at, ...rest } = w;
  const pos = locate(at);
  return pos !== undefined ? { ...rest, line: pos.line, column: pos.column } : rest;
}

/**
 * The pointers of problems read as written (`buildUncached`): inside one named component of any
 * kind (`/components/securitySchemes/ApiKeyAuth/type`), inside `info` (not `info` itself), one
 * server, tag or security requirement, `externalDocs`.
 */
const READ_AS_WRITTEN = /^\/(?:components\/[^/]+\/[^/]+|info\/[^/]+|servers\/\d+|tags\/\d+|security\/\d+|externalDocs)(?:\/|$)/;

/** The pointer of the parameter a problem is in (`/paths/~1a/get/parameters/0`), if any. */
function parameterOf(pointer: string): string | undefined {
  return /^\/(?:paths|webhooks)\/[^/]+\/(?:[^/]+\/)?parameters\/\d+(?=\/|$)/.exec(pointer)?.[0];
}

/**
 * Parameters written `in: path` whose only problems are `required` not being true, and the
 * other branches of the version's parameter `oneOf` (3.0's validator also says `in` must be
 * `query`, `header` or `cookie`): their pointers.
 */
function optionalPathParameters(document: unknown, problems: readonly { pointer: string; message: string }[]): Set<string> {
  const byParameter = new Map<string, string[]>();
  for (const p of problems) {
    const at = parameterOf(p.pointer);
    if (at !== undefined) byParameter.set(at, [...(byParameter.get(at) ?? []), `${p.pointer.slice(at.length)} ${p.message}`]);
  }
  const out = new Set<string>();
  for (const [at, found] of byParameter) {
    const onlyRequired = found.some((f) => /^\/required must be (?:true|one of true)$/.test(f)) && found.every((f) => /^\/required must be (?:true|one of true)$|^\/in must be one of "\w+"$/.test(f));
    if (onlyRequired && (valueAt(document, at) as { in?: unknown } | undefined)?.in === "path") out.add(at);
  }
  return out;
}

/** The value at a JSON pointer of `document` (undefined when absent). */
function valueAt(document: unknown, pointer: string): unknown {
  let v: unknown = document;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;
  }
  return v;
}

const STACK_OVERFLOW = `nested too deeply to read (the reader's stack overflowed; specs may nest ${LIMITS.api.maxSpecDepth} levels as written, ${LIMITS.api.maxResolvedDepth} with $refs replaced)`;

/** Why resolving failed; a stack overflow (the full resolver following a long chain) said plainly. */
function refError(error: unknown): string {
  return isStackOverflow(error) ? STACK_OVERFLOW : (error as Error).message;
}

type TextResult = { ok: true; text: string } | { ok: false; message: string; notFetched?: boolean; code?: string; missing?: boolean; withdrawn?: true };

/** A spec file of the repository (never outside it, never a file no spec may be: `readSpecFile`). */
function readLocal(source: string, root: string, ignore: IgnoreRules, configFiles: ConfigFiles): TextResult {
  const read = readSpecFile(root, source, ignore, configFiles);
  if (read === SPEC_FILE_MISSING) return { ok: false, message: read.message, missing: true, withdrawn: true };
  if (read.ok) return { ok: true, text: read.text };
  const code = refusalCode(read);
  const message = read.reason === "too-large" ? `${read.size} bytes is over the ${LIMITS.load.maxSpecBytes}-byte spec limit` : read.reason === "not-file" ? "not a file" : read.message;
  return { ok: false, message, ...(code !== undefined ? { code } : {}), ...(read.reason === "missing" ? { missing: true } : {}) };
}

async function fetchText(url: string, deps: SpecLoaderDeps): Promise<TextResult> {
  if (deps.fetch === undefined) return { ok: false, message: "remote spec not fetched", notFetched: true };
  return fetchRemoteText(url, deps.fetch, deps.fetchTimeoutMs);
}

/** `check`'s word on data values whose `$ref` pointed back up them (`findDataCycles`). */
function circleWarnings(cuts: readonly (readonly string[])[]): SpecWarning[] {
  return cuts.slice(0, 5).map((at) => ({ message: `$ref at ${at.join(".")} points back into the value that holds it: read as "${CIRCULAR}"` }));
}

