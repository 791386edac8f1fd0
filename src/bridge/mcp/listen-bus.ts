import { AsyncLocalStorage } from "node:async_hooks";
import type { ServerEvent, ServerEventBus } from "@modelcontextprotocol/server";
import { closableStream } from "./closable-stream.js";
import type { ListKind, NotificationStream, NotificationStreams, StreamOpening } from "./notification-streams.js";

/** A `subscriptions/listen` request being served, and the stream it opened (once the SDK subscribed it). */
interface PendingListen {
  readonly opening: StreamOpening;
  stream: NotificationStream | undefined;
}

const EVENT: Readonly<Record<ListKind, ServerEvent>> = { tools: { kind: "tools_list_changed" }, resources: { kind: "resources_list_changed" } };

/**
 * The event bus of the SDK's 2026-07-28 handler, per reader. The SDK serves
 * `subscriptions/listen` itself (the acknowledgement, the filter the client asked for, the
 * subscription id, keep-alives) and subscribes each stream to one bus, where an event reaches
 * every stream. Here a stream is subscribed as the reader of the request that opened it (the
 * request runs inside `serve`, and the SDK subscribes synchronously while serving it), and
 * `NotificationStreams` tells each stream what changed for its reader; nothing is published to
 * all. `serve` also makes the stream one the bridge can end (a revoked token).
 */
export class ListenBus implements ServerEventBus {
  private readonly pending = new AsyncLocalStorage<PendingListen>();

  constructor(private readonly streams: NotificationStreams) {}

  /**
   * Serve a `subscriptions/listen` request (`handle`: the SDK's handler), for `opening`'s reader.
   * `ended` is called once, when the stream ends or at once when none opened; `opened` when one
   * opened, with what ends it from our side (`ClosableStream.close`).
   */
  async serve(opening: StreamOpening, handle: () => Promise<Response>, ended: () => void = () => {}, opened: (close: (last?: string) => void) => void = () => {}): Promise<Response> {
    const pending: PendingListen = { opening, stream: undefined };
    let response: Response;
    try {
      response = await this.pending.run(pending, handle);
    } catch (error) {
      if (pending.stream !== undefined) this.streams.delete(pending.stream);
      ended();
      throw error;
    }
    const stream = pending.stream;
    // Refused (a bad filter) or ended at once (a filter of nothing we send).
    if (stream === undefined || response.body === null) {
      if (stream !== undefined) this.streams.delete(stream);
      ended();
      return response;
    }
    const closable = closableStream(response, () => {
      this.streams.delete(stream);
      ended();
    });
    stream.close = closable.close;
    opened(closable.close);
    return closable.response;
  }

  publish(): void {
    // Nothing is told to every stream alike: see NotificationStreams.
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    const pending = this.pending.getStore();
    // Only a listen request served through `serve` has a reader to be told for: any other hears nothing.
    if (pending === undefined) return () => {};
    const stream = this.streams.add(pending.opening, (kind) => listener(EVENT[kind]), () => {});
    pending.stream = stream;
    return () => this.streams.delete(stream);
  }
}
