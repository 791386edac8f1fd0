import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ANONYMOUS, type Reader } from "../../src/vfs/access.js";
import { localContext, type RequestContext } from "../../src/vfs/request-context.js";
import { createMcpServer } from "../../src/mcp/server.js";
import type { DocsTool } from "../../src/mcp/tool.js";
import type { DocsRuntime } from "../../src/engine/runtime.js";
import { TestClient } from "./test-client.js";

/** A real SDK client connected in memory to a docs server for `reader` (a local preview's context) or a whole request context. */
export async function connect(runtime: DocsRuntime, reader: Reader | RequestContext = ANONYMOUS, tools?: readonly DocsTool[]) {
  const context = "reader" in reader ? reader : localContext(reader);
  const { server, close } = createMcpServer({ runtime, context, ...(tools !== undefined ? { tools } : {}) });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new TestClient({ name: "test-client", version: "1.0.0" });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    /** Call a tool and return its result (protocol errors reject). */
    call: async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    /** Text of the first content block of a tool result. */
    text: (r: CallToolResult) => (r.content[0] as { text: string }).text,
    close: async () => {
      close();
      await client.close();
    },
  };
}

/** The result of a tool call whose arguments failed validation (SEP-1303): an error result naming them. */
export function argumentError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
