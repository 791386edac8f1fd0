import { LIMITS } from "../../../limits.js";
import type { DocsRuntime } from "../../../tools/runtime.js";

/** One open stream: how to tell it of a change, and how to end it. */
interface Listener {
  readonly send: () => void;
  readonly end: () => void;
}

/**
 * Live reload: `GET /_svc/preview/events` is a server-sent event stream on which every reload of
 * the docs (an edit, as the MCP tools follow edits) sends `event: change`. It says nothing about
 * what changed, so it tells no reader anything about pages they may not read: each open page
 * asks for itself again and redraws when its own answer changed (src/web/preview/live.ts).
 */
export class ReloadStreams {
  /** Open streams, oldest first. */
  private readonly open = new Set<Listener>();
  private changes = 0;
  private readonly unsubscribe: () => void;

  constructor(runtime: DocsRuntime) {
    this.unsubscribe = runtime.onChange(() => {
      this.changes++;
      for (const listener of [...this.open]) listener.send();
    });
  }

  /** A new stream. Past `LIMITS.preview.maxReloadStreams` the oldest is ended (its page reconnects). */
  stream(): Response {
    const encoder = new TextEncoder();
    let listener: Listener | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let ended = false;
        const write = (text: string): void => {
          if (ended) return;
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            end();
          }
        };
        // A comment now and then keeps proxies from closing an idle stream (`reloadHeartbeatMs`).
        const heartbeat = setInterval(() => write(": ping\n\n"), LIMITS.preview.reloadHeartbeatMs);
        heartbeat.unref();
        const end = (): void => {
          if (ended) return;
          ended = true;
          clearInterval(heartbeat);
          if (listener !== undefined) this.open.delete(listener);
          try {
            controller.close();
          } catch {
            // Already closed: the client went away.
          }
        };
        listener = { send: () => write(`event: change\ndata: ${this.changes}\n\n`), end };
        this.open.add(listener);
        if (this.open.size > LIMITS.preview.maxReloadStreams) this.open.values().next().value?.end();
        // `retry`: how long a page waits before reconnecting (after the server restarted, say).
        write(`retry: 1000\nevent: ready\ndata: ${this.changes}\n\n`);
      },
      cancel: () => listener?.end(),
    });
    return new Response(body, {
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
    });
  }

  /** Stop listening to the runtime and end every stream. */
  close(): void {
    this.unsubscribe();
    for (const listener of [...this.open]) listener.end();
  }
}
