import type { Diagnostic } from "../diagnostic.js";
import { defaultResolveEntry, type ResolveEntry } from "./entries.js";
import type { Position } from "./json-source.js";
import { type NavModel, readNavigation } from "./nav-model.js";
import { isUnder, type ResolvedJson } from "./refs.js";
import { RULES } from "./rules/index.js";
import type { Finding, PageFiles, Rule } from "./rules/rule.js";
import { type DocsJson, docsJson } from "./schema.js";
import { findingsFromIssues } from "./zod-issues.js";

export interface ValidateOptions {
  /** The repository's page files: enables the rules that need them (`svc-mcp check`). */
  readonly files?: PageFiles;
  /** Decides which navigation entries are API operations (default: `defaultResolveEntry`). */
  readonly resolveEntry?: ResolveEntry;
  readonly rules?: readonly Rule[];
}

export interface Validation {
  /** The typed document, when the configuration has no error. Errors only the repository's
   *  files reveal (a page without a file) do not count: the configuration is still usable. */
  readonly document: DocsJson | undefined;
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
  const diagnostics: Diagnostic[] = [...resolved.diagnostics];
  const model = readNavigation(resolved.value);
  if (resolved.value === undefined) return { document: undefined, model, diagnostics: sortDiagnostics(diagnostics, resolved.files) };

  const seen = new Set<string>();
  let configErrors = 0;
  let fromFiles = false;
  const report = (f: Finding): void => {
    if (resolved.brokenPaths.some((b) => isUnder(f.path, b))) return;
    const pos = locate(resolved, f.path, f.at ?? "value");
    const key = `${f.path}\u0000${f.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    if ((f.severity ?? "error") === "error" && !fromFiles) configErrors++;
    diagnostics.push({
      severity: f.severity ?? "error",
      file: pos?.file ?? resolved.files[0] ?? "docs.json",
      ...(pos !== undefined ? { line: pos.line, column: pos.column } : {}),
      path: f.path,
      message: f.message,
      code: f.code,
    });
  };

  configErrors += resolved.diagnostics.filter((d) => d.severity === "error").length;
  const parsed = docsJson.safeParse(resolved.value);
  if (!parsed.success) {
    for (const f of findingsFromIssues(parsed.error.issues, resolved.value)) report(f);
  }
  const ctx = { doc: resolved.value, model, files: options.files, resolveEntry: options.resolveEntry ?? defaultResolveEntry, report };
  for (const rule of options.rules ?? RULES) {
    if (rule.needsFiles === true && options.files === undefined) continue;
    fromFiles = rule.needsFiles === true;
    rule.check(ctx);
  }
  return {
    document: configErrors === 0 && parsed.success ? parsed.data : undefined,
    model,
    diagnostics: sortDiagnostics(diagnostics, resolved.files),
  };
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

/** `a.b[2].c` -> `a.b[2]` -> `a.b` -> `a` -> ``. */
export function parentPath(path: string): string {
  if (path.endsWith("]")) {
    // Either `[3]` or `["key"]` (the key may itself hold brackets: scan from the quote).
    const quoted = path.endsWith('"]') ? path.lastIndexOf('["') : -1;
    return path.slice(0, quoted !== -1 ? quoted : path.lastIndexOf("["));
  }
  const dot = path.lastIndexOf(".");
  const bracket = path.lastIndexOf("]");
  if (dot > bracket) return path.slice(0, dot);
  return bracket === -1 ? "" : path.slice(0, bracket + 1);
}

/** Order findings by file (docs.json first, then `$ref`s as met, then others by name), then position. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[], fileOrder: readonly string[]): Diagnostic[] {
  const rank = (file: string): number => {
    const i = fileOrder.indexOf(file);
    return i === -1 ? fileOrder.length : i;
  };
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
