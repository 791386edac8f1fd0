import { basename } from "node:path";
import { normalizeOperationPath, type OperationEntry } from "./entry.js";
import { type ApiOperation, type ApiSpec, operationLabel } from "./model.js";
import { normalizeSpecPath } from "./spec-source.js";

/** What an entry may match against. */
export interface MatchContext {
  /** Specs the entry uses when it names no file: the element's own or inherited `openapi`. */
  readonly defaults: readonly string[];
  /** Every loaded OpenAPI spec of the site, by source (entries naming a file, and hints). */
  readonly specs: ReadonlyMap<string, ApiSpec>;
  /** Sources referenced but not loaded (a remote spec not fetched, or one that failed):
   *  entries against them cannot be verified and are not reported again. */
  readonly unavailable: ReadonlySet<string>;
  /** Where a named spec file is looked for, for the message when it is not there (default:
   *  `referenced in docs.json`; front matter: found in the repository). */
  readonly lookedUp?: string;
  /** The sources a file the entry names may denote (default: every spec above, loaded or not);
   *  front matter names the repository was searched for: `sourcesForUnfoundName`. */
  readonly nameSources?: readonly string[];
}

export type MatchOutcome =
  | { readonly kind: "operation"; readonly spec: ApiSpec; readonly operation: ApiOperation }
  /** The operation exists but has validation errors: skipped, with a warning. */
  | { readonly kind: "invalid"; readonly spec: ApiSpec; readonly operation: ApiOperation }
  /** No `openapi` on the element or above it, and no file named: nothing is generated. */
  | { readonly kind: "no-spec" }
  /** The spec it would match against is not loaded: neither matched nor refuted. */
  | { readonly kind: "unverified"; readonly source: string }
  /** No operation: the entry is a file path. `reason` says why it did not match. */
  | { readonly kind: "no-match"; readonly reason: string };

/** Match one operation entry, exactly per the spec's rules (see docs/api-reference.md, "Operation matching"). */
export function matchOperationEntry(entry: OperationEntry, ctx: MatchContext): MatchOutcome {
  let candidates: string[];
  if (entry.file !== undefined) {
    const named = resolveSpecName(entry.file, ctx.nameSources ?? [...ctx.specs.keys(), ...ctx.unavailable]);
    if (named === undefined) {
      const where = specsWith(entry, ctx);
      const hint = where.length > 0 ? `; ${where[0]} has ${label(entry)}: write "${where[0]} ${label(entry)}"` : "";
      return { kind: "no-match", reason: `no spec "${entry.file}" is ${ctx.lookedUp ?? "referenced in docs.json"}${hint}` };
    }
    candidates = [named];
  } else {
    if (ctx.defaults.length === 0) return { kind: "no-spec" };
    if (ctx.defaults.length > 1) {
      if (ctx.defaults.some((s) => ctx.unavailable.has(s))) return { kind: "unverified", source: ctx.defaults.find((s) => ctx.unavailable.has(s)) as string };
      const where = specsWith(entry, ctx).filter((s) => ctx.defaults.includes(s));
      const hint = where.length > 0 ? `${where[0]} has it: write "${where[0]} ${label(entry)}"` : `none of them has ${label(entry)}`;
      return {
        kind: "no-match",
        reason: `several specs apply here (${ctx.defaults.join(", ")}), so the reference must name one as "<spec file> <METHOD> <path>"; ${hint}`,
      };
    }
    candidates = [...ctx.defaults];
  }
  const source = candidates[0] as string;
  const spec = ctx.specs.get(source);
  if (spec === undefined) return { kind: "unverified", source };
  const found = findOperation(spec, entry.method, entry.path);
  if (found !== undefined) return found.problems.length > 0 ? { kind: "invalid", spec, operation: found } : { kind: "operation", spec, operation: found };
  return { kind: "no-match", reason: whyNot(entry, spec, ctx) };
}

/** Exact method, path equal up to a trailing slash. */
export function findOperation(spec: ApiSpec, method: string, path: string): ApiOperation | undefined {
  const p = normalizeOperationPath(path);
  return spec.operations.find((op) => op.method === method && normalizeOperationPath(op.path) === p);
}

/** The spec a written file name denotes: the repository path (`./` and `/` optional) or, when
 *  unambiguous, the bare file name. */
export function resolveSpecName(written: string, sources: readonly string[]): string | undefined {
  const n = normalizeSpecPath(written);
  if (sources.includes(n)) return n;
  if (n.includes("/")) return undefined;
  const byName = sources.filter((s) => basename(s) === n);
  return byName.length === 1 ? byName[0] : undefined;
}

function label(entry: OperationEntry): string {
  return `${entry.method.toUpperCase()} ${entry.path}`;
}

function specsWith(entry: OperationEntry, ctx: MatchContext): string[] {
  return [...ctx.specs.values()].filter((s) => findOperation(s, entry.method.toUpperCase(), entry.path) !== undefined).map((s) => s.source);
}

function whyNot(entry: OperationEntry, spec: ApiSpec, ctx: MatchContext): string {
  const upper = entry.method.toUpperCase();
  if (upper !== entry.method && findOperation(spec, upper, entry.path) !== undefined) {
    return `operation matching is case-sensitive: the method must be upper case ("${upper} ${entry.path}")`;
  }
  const elsewhere = specsWith(entry, ctx).filter((s) => s !== spec.source);
  if (elsewhere.length > 0) {
    return `${spec.source} has no ${label(entry)}; ${elsewhere[0]} has it: write "${elsewhere[0]} ${label(entry)}"`;
  }
  const samePath = spec.operations.filter((op) => normalizeOperationPath(op.path) === normalizeOperationPath(entry.path));
  if (samePath.length > 0) return `${spec.source} has no ${label(entry)} (${entry.path} has ${samePath.map((op) => op.method).join(", ")})`;
  const near = nearest(entry, spec);
  const suggestion = near !== undefined ? ` (did you mean "${operationLabel(near)}"?)` : "";
  return `${spec.source} has no ${label(entry)}${suggestion}`;
}

/** The operation whose label is closest to the entry (a singular/plural slip, a typo). */
function nearest(entry: OperationEntry, spec: ApiSpec): ApiOperation | undefined {
  const want = `${entry.method.toUpperCase()} ${normalizeOperationPath(entry.path)}`;
  let best: ApiOperation | undefined;
  let bestD = Math.max(3, Math.floor(want.length / 8)) + 1;
  for (const op of spec.operations) {
    const d = distance(want, `${op.method} ${normalizeOperationPath(op.path)}`, bestD);
    if (d < bestD) {
      bestD = d;
      best = op;
    }
  }
  return best;
}

/** Levenshtein distance, giving up past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) >= max) return max;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= max) return max;
    prev = cur;
  }
  return prev[b.length] as number;
}
