import type { z } from "zod";

/**
 * One bad argument of a use case's input: which (its name in the input, `pageSize`; absent when
 * the problem is the input as a whole or a name it does not know) and why. Adapters name it as
 * their caller wrote it: the MCP tool by the argument, the CLI by the option (`--page-size`).
 */
export interface ArgumentIssue {
  readonly argument?: string;
  readonly message: string;
}

/** What a use case answers: its value, or the caller's mistakes (never empty), each named. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly ArgumentIssue[] };

export function success<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function failure<T = never>(issues: readonly ArgumentIssue[]): Outcome<T> {
  return { ok: false, issues };
}

/**
 * `pageSize: must be an integer from 1 to 50 (got 0); unknown argument "limit"`: the issues in
 * one line, each argument named by `nameOf` (the CLI's option for it, say).
 */
export function describeArgumentIssues(issues: readonly ArgumentIssue[], nameOf: (argument: string) => string = (a) => a): string {
  return issues.map((i) => (i.argument === undefined ? i.message : `${nameOf(i.argument)}: ${i.message}`)).join("; ");
}

/**
 * A use case's input checked against its schema: the parsed value, or one issue per problem in
 * the words callers read (`must be an integer from 1 to 50 (got 0)`, `is required`), with what
 * they sent. `whole` names the input itself when it is not an object (`arguments`).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, whole = "arguments"): Outcome<z.infer<S>> {
  const parsed = schema.safeParse(input, { reportInput: true });
  return parsed.success ? success(parsed.data) : failure(argumentIssues(parsed.error, whole));
}

/** The issues of a failed parse, as `ArgumentIssue`s (see `parseInput`). */
export function argumentIssues(error: z.ZodError, whole = "arguments"): ArgumentIssue[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return { message: `unknown argument${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}` };
    }
    const required = (issue.code === "invalid_type" || issue.code === "invalid_value") && issue.input === undefined;
    const message = required ? "is required" : `${issue.message}${issue.input !== undefined ? ` (got ${inputText(issue.input)})` : ""}`;
    if (issue.path.length === 0) return { message: `${whole}: ${message}` };
    return { argument: issue.path.map(String).join("."), message };
  });
}

/** What a caller sent, in a message: a value as JSON, a container by its kind (it may be large). */
export function inputText(input: unknown): string {
  if (Array.isArray(input)) return "an array";
  if (input !== null && typeof input === "object") return "an object";
  return JSON.stringify(input) ?? String(input);
}
