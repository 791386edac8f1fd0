import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ANONYMOUS, type Reader } from "../../src/vfs/access.js";
import { createMcpServer } from "../../src/tools/mcp/server.js";
import type { DocsTool } from "../../src/tools/mcp/tool.js";
import type { DocsRuntime } from "../../src/tools/runtime.js";

/** A real SDK client connected in memory to a docs server for `reader`. */
export async function connect(runtime: DocsRuntime, reader: Reader = ANONYMOUS, tools?: readonly DocsTool[]) {
  const { server, close } = createMcpServer({ runtime, reader, ...(tools !== undefined ? { tools } : {}) });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test-client", version: "1.0.0" });
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
