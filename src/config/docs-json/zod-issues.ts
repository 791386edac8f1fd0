import type { z } from "zod";
import { formatPath, valueAt } from "./json-path.js";

/** Codes of schema findings (listed in docs/docs-json.md). */
export const SCHEMA_CODES = ["required", "type", "enum", "empty", "schema"] as const;

/** A schema finding in the words `svc-mcp check` prints, at a JSON path. */
export interface SchemaFinding {
  /** The path the finding is reported at: the object for a missing key, else the value. */
  readonly path: string;
  readonly message: string;
  readonly code: (typeof SCHEMA_CODES)[number];
}

type Issue = z.core.$ZodIssue;

/**
 * Turn zod issues into findings a documentation author can act on: `"group" is required` at the
 * object that lacks it, `must be true or false; got "yes"` at the value. A union (a page entry is
 * a path or a group; `openapi` is a path, an object or a list) reports the branch that matches
 * the value's type, so a group without a title reads as a missing `group`, not "invalid input".
 */
export function findingsFromIssues(issues: readonly Issue[], root: unknown): SchemaFinding[] {
  const out: SchemaFinding[] = [];
  for (const issue of issues) collect(issue, [], root, out);
  // zod also runs a string's length check on a value that is no string (`source: []` gave
  // "must be a string; got an array" and "Too small: expected array to have >=1 items"): the
  // wrong type is the problem, said once.
  const wrongType = new Set(out.filter((f) => f.code === "type").map((f) => f.path));
  return out.filter((f) => f.code === "type" || !wrongType.has(f.path));
}

function collect(issue: Issue, base: readonly PropertyKey[], root: unknown, out: SchemaFinding[]): void {
  const segments = [...base, ...issue.path];
  const value = valueAt(root, segments);
  const parent = segments.slice(0, -1);
  const key = segments.at(-1);
  if (value === undefined && key !== undefined && typeof key !== "number" && !hasKey(valueAt(root, parent), key) && issue.code !== "invalid_union") {
    out.push({ path: formatPath(parent), message: `"${String(key)}" is required`, code: "required" });
    return;
  }
  switch (issue.code) {
    case "invalid_type": {
      const what = segments.length === 0 ? "the top level must be" : "must be";
      out.push({ path: formatPath(segments), message: `${what} ${expected(issue.expected)}; got ${describe(value)}`, code: "type" });
      return;
    }
    case "invalid_value": {
      out.push({ path: formatPath(segments), message: enumMessage(issue.values, value), code: "enum" });
      return;
    }
    case "too_small": {
      if (typeof value === "string") out.push({ path: formatPath(segments), message: "must not be empty", code: "empty" });
      else out.push({ path: formatPath(segments), message: issue.message, code: "schema" });
      return;
    }
    case "invalid_union": {
      // Branches that failed only because the value has another type do not describe the
      // author's intent; the one whose type matches does.
      const fitting = issue.errors.filter((branch) => !(branch.length === 1 && branch[0]?.code === "invalid_type" && branch[0].path.length === 0));
      if (fitting.length >= 1) {
        // Several fitting branches (rare: e.g. two object shapes): report the one with fewest problems.
        const best = fitting.reduce((a, b) => (b.length < a.length ? b : a));
        for (const inner of best) collect(inner, segments, root, out);
        return;
      }
      const kinds = issue.errors.map((branch) => (branch[0]?.code === "invalid_type" ? expected(branch[0].expected) : undefined));
      const names = [...new Set(kinds.filter((k): k is string => k !== undefined))];
      out.push({ path: formatPath(segments), message: `must be ${joinOr(names)}; got ${describe(value)}`, code: "type" });
      return;
    }
    default:
      out.push({ path: formatPath(segments), message: issue.message, code: "schema" });
  }
}

function hasKey(obj: unknown, key: PropertyKey): boolean {
  return obj !== null && typeof obj === "object" && Object.hasOwn(obj, key);
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  boolean: "true or false",
  number: "a number",
  array: "an array",
  object: "an object",
  record: "an object",
};

function expected(kind: string): string {
  return EXPECTED[kind] ?? kind;
}

/** `3`, `"yes"`, `an array`, `an object`, `null` (long strings shortened). */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
}

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "something else";
  return `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

function enumMessage(values: readonly unknown[], value: unknown): string {
  const list = values.map((v) => JSON.stringify(v));
  return `must be ${list.length === 1 ? list[0] : `one of ${list.join(", ")}`}; got ${describe(value)}`;
}
