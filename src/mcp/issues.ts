import type { z } from "zod";
import { inputText } from "../engine/use-cases/outcome.js";

export { inputText };

/**
 * `cursor: must be a string (got 5)`: the issues of a request's `params`, for the SDK's own
 * schemas, whose messages ("Invalid input: expected string, received number") are written for
 * programmers; paths are relative to `params`.
 */
export function describeParamsIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path[0] === "params" ? issue.path.slice(1) : issue.path;
      if (issue.code === "invalid_type" && issue.input !== undefined) return `${pathText(path, "params")}: must be ${typeName(issue.expected)} (got ${inputText(issue.input)})`;
      if (issue.code === "invalid_value" && issue.input !== undefined) {
        const values = issue.values.map((v) => JSON.stringify(v));
        return `${pathText(path, "params")}: must be ${values.length === 1 ? values[0] : `one of ${values.join(", ")}`} (got ${inputText(issue.input)})`;
      }
      return describeIssue(issue, path, "params");
    })
    .join("; ");
}

/** One issue at `path`; `whole` names the value itself (`arguments`, `params`). */
function describeIssue(issue: z.core.$ZodIssue, path: readonly PropertyKey[], whole: string): string {
  if (issue.code === "unrecognized_keys") return `unknown argument${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  const where = pathText(path, whole);
  if ((issue.code === "invalid_type" || issue.code === "invalid_value") && issue.input === undefined) return `${where}: is required`;
  const got = issue.input !== undefined ? ` (got ${inputText(issue.input)})` : "";
  return `${where}: ${issue.message}${got}`;
}

function pathText(path: readonly PropertyKey[], whole: string): string {
  return path.length > 0 ? path.map(String).join(".") : whole;
}

/** `an object` for zod's `record`/`object`, `a string`, `an array`... */
function typeName(expected: string): string {
  const name = expected === "record" ? "object" : expected;
  return `${/^[aeiou]/.test(name) ? "an" : "a"} ${name}`;
}

/** JSON-RPC 2.0's InvalidParams code (kept here so `svc-mcp search`, which reuses these messages, never loads the MCP SDK). */
export const INVALID_PARAMS = -32602;

/**
 * A JSON-RPC InvalidParams error with a clean message. (`McpError` prefixes its message with
 * "MCP error -32602:", and clients prefix it again, so the user would read the code twice.)
 */
export function invalidParams(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: INVALID_PARAMS });
}
