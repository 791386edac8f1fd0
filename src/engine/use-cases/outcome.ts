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

export function success<T>(value: T): Success<T> {
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
  const issues = error.issues.map((issue): ArgumentIssue => {
    if (issue.code === "unrecognized_keys") {
      return { message: `unknown argument${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}` };
    }
    const required = (issue.code === "invalid_type" || issue.code === "invalid_value") && issue.input === undefined;
    const message = required ? "is required" : `${issue.message}${issue.input !== undefined ? ` (got ${inputText(issue.input)})` : ""}`;
    if (issue.path.length === 0) return { message: `${whole}: ${message}` };
    return { argument: issue.path.map(String).join("."), message };
  });
  // Several checks of one value can fail with the words they share (`pageSize: 1e300` is past
  // the safe integers and past 50, both "must be an integer from 1 to 50"): said once.
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.argument ?? ""}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What a caller sent, in a message: a value as JSON, a container by its kind (it may be large). */
export function inputText(input: unknown): string {
  if (Array.isArray(input)) return "an array";
  if (input !== null && typeof input === "object") return "an object";
  // JSON has no NaN or Infinity (`JSON.stringify` writes them as `null`); the CLI can send them.
  if (typeof input === "number" && !Number.isFinite(input)) return String(input);
  return JSON.stringify(input) ?? String(input);
}

/**
 * A refusal decided by what is stored rather than by the input's form: no such entry, a change
 * the entry's status forbids, a name already taken, a budget spent. `kind` names it, so each
 * adapter answers in its own terms (an HTTP status and code, a CLI exit code); `message` says it
 * in the words every adapter prints.
 */
export interface Refusal<K extends string = string> {
  readonly kind: K;
  readonly message: string;
}

/**
 * What a use case over stored state answers (feedback, keys, accounts, settings): its value, the
 * input's problems (every one, each naming its field), or one refusal of the kinds `R` lists. A
 * use case that cannot refuse leaves `R` out, and its callers never see a `refusal`. Issues are
 * `ArgumentIssue`s unless the use case serves the feedback API, whose `FieldIssue`s (store/feedback) carry the
 * code and parameter its 400 answers name.
 */
export type StateOutcome<T, R extends Refusal = never, I = ArgumentIssue> =
  | Success<T>
  | Invalid<I>
  | ([R] extends [never] ? never : { readonly ok: false; readonly refusal: R });

export type Success<T> = { readonly ok: true; readonly value: T };
export type Invalid<I = ArgumentIssue> = { readonly ok: false; readonly issues: readonly I[] };

/** The input's problems (never empty), as a `StateOutcome`. */
export function invalid<I = ArgumentIssue>(issues: readonly I[]): Invalid<I> {
  return { ok: false, issues };
}

/** One refusal, as a `StateOutcome`. */
export function refused<R extends Refusal>(refusal: R): { readonly ok: false; readonly refusal: R } {
  return { ok: false, refusal };
}
