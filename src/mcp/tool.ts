import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { SiteOutline } from "../vfs/outline.js";
import type { RequestContext } from "../vfs/request-context.js";
import type { ReaderState, DocsRuntime } from "../engine/runtime.js";
import type { ToolNames } from "../engine/tool-names.js";
import type { Outcome } from "../engine/use-cases/outcome.js";
import type { PlaygroundApps } from "./ui-extension.js";

/** What a tool call can use: the live runtime, the request's context and its reader's state. */
export interface ToolContext {
  readonly runtime: DocsRuntime;
  /** Who calls, under which auth setting, with which clock: every access decision takes it. */
  readonly request: RequestContext;
  /** The view, shell, skills and outline of `request`'s reader. */
  readonly state: ReaderState;
  /** Where the call came from, for tools that record it (`stdio`, `mcp`, `authed`). */
  readonly endpoint: string;
  /** Aborts when the caller gives up: the request was cancelled, its connection or session closed. */
  readonly signal?: AbortSignal;
  /** The playground apps, when the server offers them and this request's client renders MCP Apps (`ui-extension.ts`). */
  readonly apps?: PlaygroundApps;
}

/** What a tool's title and description may name: the site, its tool names, and the reader's outline. */
export interface ToolText {
  readonly siteName: string;
  readonly names: ToolNames;
  /** The sections, versions and languages of the reader the text is written for. */
  readonly outline: SiteOutline;
}

/**
 * One MCP tool, defined in its own file and listed in a registry table: an adapter over a use
 * case (`../engine/use-cases/`). Its input schema is a zod object: the JSON Schema clients see and the
 * validation of every call come from it; likewise `output` for `structuredContent`.
 */
export interface DocsTool<S extends z.ZodObject = z.ZodObject> {
  /** Stable key (names may change with the site name). */
  readonly key: string;
  readonly name: (names: ToolNames) => string;
  /** Written per reader (`tools/list` answers each request with its reader's text). */
  readonly title: (text: ToolText) => string;
  readonly description: (text: ToolText) => string;
  readonly input: S;
  /** The shape of `structuredContent` of a successful call (`outputSchema` in `tools/list`). */
  readonly output: z.ZodObject;
  readonly annotations: ToolAnnotations;
  /**
   * An MCP App's own tool (`visibility: ["app"]`): listed and callable only for a client that
   * renders MCP Apps, when the server offers them; for any other it does not exist.
   */
  readonly app?: true;
  /**
   * The call's result, or the arguments the use case found wrong where the schema could not (an
   * unknown version): the server answers those as an error result naming them (SEP-1303).
   */
  readonly run: (args: z.infer<S>, ctx: ToolContext) => Promise<Outcome<CallToolResult>>;
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
