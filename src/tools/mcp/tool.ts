import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Reader } from "../../vfs/access.js";
import type { ReaderState, DocsRuntime } from "../runtime.js";
import type { ToolNames } from "../tool-names.js";

/** What a tool call can use: the live runtime and the caller's reader and view. */
export interface ToolContext {
  readonly runtime: DocsRuntime;
  readonly reader: Reader;
  readonly state: ReaderState;
  /** Where the call came from, for tools that record it (`stdio`, `mcp`, `authed`). */
  readonly endpoint: string;
}

/**
 * One MCP tool, defined in its own file and listed in a registry table. Its input schema is
 * a zod object: the JSON Schema clients see and the validation of every call come from it.
 */
export interface DocsTool<S extends z.ZodObject = z.ZodObject> {
  /** Stable key (names may change with the site name). */
  readonly key: string;
  readonly name: (names: ToolNames) => string;
  readonly title: (siteName: string) => string;
  readonly description: (ctx: { siteName: string; names: ToolNames }) => string;
  readonly input: S;
  readonly annotations: ToolAnnotations;
  readonly run: (args: z.infer<S>, ctx: ToolContext) => Promise<CallToolResult>;
}

/** Identity helper that keeps a tool's argument type while storing tools in one table. */
export function defineTool<S extends z.ZodObject>(tool: DocsTool<S>): DocsTool {
  return tool as unknown as DocsTool;
}

/** Annotations of a tool that only reads the docs. */
export const READ_ONLY_TOOL: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
