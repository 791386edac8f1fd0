import type { RequestContext } from "../../vfs/request-context.js";
import type { DocsRuntime, ReaderState } from "../runtime.js";

/**
 * What a use case over the served docs works from, built once per request by its adapter (an
 * MCP message, an HTTP call, a CLI command): who asks under which site rules and clock
 * (`request`), and the live docs (`runtime`). Use cases that need a store take it beside this.
 */
export interface DocsContext {
  readonly request: RequestContext;
  readonly runtime: DocsRuntime;
  /** Aborts when the caller gives up (a dropped HTTP request, a closed session, `notifications/cancelled`). */
  readonly signal?: AbortSignal;
}

/** The view, shell, skills and outline of the context's reader (cached by the runtime). */
export function readerStateOf(context: DocsContext): ReaderState {
  return context.runtime.readerState(context.request);
}
