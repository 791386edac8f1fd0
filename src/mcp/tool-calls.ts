import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { describeArgumentIssues, inputText, parseInput, type ArgumentIssue, type Outcome } from "../engine/use-cases/outcome.js";
import type { ToolNames } from "../engine/tool-names.js";
import { invalidParams } from "./issues.js";
import type { DocsTool, ToolContext, ToolText } from "./tool.js";

/**
 * `tools/list`: every tool, in the table's order (so every list is the same), written for one
 * reader; an MCP App's own tools only with `apps` (the client renders them), marked for the app alone.
 */
export function listTools(tools: readonly DocsTool[], text: ToolText, apps = false): Tool[] {
  return offered(tools, apps).map((t) => ({
    name: t.name(text.names),
    title: t.title(text),
    description: t.description(text),
    inputSchema: jsonSchema(t.input, "input"),
    outputSchema: jsonSchema(t.output, "output"),
    annotations: t.annotations,
    ...(t.app === true ? { _meta: { ui: { visibility: ["app"] } } } : {}),
  }));
}

/** The tools a client is offered: an MCP App's own only to a client that renders MCP Apps. */
function offered(tools: readonly DocsTool[], apps: boolean): readonly DocsTool[] {
  return apps ? tools : tools.filter((t) => t.app !== true);
}

/**
 * `tools/call`. An unknown tool is the client's protocol error (InvalidParams, with the tools
 * there are). Arguments that fail validation, by the schema or by the use case (an unknown
 * version), are a tool result with `isError: true` naming each argument and why (SEP-1303): the
 * model reads it and can correct its call, where a protocol error would reach only the client.
 */
export async function callTool(tools: readonly DocsTool[], names: ToolNames, name: string, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  const available = offered(tools, ctx.apps !== undefined);
  const tool = available.find((t) => t.name(names) === name);
  if (tool === undefined) throw invalidParams(`Unknown tool "${name}". Available: ${available.map((t) => t.name(names)).join(", ")}`);
  const parsed = toolArguments(tool, args);
  if (!parsed.ok) return argumentError(name, parsed.issues);
  const ran = await tool.run(parsed.value, ctx);
  if (!ran.ok) return argumentError(name, ran.issues);
  // `Server` checks the result against the protocol's schema: a malformed one is our bug.
  return ran.value;
}

/**
 * `args` as `tool`'s schema reads them, or the issues it names: absent is no arguments, and
 * anything but an object (null, an array, a string) is named. The bridge asks it too, before it
 * charges a call to the site's limits: a call its schema refuses runs nothing.
 */
export function toolArguments(tool: DocsTool, args: unknown): Outcome<Record<string, unknown>> {
  const given = args === undefined ? {} : args;
  return typeof given !== "object" || given === null || Array.isArray(given)
    ? { ok: false, issues: [{ message: `arguments: must be an object (got ${inputText(given)})` }] }
    : parseInput(tool.input, given);
}

/** `Invalid arguments for search_x: pageSize: must be an integer from 1 to 50 (got 0)`, as a tool error. */
function argumentError(name: string, issues: readonly ArgumentIssue[]): CallToolResult {
  return { content: [{ type: "text", text: `Invalid arguments for ${name}: ${describeArgumentIssues(issues)}` }], isError: true };
}

/** JSON Schemas already written, by zod schema and direction: a tool's schemas never change, and every `tools/list` names them. */
const SCHEMAS = { input: new WeakMap<z.ZodObject, Tool["inputSchema"]>(), output: new WeakMap<z.ZodObject, Tool["inputSchema"]>() };

/** The dialect every tool schema declares: MCP's default, said outright so a client need not assume it. */
export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/**
 * JSON Schema of a tool's input or output, from its zod schema, declared as draft 2020-12
 * (`$schema`). Written once per schema; each list gets its own copy, so nothing downstream shares it.
 */
function jsonSchema(schema: z.ZodObject, io: "input" | "output"): Tool["inputSchema"] {
  let written = SCHEMAS[io].get(schema);
  if (written === undefined) {
    const out = z.toJSONSchema(schema, { io, target: "draft-2020-12" }) as Record<string, unknown>;
    written = { ...out, $schema: JSON_SCHEMA_DIALECT } as unknown as Tool["inputSchema"];
    SCHEMAS[io].set(schema, written);
  }
  return structuredClone(written);
}
