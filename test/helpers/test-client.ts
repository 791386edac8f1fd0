import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { AnySchema, SchemaOutput } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";

/**
 * How long a test's MCP request may wait for its answer: the suite's hang detector
 * (`testTimeout` in vitest.config.ts), never a speed check.
 */
export const REQUEST_TIMEOUT_MS = 600_000;

/**
 * The SDK's client with the hang detector as every request's default timeout (a test may still
 * pass its own). The SDK's default, 60 s, is a client's patience, not an answer of the server's:
 * on a busy machine (load 20-40, issue 25) a `serve` child's `initialize` or a shell call could
 * take longer and the test failed with `RequestTimeout` though the server answered correctly.
 * Nothing a test asserts depends on this number.
 */
export class TestClient extends Client {
  override request<T extends AnySchema>(request: Parameters<Client["request"]>[0], resultSchema: T, options?: RequestOptions): Promise<SchemaOutput<T>> {
    return super.request(request, resultSchema, { ...options, timeout: options?.timeout ?? REQUEST_TIMEOUT_MS });
  }
}
