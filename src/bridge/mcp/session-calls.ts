import { JSON_RPC } from "../middleware/http-errors.js";

/**
 * The tool calls of one 2025 session that the bridge answers itself (`SessionToolCalls`), by
 * JSON-RPC id, so that they can be stopped as the SDK stops its own: a `notifications/cancelled`
 * naming the id, or the session closing (DELETE, eviction, idle sweep), aborts the call's signal
 * (a waiting search leaves its queue, a running shell command is stopped). It also holds the ids
 * of every request of the session running here (`claim`): an id sent again while its first
 * request runs is refused, so an id names one call (adversary round 27).
 */
export class SessionCalls {
  private readonly running = new Map<string | number, AbortController>();
  /** The ids of the session's requests running on this worker, whichever path answers them (`claim`). */
  private readonly taken = new Set<string | number>();
  /** The session closed: a call whose request was taken before, starting only now, is given up at once. */
  private closed = false;

  /** Whether the session is still open: a call of a closed one (a batch's later message) is the SDK transport's to answer, as before. */
  get open(): boolean {
    return !this.closed;
  }

  /** Request `id` starts (any method, either path): false when a running request of the session already has it. */
  claim(id: string | number): boolean {
    if (this.taken.has(id)) return false;
    this.taken.add(id);
    return true;
  }

  /** Request `id`, claimed, has been answered (or refused). */
  release(id: string | number): void {
    this.taken.delete(id);
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

/** The error answering a request whose id a running request of the same session holds. */
export function idInUse(id: string | number): { code: number; message: string } {
  return {
    code: JSON_RPC.invalidRequest,
    message: `Invalid Request: id ${JSON.stringify(id)} belongs to a request of this session that is still running; give each request an id of its own`,
  };
}
