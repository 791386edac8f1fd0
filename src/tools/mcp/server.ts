import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { describeIssues, invalidParams } from "./issues.js";
import { formatDiagnostic } from "../../config/diagnostic.js";
import type { Reader } from "../../vfs/access.js";
import type { DocsRuntime } from "../runtime.js";
import { CORE_TOOLS } from "./tools.js";
import type { DocsTool } from "./tool.js";

/**
 * Who is reading, per request: the HTTP bridge resolves it from the request's bearer token
 * (passed to the transport as `authInfo`), so a change to a user's groups or a revoked
 * credential applies to the very next call of an open session.
 */
export type ReaderSource = (authInfo: AuthInfo | undefined) => Reader;

export interface McpServerOptions {
  readonly runtime: DocsRuntime;
  /** Who is reading: decides every file, hit and resource this server shows. */
  readonly reader: Reader | ReaderSource;
  /** Tools to offer (default: search and the filesystem shell). */
  readonly tools?: readonly DocsTool[];
  /** Label for the endpoint (`stdio`, `mcp`, `authed`), passed to tools. */
  readonly endpoint?: string;
  readonly version?: string;
  /**
   * Send reload diagnostics to the client as log messages (default true). They name files,
   * restricted ones included, so only a local author's server (stdio) may send them; the HTTP
   * bridge turns them off.
   */
  readonly forwardDiagnostics?: boolean;
}

export interface DocsMcpServer {
  readonly server: Server;
  /** Stop listening to site changes (call when the transport closes). */
  readonly close: () => void;
}

/**
 * An MCP server for one reader over the live runtime. Built on the low-level `Server` so a bad
 * argument is a JSON-RPC InvalidParams error naming the argument (McpServer turns those into
 * tool results), and so tool names follow the site name as it changes.
 */
export function createMcpServer(options: McpServerOptions): DocsMcpServer {
  const { runtime } = options;
  const source = options.reader;
  const readerOf: ReaderSource = typeof source === "function" ? source : () => source;
  const forwardDiagnostics = options.forwardDiagnostics ?? true;
  const tools = options.tools ?? CORE_TOOLS;
  const keys = new Set<string>();
  for (const t of tools) {
    if (keys.has(t.key)) throw new Error(`duplicate tool ${t.key}`);
    keys.add(t.key);
  }
  const endpoint = options.endpoint ?? "stdio";
  const server = new Server(
    { name: "svc-mcp", title: `${runtime.site.config.name} docs`, version: options.version ?? "0.1.0" },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, logging: {} },
      instructions: instructionsFor(runtime),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const names = runtime.names;
    const siteName = runtime.site.config.name;
    const list: Tool[] = tools.map((t) => ({
      name: t.name(names),
      title: t.title(siteName),
      description: t.description({ siteName, names }),
      inputSchema: toInputSchema(t),
      annotations: t.annotations,
    }));
    return { tools: list };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const names = runtime.names;
    const tool = tools.find((t) => t.name(names) === request.params.name);
    if (tool === undefined) {
      throw invalidParams(`Unknown tool "${request.params.name}". Available: ${tools.map((t) => t.name(names)).join(", ")}`);
    }
    const parsed = tool.input.safeParse(request.params.arguments ?? {}, { reportInput: true });
    if (!parsed.success) {
      throw invalidParams(`Invalid arguments for ${request.params.name}: ${describeIssues(parsed.error)}`);
    }
    const reader = readerOf(extra.authInfo);
    const state = runtime.readerState(reader);
    return tool.run(parsed.data, { runtime, reader, state, endpoint });
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const { skills } = runtime.readerState(readerOf(extra.authInfo));
    return {
      resources: skills.map((s) => ({
        uri: s.uri,
        name: s.name,
        title: s.name,
        description: s.description,
        mimeType: "text/markdown",
        size: s.file.size,
      })),
    };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { skills } = runtime.readerState(readerOf(extra.authInfo));
    const skill = skills.find((s) => s.uri === request.params.uri);
    if (skill === undefined) {
      // Same answer for a missing and a restricted skill: a restricted one must not be confirmed.
      throw invalidParams(`Resource not found: ${request.params.uri}`);
    }
    return { contents: [{ uri: skill.uri, mimeType: "text/markdown", text: skill.file.text }] };
  });

  const unsubscribe = runtime.onChange((change) => {
    // Notifications are best-effort: a client that went away must not break the reload.
    const ignore = (): void => {};
    void server.sendResourceListChanged().catch(ignore);
    if (change.namesChanged) void server.sendToolListChanged().catch(ignore);
    if (!forwardDiagnostics) return;
    for (const d of change.diagnostics) {
      void server
        .sendLoggingMessage({ level: d.severity === "error" ? "error" : "warning", logger: "svc-mcp", data: formatDiagnostic(d) })
        .catch(ignore);
    }
  });
  server.onclose = () => unsubscribe();
  return { server, close: unsubscribe };
}

/** JSON Schema of a tool's input, from its zod schema (draft 2020-12 as MCP expects). */
function toInputSchema(tool: DocsTool): Tool["inputSchema"] {
  const schema = z.toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>;
  delete schema.$schema;
  return schema as Tool["inputSchema"];
}

/** Server instructions: what the site covers and how to use the tools. */
function instructionsFor(runtime: DocsRuntime): string {
  const { config } = runtime.site;
  const names = runtime.names;
  const sections = config.sections.map((s) => s.title).slice(0, 12);
  const lines = [
    // Descriptions usually end with a period already.
    `Documentation for ${config.name}${config.description !== undefined ? `: ${config.description.replace(/[.\s]+$/, "")}` : ""}.`,
    sections.length > 0 ? `It covers: ${sections.join(", ")}.` : "",
    config.versions.length > 0 ? `Versions: ${config.versions.join(", ")} (default ${config.defaultVersion ?? config.versions[0]}).` : "",
    `Use ${names.search} to find pages for a question, then ${names.filesystem} to read them (pages are files: /a/b.mdx is the page at ${runtime.baseUrl}/a/b).`,
    "Cite page links in answers.",
  ];
  return lines.filter((l) => l !== "").join(" ");
}
