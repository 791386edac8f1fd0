import type { SiteSettings } from "../../store/state/state-store.js";
import { changedLists, type ListFingerprints, listFingerprints } from "../../mcp/reader-lists.js";
import { ANONYMOUS } from "../../vfs/access.js";
import { type RequestContext, visibilityKey } from "../../vfs/request-context.js";
import { mcpAvailable } from "../middleware/access-policy.js";
import { authenticateBearer } from "../auth/bearer.js";
import type { BridgeDeps } from "../context.js";
import { bridgeContext } from "../middleware/request-context.js";
import type { BridgeUrls } from "../urls.js";
import type { Endpoint } from "./sessions.js";

/** A list a client can be told changed. */
export type ListKind = "tools" | "resources";

/** How a notification stream was opened: by whom, with which credentials. */
export interface StreamOpening {
  readonly endpoint: Endpoint;
  /** The `Authorization` header it was opened with (`/authed/mcp`): checked again before it is told anything. */
  readonly authorization: string | undefined;
  /** The URLs of the request that opened it (a token's audience is checked against them). */
  readonly urls: BridgeUrls;
  /** The opening request's context: its reader's lists are what the first change is compared with. */
  readonly context: RequestContext;
  /** The client renders MCP Apps (`io.modelcontextprotocol/ui`): its lists hold the reader's playground apps. */
  readonly apps?: boolean;
}

/** An open stream of list_changed notifications: a 2025 session's GET stream or a 2026-07-28 `subscriptions/listen`. */
export interface NotificationStream extends StreamOpening {
  /** What its reader's lists answered when it was last told (or opened). */
  lists: ListFingerprints;
  readonly notify: (kind: ListKind) => void;
  /** End the stream from our side (its token no longer holds, or MCP was turned off). */
  close: () => void;
}

/**
 * The open notification streams of both generations, and what each is told after a site change:
 * a list's `list_changed` only when the answer its own reader would now get to that list
 * differs from the last one (a page edit that changes no tool text and no skill tells nobody; a
 * skill restricted to `staff` tells only the streams of `staff` readers). Before a stream is
 * told anything its token is checked again, and the site's settings read again: a stream whose
 * token was revoked or expired (or of a server whose MCP was turned off) is closed instead, so
 * it hears nothing more. The sweeper runs the same check between changes (`recheck`).
 */
export class NotificationStreams {
  private readonly open = new Set<NotificationStream>();
  /** Announcements in order: a later change is never told before an earlier one. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: BridgeDeps) {}

  get size(): number {
    return this.open.size;
  }

  /** Follow a stream: its reader's lists as of now are what the next change is compared with. */
  add(opening: StreamOpening, notify: (kind: ListKind) => void, close: () => void): NotificationStream {
    const stream: NotificationStream = { ...opening, lists: listFingerprints(this.deps.runtime, this.deps.tools, opening.context, this.withApps(opening)), notify, close };
    this.open.add(stream);
    return stream;
  }

  delete(stream: NotificationStream): void {
    this.open.delete(stream);
  }

  /** After a site change: tell each stream about the lists its reader sees changed. Resolves when all were told. */
  announce(): Promise<void> {
    return this.enqueue(true);
  }

  /** Close the streams whose token no longer holds (between changes). */
  recheck(): Promise<void> {
    return this.enqueue(false);
  }

  /** End every stream (the endpoint closes). */
  closeAll(): void {
    for (const stream of [...this.open]) this.end(stream);
  }

  private enqueue(announce: boolean): Promise<void> {
    this.queue = this.queue
      .then(() => this.visit(announce))
      .catch((error: unknown) => this.deps.log(`error: telling MCP clients about list changes: ${(error as Error).stack ?? String(error)}`));
    return this.queue;
  }

  private async visit(announce: boolean): Promise<void> {
    if (this.open.size === 0) return;
    const settings = await this.deps.state.settings();
    // Many streams share a reader: each reader's lists are written once per change.
    const listsOf = new Map<string, ListFingerprints>();
    for (const stream of [...this.open]) {
      const context = await this.currentContext(stream, settings);
      if (context === undefined) {
        this.end(stream);
        continue;
      }
      if (!announce || !this.open.has(stream)) continue;
      const apps = this.withApps(stream);
      const key = `${visibilityKey(context)}${apps ? " apps" : ""}`;
      const now = listsOf.get(key) ?? listFingerprints(this.deps.runtime, this.deps.tools, context, apps);
      listsOf.set(key, now);
      const changed = changedLists(stream.lists, now);
      stream.lists = now;
      if (changed.resources) stream.notify("resources");
      if (changed.tools) stream.notify("tools");
    }
  }

  /** True when the stream's lists hold playground apps: the server offers them and its client renders them. */
  private withApps(opening: StreamOpening): boolean {
    return opening.apps === true && this.deps.apps !== undefined;
  }

  /** The stream's reader now (its token's current groups), or undefined when it may hear nothing more. */
  private async currentContext(stream: NotificationStream, settings: SiteSettings): Promise<RequestContext | undefined> {
    if (!mcpAvailable(settings)) return undefined;
    if (stream.endpoint === "mcp") return bridgeContext(settings, ANONYMOUS, this.deps.now, stream.context.caller);
    const auth = await authenticateBearer(stream.authorization, this.deps.state, stream.urls);
    return auth.ok ? bridgeContext(settings, auth.caller.reader, this.deps.now, auth.caller.principal) : undefined;
  }

  private end(stream: NotificationStream): void {
    this.open.delete(stream);
    stream.close();
  }
}
