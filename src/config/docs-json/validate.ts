import type { Diagnostic } from "../diagnostic.js";
import { allStages, type Stages } from "../stages.js";
import { LINK_CODES } from "../inside-root.js";
import { defaultResolveEntry, type ResolveEntry } from "./entries.js";
import type { Position } from "./json-source.js";
import { ELEMENT_TYPES } from "./elements.js";
import { childPath, parentPath, parsePath } from "./json-path.js";
import { type NavModel, readNavigation } from "./nav-model.js";
import { isUnder, type ResolvedJson } from "./refs.js";
import { RULES } from "./rules/index.js";
import type { Finding, PageFiles, Rule } from "./rules/rule.js";
import { type ReadableDocsJson, withoutValues } from "./readable.js";
import { docsJson } from "./schema.js";
import { SCHEMA_CODES, findingsFromIssues } from "./zod-issues.js";
import { SOURCE_CODES } from "./refs.js";

/** Every code docs.json validation reports with (reading, `$ref`s and the links they meet, the
 *  schema, the rules). */
export const VALIDATION_CODES: ReadonlySet<string> = new Set<string>([...SOURCE_CODES, ...LINK_CODES, ...SCHEMA_CODES, ...RULES.flatMap((r) => r.codes)]);

export interface ValidateOptions {
  /** The repository's page files: enables the rules that need them (`svc-mcp check`). */
  readonly files?: PageFiles;
  /** Decides which navigation entries are API operations (default: `defaultResolveEntry`). */
  readonly resolveEntry?: ResolveEntry;
  readonly rules?: readonly Rule[];
}

export interface Validation {
  /**
   * docs.json as the service reads it: every value the schema refuses (and every `$ref` that could
   * not be resolved) left out, the rest as written. Undefined when docs.json cannot be read as a
   * whole: it does not parse, is not an object, or leaves no navigation to read (no `navigation`
   * object, no root element that can be read). Rule findings never take a part out: they are
   * about values that can be read (see docs/docs-json.md, "What a problem costs").
   */
  readonly document: ReadableDocsJson | undefined;
  /** The navigation of `document` (of the value as written when there is none). */
  readonly model: NavModel;
  /** Every finding, sorted by file (in the order files were read) and position. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Validate a resolved docs.json: the schema, then every rule, all at once. Findings carry the
 * JSON path and the line:column in the file the value was written in (docs.json or a `$ref`'d
 * file). Findings under a `$ref` that could not be resolved are left out: they would only
 * repeat that problem.
 */
export function validateDocsJson(resolved: ResolvedJson, options: ValidateOptions = {}): Validation {
  return allStages(validationStages(resolved, options));
}

/**
 * `validateDocsJson` in stages: the schema, each rule, the readable document (each a walk of the
 * whole navigation, ~0.1-0.8 s at 90,000 entries). A reload runs them with turns between.
 */
export function* validationStages(resolved: ResolvedJson, options: ValidateOptions = {}): Stages<Validation> {
  const diagnostics: Diagnostic[] = [...resolved.diagnostics];
  const written = readNavigation(resolved.value);
  if (resolved.value === undefined) return { document: undefined, model: written, diagnostics: sortDiagnostics(diagnostics, resolved.files) };

  const seen = new Set<string>();
  const report = (f: Finding): void => {
    if (resolved.brokenPaths.some((b) => isUnder(f.path, b))) return;
    const pos = locate(resolved, f.path, f.at ?? "value");
    const key = `${f.path}\u0000${f.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    diagnostics.push({
      severity: f.severity ?? "error",
      file: pos?.file ?? resolved.files[0] ?? "docs.json",
      ...(pos !== undefined ? { line: pos.line, column: pos.column } : {}),
      path: f.path,
      message: f.message,
      code: f.code,
      // A required key missing from the file's top level (`"navigation" is required`, the file
      // is unusable) names a key of the schema and the file's first value, nothing of the site:
      // every reader may be told. Any other docs.json finding names navigation (its place, its
      // titles, its settings) and declares nothing, so only a reader of the whole site is told.
      ...(f.path === "" && f.code === "required" ? { subjects: [] } : {}),
    });
  };

  // What the schema refuses is left out of what is read: the value at the finding's path (the
  // object that lacks a required key, else the value itself), with everything under it.
  const unreadable = [...resolved.brokenPaths];
  const parsed = docsJson.safeParse(resolved.value);
  if (!parsed.success) {
    for (const f of findingsFromIssues(parsed.error.issues, resolved.value)) {
      report(f);
      unreadable.push(unreadablePart(f.path));
    }
  }
  yield "schema";
  // Rules judge the navigation as written, so that a part left out is still checked; but under
  // the root element the server reads: a root the schema refused as a whole (`"versions": 5`
  // beside a good `"groups"`) is not the one used, and the one used must be checked.
  const refusedRoot = (key: string): boolean => unreadable.includes(childPath("navigation", key));
  const judged = written.rootKeys.some(refusedRoot) ? readNavigation(resolved.value, refusedRoot) : written;
  const ctx = { doc: resolved.value, model: judged, files: options.files, resolveEntry: options.resolveEntry ?? defaultResolveEntry, report };
  for (const rule of options.rules ?? RULES) {
    if (rule.needsFiles === true && options.files === undefined) continue;
    const staged = rule.check(ctx);
    if (staged !== undefined) yield* staged;
    yield `rule ${rule.codes.join(",")}`;
  }
  const readable = readableDocument(resolved.value, unreadable, judged);
  yield "readable document";
  const sorted = sortDiagnostics(diagnostics, resolved.files);
  yield "findings sorted";
  return { document: readable?.document, model: readable?.model ?? judged, diagnostics: sorted };
}

/** What a schema finding leaves out: the value, or the object it belongs to when the object
 *  cannot be read without it (an element's title, a spec object's `source`, a global anchor's
 *  `anchor` or `href`: a `tab: 7` leaves the tab out, as a missing `tab` does). */
function unreadablePart(path: string): string {
  const segments = parsePath(path);
  const key = segments.at(-1);
  if (typeof key !== "string") return path;
  const inNavigation = segments[0] === "navigation";
  const isTitle = inNavigation && Object.values(ELEMENT_TYPES).some((t) => t.titleKey === key);
  const isSource = key === "source" && segments.some((s) => s === "openapi" || s === "asyncapi");
  const isAnchorLink = (key === "anchor" || key === "href") && segments.at(-3) === "anchors" && segments.at(-4) === "global";
  return isTitle || isSource || isAnchorLink ? parentPath(path) : path;
}

/** The document without its unreadable parts, and its navigation; undefined when that leaves
 *  no object, or no navigation with a root element. */
function readableDocument(value: unknown, unreadable: readonly string[], written: NavModel): { document: ReadableDocsJson; model: NavModel } | undefined {
  const document = unreadable.length === 0 ? value : withoutValues(value, unreadable);
  if (document === null || typeof document !== "object" || Array.isArray(document)) return undefined;
  // Nothing left out (the usual case): the navigation as written is the one read.
  const model = unreadable.length === 0 ? written : readNavigation(document);
  if (model.rootKey === undefined) return undefined;
  return { document: document as ReadableDocsJson, model };
}

/** The position of a path, or of its nearest ancestor that has one. */
export function locate(resolved: ResolvedJson, path: string, at: "key" | "value"): Position | undefined {
  if (at === "key") {
    const key = resolved.keyPositions.get(path);
    if (key !== undefined) return key;
  }
  let p = path;
  for (;;) {
    const pos = resolved.positions.get(p);
    if (pos !== undefined) return pos;
    if (p === "") return undefined;
    p = parentPath(p);
  }
}

/** Order findings by file (docs.json first, then `$ref`s as met, then others by name), then position. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[], fileOrder: readonly string[]): Diagnostic[] {
  // Ranked once per file, not per comparison: 65,000 findings are ~1.1 million comparisons.
  const ranks = new Map<string, number>();
  fileOrder.forEach((file, i) => {
    if (!ranks.has(file)) ranks.set(file, i);
  });
  const rank = (file: string): number => ranks.get(file) ?? fileOrder.length;
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => {
      const fa = rank(a.d.file);
      const fb = rank(b.d.file);
      if (fa !== fb) return fa - fb;
      if (a.d.file !== b.d.file) return a.d.file < b.d.file ? -1 : 1;
      const la = a.d.line ?? 0;
      const lb = b.d.line ?? 0;
      if (la !== lb) return la - lb;
      const ca = a.d.column ?? 0;
      const cb = b.d.column ?? 0;
      if (ca !== cb) return ca - cb;
      return a.i - b.i;
    })
    .map(({ d }) => d);
}
