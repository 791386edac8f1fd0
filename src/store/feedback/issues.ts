/**
 * A problem with one input parameter (query parameter, body field, tool argument, CLI flag),
 * reported together with every other problem in the same input. The HTTP layer turns these into
 * `400 {"error": {"code", "message", "param"}}`, the MCP tool into an error result naming them, the CLI
 * into a usage error.
 */
export interface FieldIssue {
  readonly code: "missing_parameter" | "invalid_parameter" | "unknown_parameter";
  /** The parameter's name as the caller wrote it (`limit`, `contact`). */
  readonly param: string;
  readonly message: string;
}

/** One message naming every problem: the single message, or `N problems: a; b`. */
export function summarizeIssues(issues: readonly FieldIssue[]): string {
  if (issues.length === 1) return issues[0]!.message;
  return `${issues.length} invalid parameters: ${issues.map((i) => i.message).join("; ")}`;
}

/** A caller's value for an error message: strings quoted, others as JSON; cut short when long. */
export function quote(value: unknown): string {
  if (typeof value !== "string") {
    const json = JSON.stringify(value) ?? String(value);
    return json.length > 60 ? `${json.slice(0, 60)}...` : json;
  }
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
}
