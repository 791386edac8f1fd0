/** An open event stream the bridge can end from its side, and that says when it ended (either side). */
export interface ClosableStream {
  readonly response: Response;
  /**
   * End the stream now: the client reads `last` (a whole SSE event: a listen stream's graceful
   * close, telling its client to come back) if given, then the end; the SDK's side of it is cancelled.
   */
  readonly close: (last?: string) => void;
}

/**
 * Wrap an SSE response (a 2025 session's GET stream, a 2026-07-28 `subscriptions/listen`
 * stream) so that the bridge can end it (a reader whose token was revoked must stop hearing)
 * and learns when it ends, whoever ends it. `onEnd` runs once.
 */
export function closableStream(response: Response, onEnd: () => void): ClosableStream {
  if (response.body === null) throw new Error("an event stream without a body");
  const inner = response.body.getReader();
  let open = true;
  let outer: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** Whether this call is the one that ended it. */
  const end = (): boolean => {
    if (!open) return false;
    open = false;
    onEnd();
    return true;
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      outer = controller;
    },
    async pull(controller) {
      try {
        const { done, value } = await inner.read();
        if (!open) return;
        if (!done) return controller.enqueue(value);
        end();
        controller.close();
      } catch (error) {
        if (end()) controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return inner.cancel(reason);
    },
  });
  const close = (last?: string): void => {
    if (!end()) return;
    try {
      if (last !== undefined) outer?.enqueue(new TextEncoder().encode(last));
      outer?.close();
    } catch {
      // Already closed by the stream's own end.
    }
    void inner.cancel().catch(() => {});
  };
  return { response: new Response(body, { status: response.status, headers: response.headers }), close };
}
