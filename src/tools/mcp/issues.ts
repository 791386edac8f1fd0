import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

/** `pageSize: must be an integer from 1 to 50 (got 0); scoreThreshold: ...`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.code === "unrecognized_keys") return `unknown argument${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
      const path = issue.path.length > 0 ? issue.path.join(".") : "arguments";
      if (issue.code === "invalid_type" && issue.input === undefined) return `${path}: is required`;
      const got = issue.input !== undefined ? ` (got ${JSON.stringify(issue.input)})` : "";
      return `${path}: ${issue.message}${got}`;
    })
    .join("; ");
}


/**
 * A JSON-RPC InvalidParams error with a clean message. (`McpError` prefixes its message with
 * "MCP error -32602:", and clients prefix it again, so the user would read the code twice.)
 */
export function invalidParams(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}
