/**
 * The tool calls of one 2025 session that the bridge answers itself (`SessionToolCalls`), by
 * JSON-RPC id, so that they can be stopped as the SDK stops its own: a `notifications/cancelled`
 * naming the id, or the session closing (DELETE, eviction, idle sweep), aborts the call's signal
 * (a waiting search leaves its queue, a running shell command is stopped). An id sent again while
 * its first call runs names the later call, as in the SDK's table of running requests.
 */
export class SessionCalls {
  private readonly running = new Map<string | number, AbortController>();
  /** The session closed: a call whose request was taken before, starting only now, is given up at once. */
  private closed = false;

  /** Whether the session is still open: a call of a closed one (a batch's later message) is the SDK transport's to answer, as before. */
  get open(): boolean {
    return !this.closed;
  }

  /** A call with `id` starts: its controller, aborted by `cancel(id)` or `abortAll` (already, if the session closed). */
  start(id: string | number): AbortController {
    const controller = new AbortController();
    if (this.closed) controller.abort(new Error("Connection closed"));
    else this.running.set(id, controller);
    return controller;
  }

  /** The call that `start` gave `controller` has answered. */
  end(id: string | number, controller: AbortController): void {
    if (this.running.get(id) === controller) this.running.delete(id);
  }

  /** The client cancelled request `id` (`notifications/cancelled`). */
  cancel(id: string | number, reason: string | undefined): void {
    this.running.get(id)?.abort(reason);
  }

  /** The session closed: every call it runs is given up. */
  abortAll(): void {
    this.closed = true;
    for (const controller of this.running.values()) controller.abort(new Error("Connection closed"));
    this.running.clear();
  }
}
