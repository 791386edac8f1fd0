import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";

/**
 * The stateless revisions (per-request `_meta`, no `initialize`) the SDK serves through
 * `createMcpHandler` and `serveStdio`. The SDK keeps this list internal; `server/discover`
 * answers it, and test/bridge/protocol-generations checks that the two agree.
 */
export const STATELESS_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

/** Every protocol revision served, newest first: the stateless ones, then the 2025-and-earlier session revisions. */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [...STATELESS_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];
