import type { Readable, Writable } from "node:stream";
import { type JSONRPCMessage, type MessageExtraInfo, type Transport, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

export interface StdioDrainOptions {
  /** How long the requests still unanswered at stdin's end may take (`LIMITS.mcp.stdinDrainMs`). */
  readonly drainMs: number;
  /** Standard error: one line when requests are dropped at the bound. */
  readonly log: (line: string) => void;
}

/** A long-lived request of 2026-07-28: its answer is the subscription's end, which the close itself brings. */
const OPEN_ENDED = new Set(["subscriptions/listen"]);

/**
 * The SDK's stdio transport, closed at stdin's end only once every request read before it has
 * been answered. The SDK's own transport closes at once, aborting requests in flight unanswered:
 * `printf 'initialize\ninitialized\ntools/call\n' | svc-mcp serve` exited without answering the
 * call (the usual way a script or a one-shot client uses a stdio server). Requests are counted by
 * id as they reach the server and as their answers are written; a cancelled request (which the
 * server does not answer) is let go. Stdin's end is the transport's: every line before it has
 * been handed to `onmessage` when it fires, so none is missed.
 */
export class DrainingStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  /** Resolves when the transport has closed: drained after stdin's end, or closed by `close()`. */
  readonly closed: Promise<void>;
  private readonly inner: StdioServerTransport;
  /** Requests read and not yet answered, by their id as JSON (a count: a client may reuse an id). */
  private readonly unanswered = new Map<string, number>();
  private inputEnded = false;
  private bound: NodeJS.Timeout | undefined;
  /** The SDK's handler of stdin's end (a public member of its transport): closes the transport now. */
  private readonly closeAtOnce: () => void;

  constructor(stdin: Readable, stdout: Writable, options: StdioDrainOptions) {
    this.inner = new StdioServerTransport(stdin, stdout);
    let resolveClosed!: () => void;
    this.closed = new Promise((resolve) => (resolveClosed = resolve));
    this.inner.onmessage = (message: JSONRPCMessage) => {
      this.received(message);
      this.onmessage?.(message);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      clearTimeout(this.bound);
      resolveClosed();
      this.onclose?.();
    };
    // Replaced before `start()` registers it (on stdin's end and close), so the end waits for the answers.
    this.closeAtOnce = this.inner._onstdinclose;
    this.inner._onstdinclose = () => {
      if (this.inputEnded) return;
      this.inputEnded = true;
      if (this.unanswered.size === 0) return this.closeAtOnce();
      this.bound = setTimeout(() => {
        const left = [...this.unanswered.values()].reduce((a, b) => a + b, 0);
        options.log(`stdin closed; ${left} request${left === 1 ? "" : "s"} still unanswered after ${options.drainMs / 1000} s dropped`);
        this.closeAtOnce();
      }, options.drainMs);
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    try {
      await this.inner.send(message);
    } finally {
      // Counted once written (or failed to be: a closed stdout answers nothing more), so the
      // close that follows the last answer comes after its bytes.
      if (isJSONRPCResponse(message)) this.settle(message.id);
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private received(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) {
      if (OPEN_ENDED.has(message.method)) return;
      const key = JSON.stringify(message.id);
      this.unanswered.set(key, (this.unanswered.get(key) ?? 0) + 1);
    } else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === "string" || typeof id === "number") this.settle(id);
    }
  }

  private settle(id: unknown): void {
    const key = JSON.stringify(id);
    const count = this.unanswered.get(key);
    if (count === undefined) return;
    if (count > 1) this.unanswered.set(key, count - 1);
    else this.unanswered.delete(key);
    if (this.inputEnded && this.unanswered.size === 0 && this.bound !== undefined) {
      clearTimeout(this.bound);
      this.bound = undefined;
      this.closeAtOnce();
    }
  }
}
